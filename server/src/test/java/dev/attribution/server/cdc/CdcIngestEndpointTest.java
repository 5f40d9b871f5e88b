package dev.attribution.server.cdc;

import dev.attribution.api.NodeSide;
import dev.attribution.api.RequestIds;
import dev.attribution.api.ServedBy;
import dev.attribution.cdc.ingest.CdcIngestController;
import dev.attribution.server.support.ApiTest;
import dev.attribution.testing.TestStack;
import io.micronaut.context.annotation.Property;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.Test;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code POST /cdc/ingest} (docs/scaling.md "CDC outside the process"): what Debezium Server's HTTP sink posts, signed
 * the Standard Webhooks way with {@code attribution.cdc.ingest.secret}, reaches the ClickHouse table of the same name
 * with the change's WAL position as {@code _version} and deletes as {@code is_deleted}; a replayed post changes no
 * current row; unsigned, wrongly signed or stale posts are 401 and bad JSON a 400, in the error envelope.
 */
@MicronautTest(transactional = false)
@Property(name = "attribution.cdc.ingest.secret", value = CdcIngestEndpointTest.SECRET)
class CdcIngestEndpointTest extends ApiTest {

    static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"; // 24 bytes

    @Test
    void signedChangesReachClickHouseWithTheirVersionsAndDeletes() {
        String acc = RequestIds.next("acc_");
        String db = TestStack.get().clickhouseDatabase();
        String batch = "[" + event(acc, "c", 1000, "a", null) + "," + event(acc, "c", 1001, "b", null) + ",{\"ts_ms\":1}]";
        assertEquals(204, signed(batch, now()).status());
        assertEquals(204, signed(event(acc, "d", 1002, null, "a"), now()).status());
        assertEquals(204, signed(batch, now()).status()); // a replay: versions 1000 and 1001 again
        // merge-invariant: the newest version of each key, and whether it is a delete
        assertEquals("a\t1002\t1\nb\t1001\t0\n", TestStack.get().clickhouse("SELECT tag, max(_version), argMax(is_deleted, _version) FROM "
                + db + ".lead_tags WHERE account_id = '" + acc + "' GROUP BY tag ORDER BY tag"));
        assertEquals("b\n", TestStack.get().clickhouse("SELECT tag FROM " + db + ".lead_tags_current WHERE account_id = '" + acc + "'"));
    }

    @Test
    void theEndpointDeclaresItsSide() {
        assertEquals(NodeSide.EVERY_NODE, CdcIngestController.class.getAnnotation(ServedBy.class).value());
    }

    @Test
    void unsignedWronglySignedStaleAndMalformedPostsAreRefused() {
        String body = event(RequestIds.next("acc_"), "c", 1, "a", null);
        Response unsigned = sendWithHeaders("POST", "/cdc/ingest", body, Map.of());
        assertEquals(401, unsigned.status(), unsigned.raw());
        assertEquals("The post is not signed with attribution.cdc.ingest.secret (Standard Webhooks headers webhook-id, "
                + "webhook-timestamp within 300 s, webhook-signature)", unsigned.message());
        long now = now();
        Map<String, String> wrong = headers("whsec_" + Base64.getEncoder().encodeToString(new byte[24]), "m1", now, body);
        assertEquals(401, sendWithHeaders("POST", "/cdc/ingest", body, wrong).status());
        assertEquals(401, signed(body, now - 301).status());
        Response malformed = signed("{\"op\":", now);
        assertEquals(400, malformed.status(), malformed.raw());
        Response noTable = signed("{\"op\":\"c\",\"after\":{\"id\":\"x\"},\"source\":{}}", now);
        assertEquals(400, noTable.status(), noTable.raw());
        assertEquals("a change event has no source.table", noTable.message());
    }

    private Response signed(String body, long timestamp) {
        return sendWithHeaders("POST", "/cdc/ingest", body, headers(SECRET, RequestIds.next("msg_"), timestamp, body));
    }

    /** The headers Debezium Server's {@code standard-webhooks} authentication sends (computed here independently). */
    private static Map<String, String> headers(String secret, String id, long timestamp, String body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(Base64.getDecoder().decode(secret.substring("whsec_".length())), "HmacSHA256"));
            String signature = Base64.getEncoder().encodeToString(mac.doFinal((id + "." + timestamp + "." + body).getBytes(StandardCharsets.UTF_8)));
            return Map.of("webhook-id", id, "webhook-timestamp", Long.toString(timestamp), "webhook-signature", "v1,x v1," + signature,
                    "Content-Type", "application/json");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** A Debezium change event of {@code lead_tags} as the JSON converter writes it with schemas off. */
    private static String event(String acc, String op, long lsn, String after, String before) {
        return "{\"before\":" + image(acc, before) + ",\"after\":" + image(acc, after) + ",\"source\":{\"version\":\"3.6.3.Final\","
                + "\"connector\":\"postgresql\",\"table\":\"lead_tags\",\"schema\":\"public\",\"lsn\":" + lsn + ",\"ts_ms\":1763700000000},"
                + "\"op\":\"" + op + "\",\"ts_ms\":1763700000100}";
    }

    private static String image(String acc, String tag) {
        return tag == null ? "null" : "{\"account_id\":\"" + acc + "\",\"lead_id\":\"lead_1\",\"tag\":\"" + tag + "\","
                + "\"assigned_at\":\"2026-11-20T08:00:00.000000Z\"}";
    }

    private static long now() {
        return System.currentTimeMillis() / 1000;
    }
}
