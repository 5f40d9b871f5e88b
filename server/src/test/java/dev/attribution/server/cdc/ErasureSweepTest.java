package dev.attribution.server.cdc;

import dev.attribution.server.support.ApiTest;
import dev.attribution.testing.TestStack;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.attribution.server.cdc.CdcTesting.ch;
import static dev.attribution.server.cdc.CdcTesting.chLong;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * DELETE /leads through the API (spec 3.2): once the request is processed, the bridge's sweep removes every old
 * version of the lead from ClickHouse, so no table or view keeps its email, phone or name; another lead keeps its own.
 */
@MicronautTest(transactional = false)
class ErasureSweepTest extends ApiTest {

    @Test
    void deleteLeadLeavesNoTraceInClickHouse() {
        String key = newAccount();
        String id = write(key, "POST", "/api/v1.0/leads", """
                {"email":"sweep.me@example.com","firstName":"Ada","lastName":"Sweepington","phoneNumbers":["+15550009999"]}""")
                .get("result").get("id").asText();
        write(key, "POST", "/api/v1.0/leads", "{\"email\":\"stays@example.com\",\"lastName\":\"Sweepington\"}");
        write(key, "PUT", "/api/v1.0/leads?email=sweep.me@example.com", "{\"firstName\":\"Adah\"}");
        await(() -> columnsHolding("sweep.me@example.com").isEmpty() ? null : true);
        await(() -> columnsHolding("+15550009999").isEmpty() ? null : true);

        assertEquals("PROCESSED", write(key, "DELETE", "/api/v1.0/leads?email=sweep.me@example.com", null).get("status").asText());

        for (String secret : List.of("sweep.me@example.com", "+15550009999", "Adah", "Ada")) {
            await(() -> columnsHolding(secret).isEmpty() ? true : null);
        }
        String db = TestStack.get().clickhouseDatabase();
        assertEquals(0, chLong("SELECT count() FROM " + db + ".leads WHERE id = '" + id + "' AND last_name = 'Sweepington'"));
        assertEquals(1, chLong("SELECT count() FROM " + db + ".leads_current WHERE email = 'stays@example.com' AND last_name = 'Sweepington'"));
        assertFalse(columnsHolding("stays@example.com").isEmpty(), "other leads keep their data");
    }

    /** Tables and views of the ClickHouse database with a String-holding column holding {@code secret}. */
    private static List<String> columnsHolding(String secret) {
        String db = TestStack.get().clickhouseDatabase();
        List<String> hits = new ArrayList<>();
        for (String line : ch("SELECT table, name, type FROM system.columns WHERE database = '" + db + "' AND type LIKE '%String%'").split("\n")) {
            String[] f = line.split("\t");
            String match = f[2].startsWith("Array(") ? "has(" + f[1] + ", '" + secret + "')" : f[1] + " = '" + secret + "'";
            if (chLong("SELECT count() FROM " + db + "." + f[0] + " WHERE " + match) > 0) {
                hits.add(f[0] + "." + f[1]);
            }
        }
        return hits;
    }
}
