package dev.attribution.command.sales;

import dev.attribution.server.support.ApiTest;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The purchase flags' UPDATE ({@link SalesTable#refreshFlags}, {@link SalesTable#refreshFlagsMany}) is planned for each
 * call, never kept as a server-prepared statement: a generic plan kept from when the account had one sale joined its
 * sales to themselves, seconds per call a minute later (docs/BENCHMARKS.md "The first-sale flags' kept plan").
 */
@MicronautTest(transactional = false)
class FirstSaleFlagsPlanTest extends ApiTest {

    @Inject
    SalesTable sales;

    @Test
    void theFlagsUpdateIsNeverServerPreparedAndMarksTheFirstAndLastOrders() throws Exception {
        String key = newAccount();
        for (String[] order : new String[][] {{"flags-2", "2026-02-01T12:00:00Z"}, {"flags-1", "2026-01-01T12:00:00Z"}, {"flags-3", "2026-03-01T12:00:00Z"}}) {
            processed(key, "POST", "/api/v1.0/orders", "{\"email\":\"flags@plan.test\",\"orderId\":\"" + order[0] + "\",\"date\":\"" + order[1]
                    + "\",\"items\":[{\"name\":\"Widget\",\"price\":10}]}", "CREATE_ORDER");
        }
        try (Connection c = DelegatingDataSource.unwrapDataSource(ownDataSource).getConnection()) {
            c.setAutoCommit(false);
            try {
                String account;
                String lead;
                try (PreparedStatement ps = c.prepareStatement("SELECT account_id, lead_id FROM sales WHERE order_id = 'flags-1'");
                     ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    account = rs.getString(1);
                    lead = rs.getString(2);
                }
                assertEquals("flags-1:t:f,flags-2:f:f,flags-3:f:t", flags(c, account), "the writes set the flags");
                // scramble the flags, then more calls than pgjdbc's prepareThreshold (5) of each form (7 each)
                for (int round = 0; round < 14; round++) {
                    try (PreparedStatement ps = c.prepareStatement("UPDATE sales SET first_sale = NOT first_sale WHERE account_id = ?")) {
                        ps.setString(1, account);
                        ps.executeUpdate();
                    }
                    if (round % 2 == 0) {
                        sales.refreshFlags(c, account, lead, Instant.now());
                    } else {
                        sales.refreshFlagsMany(c, List.of(account), List.of(lead), List.of(Instant.now()));
                    }
                    assertEquals("flags-1:t:f,flags-2:f:f,flags-3:f:t", flags(c, account), "round " + round);
                }
                try (PreparedStatement ps = c.prepareStatement(
                        "SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE '%UPDATE sales s SET first_sale = w.f%'");
                     ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    assertEquals(0, rs.getLong(1), "the flags UPDATE is not kept prepared on the connection");
                }
            } finally {
                c.rollback();
            }
        }
    }

    /** order:first_sale:last_purchase of the account's live sales, by order id. */
    private static String flags(Connection c, String account) throws Exception {
        try (PreparedStatement ps = c.prepareStatement("SELECT string_agg(order_id || ':' || (CASE WHEN first_sale THEN 't' ELSE 'f' END) || ':'"
                + " || (CASE WHEN last_purchase THEN 't' ELSE 'f' END), ',' ORDER BY order_id) FROM sales WHERE account_id = ? AND NOT deleted")) {
            ps.setString(1, account);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        }
    }
}
