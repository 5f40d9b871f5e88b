package dev.attribution.server.commerce;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.auth.Account;
import dev.attribution.command.orders.TagSales;
import dev.attribution.server.support.ApiTest;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The sale a {@code $} tag generates (spec 3.2), through the hook lead writes call. */
@MicronautTest(transactional = false)
class TagSalesTest extends ApiTest {

    @Inject
    TagSales tagSales;

    @Inject
    DataSource dataSource;

    String key;
    Account account;
    String leadId;

    @BeforeAll
    void data() {
        key = newAccount();
        JsonNode product = write(key, "POST", "/api/v1.0/products", "{\"name\":\"Tagged Course\",\"price\":49.5}").get("result");
        assertEquals("$tagged-course", product.get("tag").asText());
        JsonNode lead = write(key, "POST", "/api/v1.0/leads", "{\"email\":\"tagged@example.com\"}").get("result");
        leadId = lead.get("id").asText();
        account = directory.find(accountOfLead()).orElseThrow();
    }

    private String accountOfLead() {
        try (Connection c = DelegatingDataSource.unwrapDataSource(dataSource).getConnection();
             var ps = c.prepareStatement("SELECT account_id FROM leads WHERE id = ?")) {
            ps.setString(1, leadId);
            try (var rs = ps.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
    }

    private Optional<JsonNode> tag(String tag, Instant date) throws SQLException {
        try (Connection c = DelegatingDataSource.unwrapDataSource(dataSource).getConnection()) {
            c.setAutoCommit(false);
            Optional<JsonNode> out = tagSales.saleForTag(c, account, leadId, tag, date, Instant.now());
            c.commit();
            return out;
        }
    }

    @Test
    void aProductTagMakesOneBackdatedSaleAtTheProductPrice() throws SQLException {
        JsonNode sales = tag("$tagged-course", Instant.parse("2026-02-02T15:00:00Z")).orElseThrow();
        assertEquals(1, sales.size());
        JsonNode listed = get(key, "/api/v1.0/sales?leadIds=" + list(leadId)).body().get("result");
        assertEquals(1, listed.size());
        assertEquals("$tagged-course", listed.get(0).get("product").get("tag").asText());
        Money.assertAmount("49.50", listed.get(0).get("price").get("price"));
        assertEquals("Mon Feb 02 10:00:00 EST 2026", listed.get(0).get("creationDate").asText());
    }

    @Test
    void aTagWithoutProductMakesNoSale() throws SQLException {
        assertTrue(tag("$no-such-product", null).isEmpty());
        assertTrue(tag("!action", null).isEmpty());
    }
}
