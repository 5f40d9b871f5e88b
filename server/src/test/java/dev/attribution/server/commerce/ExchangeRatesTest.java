package dev.attribution.server.commerce;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.server.admin.AdminCli;
import dev.attribution.server.support.ApiTest;
import dev.attribution.testing.TestStack;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** usd_price of sales from the exchange rates the admin CLI loads (docs/money.md). */
@MicronautTest(transactional = false)
class ExchangeRatesTest extends ApiTest {

    @Inject
    DataSource dataSource;

    String key;

    @BeforeAll
    void rates() {
        key = newAccount();
        Map<String, String> props = TestStack.get().properties();
        System.setProperty("datasources.default.url", props.get("datasources.default.url"));
        System.setProperty("datasources.default.username", props.get("datasources.default.username"));
        System.setProperty("datasources.default.password", props.get("datasources.default.password") == null ? "" : props.get("datasources.default.password"));
        try {
            assertEquals(0, AdminCli.run(new String[]{"exchange-rate", "set", "--currency", "eur", "--usd-rate", "1.10", "--from", "2026-01-01"}));
            assertEquals(0, AdminCli.run(new String[]{"exchange-rate", "set", "--currency", "EUR", "--usd-rate", "1.2", "--from", "2026-03-01"}));
        } finally {
            System.clearProperty("datasources.default.url");
            System.clearProperty("datasources.default.username");
            System.clearProperty("datasources.default.password");
        }
    }

    String saleId(String currency, String date, String price) {
        JsonNode status = write(key, "POST", "/api/v1.0/orders", "{\"email\":\"fx@example.com\",\"currency\":\"" + currency
                + "\",\"date\":\"" + date + "\",\"items\":[{\"name\":\"FX Item\",\"price\":" + price + "}]}");
        assertEquals("PROCESSED", status.get("status").asText(), status.toString());
        return status.get("result").get(0).get("id").asText();
    }

    @Test
    void usdPriceUsesTheRateInForceOnTheSaleDate() throws SQLException {
        assertEquals(0, new BigDecimal("11.00").compareTo(usd(saleId("EUR", "2026-02-01T10:00:00Z", "10.00"))));
        assertEquals(0, new BigDecimal("12.35").compareTo(usd(saleId("EUR", "2026-03-05T10:00:00Z", "10.29"))), "10.29 × 1.2 = 12.348 → 12.35");
        assertEquals(0, new BigDecimal("7.77").compareTo(usd(saleId("USD", "2026-02-01T10:00:00Z", "7.77"))));
        assertNull(usd(saleId("GBP", "2026-02-01T10:00:00Z", "5")), "no rate loaded: unknown, not zero");
        assertNull(usd(saleId("EUR", "2025-12-31T10:00:00Z", "5")), "before the first rate");
    }

    @Test
    void theCliRefusesBadInput() {
        assertEquals(2, AdminCli.run(new String[]{"exchange-rate", "set", "--currency", "XXZ", "--usd-rate", "1"}));
        assertEquals(2, AdminCli.run(new String[]{"exchange-rate", "set", "--currency", "EUR", "--usd-rate", "-1"}));
    }

    private BigDecimal usd(String saleId) throws SQLException {
        try (Connection c = DelegatingDataSource.unwrapDataSource(dataSource).getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT usd_price FROM sales WHERE id = ?")) {
            ps.setString(1, saleId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getBigDecimal(1);
            }
        }
    }
}
