package dev.attribution.server.commerce;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.server.support.ApiTest;
import dev.attribution.testing.TestStack;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Sales, calls and subscriptions reach ClickHouse through the CDC bridge: month partitions by sale date, exact
 * Decimal(18,2) money, refunds and purchase flags, soft deletes leaving the *_current views.
 */
@MicronautTest(transactional = false)
class CommerceStreamTest extends ApiTest {

    String key;
    String accountId;

    @BeforeAll
    void account() {
        key = newAccount();
        JsonNode sale = write(key, "POST", "/api/v1.0/orders", "{\"email\":\"stream@example.com\",\"orderId\":\"ord-stream\","
                + "\"date\":\"2026-03-15T10:00:00Z\",\"shippingCost\":0.01,\"hardCost\":1.00,"
                + "\"items\":[{\"name\":\"Stream A\",\"price\":10.10},{\"name\":\"Stream B\",\"price\":0.20}]}").get("result").get(0);
        accountId = accountOf(sale.get("lead").get("id").asText());
    }

    static String ch(String sql) {
        return TestStack.get().clickhouse(sql.replace("{db}", TestStack.get().clickhouseDatabase()) + " FORMAT TabSeparated").trim();
    }

    String accountOf(String leadId) {
        return await(() -> {
            String out = ch("SELECT account_id FROM {db}.leads WHERE id = '" + leadId + "' LIMIT 1");
            return out.isEmpty() ? null : out;
        });
    }

    String waitFor(String sql, String expected) {
        return await(() -> {
            String out = ch(sql);
            return out.equals(expected) ? out : null;
        });
    }

    @Test
    void salesStreamWithExactMoneyInTheSaleMonthPartition() {
        waitFor("SELECT count(), toString(sum(sale_price)), toString(sum(sale_hard_cost)), sum(is_first_sale), sum(is_last_purchase) "
                + "FROM {db}.sales_current WHERE account_id = '" + accountId + "'", "2\t10.31\t1.00\t2\t2");
        assertEquals("202603", ch("SELECT DISTINCT partition FROM system.parts WHERE database = '{db}' AND table = 'sales' AND active "
                + "AND partition = '202603'"));
        assertEquals("Decimal(18, 2)", ch("SELECT type FROM system.columns WHERE database = '{db}' AND table = 'sales' AND name = 'price'"));
    }

    @Test
    void refundsAndDeletesReachTheCurrentView() {
        write(key, "POST", "/api/v1.0/orders", "{\"email\":\"stream2@example.com\",\"orderId\":\"ord-stream-2\",\"items\":[{\"name\":\"Stream C\",\"price\":4},{\"name\":\"Stream D\",\"price\":6}]}");
        write(key, "DELETE", "/api/v1.0/orders/ord-stream-2?refundedAmount=5", null);
        waitFor("SELECT sum(is_refunded), toString(sum(sale_refunded_amount)) FROM {db}.sales_current WHERE account_id = '" + accountId
                + "' AND sale_order_id = 'ord-stream-2'", "2\t5.00");
        write(key, "PUT", "/api/v1.0/orders/ord-stream-2", "{\"items\":[{\"name\":\"Stream E\",\"price\":3}]}");
        waitFor("SELECT count(), toString(sum(sale_price)) FROM {db}.sales_current WHERE account_id = '" + accountId
                + "' AND sale_order_id = 'ord-stream-2'", "1\t3.00");
    }

    @Test
    void callsAndSubscriptionsStreamToo() {
        write(key, "POST", "/api/v1.0/calls", "{\"name\":\"Stream call\",\"email\":\"stream@example.com\",\"state\":\"QUALIFIED\"}");
        waitFor("SELECT count(), sum(is_qualified), any(call_state) FROM {db}.calls_current WHERE account_id = '" + accountId + "'", "1\t1\tQUALIFIED");
        write(key, "POST", "/api/v1.0/subscriptions", "{\"email\":\"stream@example.com\",\"status\":\"ACTIVE\",\"startDate\":\"2026-02-01\",\"price\":9.99,\"periodicity\":\"MONTH\"}");
        waitFor("SELECT count(), toString(sum(subscription_price)), any(subscription_status) FROM {db}.subscriptions_current WHERE account_id = '"
                + accountId + "'", "1\t9.99\tACTIVE");
    }

    @Test
    void aCallMovedToAnotherLeadIsCountedOnceUnderTheNewLead() {
        // POST /calls upserts by externalId: the same call sent with another email moves it to that lead
        String moveKey = newAccount();
        JsonNode first = write(moveKey, "POST", "/api/v1.0/calls", "{\"name\":\"Move\",\"email\":\"before@example.com\",\"externalId\":\"cal-move\"}").get("result");
        String account = accountOf(first.get("lead").get("id").asText());
        waitFor("SELECT count() FROM {db}.calls_current WHERE account_id = '" + account + "'", "1");
        JsonNode moved = write(moveKey, "POST", "/api/v1.0/calls", "{\"name\":\"Move\",\"email\":\"after@example.com\",\"externalId\":\"cal-move\"}").get("result");
        String after = moved.get("lead").get("id").asText();
        waitFor("SELECT count(), any(lead_id) FROM {db}.calls_current WHERE account_id = '" + account + "'", "1\t" + after);
    }
}
