package dev.attribution.server.glue;

import dev.attribution.server.support.ApiTest;
import dev.attribution.testing.TestStack;
import io.micronaut.context.annotation.Property;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** DELETE /leads queues the lead for dev.attribution.cdc.Erasure; the background sweep leaves nothing in ClickHouse. */
@MicronautTest(transactional = false)
@Property(name = "attribution.cdc.erasure-sweep.enabled", value = "true")
class ClickHouseErasureTest extends ApiTest {

    static String ch(String sql) {
        return TestStack.get().clickhouse(sql.replace("{db}", TestStack.get().clickhouseDatabase()) + " FORMAT TabSeparated").trim();
    }

    @Test
    void erasedLeadsOldVersionsLeaveClickHouse() {
        String key = newAccount();
        String id = write(key, "POST", "/api/v1.0/leads",
                "{\"email\":\"ch-gone@glue.com\",\"phoneNumbers\":\"+15550003333\",\"tags\":[\"!secret\"]}").get("result").get("id").asText();
        await(() -> "0".equals(ch("SELECT count() FROM {db}.lead_phones WHERE lead_id = '" + id + "'")) ? null : true);
        assertEquals("PROCESSED", write(key, "DELETE", "/api/v1.0/leads?email=ch-gone@glue.com", null).get("status").asText());
        await(() -> "1".equals(GlueTest.one("SELECT count(*) FROM clickhouse_erasures WHERE lead_id = '" + id + "' AND done_at IS NOT NULL")) ? true : null);
        assertEquals("0", ch("SELECT count() FROM {db}.lead_phones WHERE lead_id = '" + id + "'"));
        assertEquals("0", ch("SELECT count() FROM {db}.lead_tags WHERE lead_id = '" + id + "'"));
        assertEquals("0", ch("SELECT count() FROM {db}.leads WHERE id = '" + id + "' AND email = 'ch-gone@glue.com'"));
    }
}
