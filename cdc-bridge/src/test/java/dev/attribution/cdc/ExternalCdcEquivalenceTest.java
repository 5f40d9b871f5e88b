package dev.attribution.cdc;

import dev.attribution.cdc.ingest.DebeziumJsonEvents;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The external CDC path (Debezium Server's HTTP sink, docs/scaling.md "CDC outside the process") writes what the
 * embedded bridge writes: the same change event, once as the bridge's Connect Struct and once as the JSON Debezium
 * Server posts (Kafka Connect's JsonConverter, schemas off, as config/debezium-server/application.properties sets it),
 * gives the same table, version, delete flag and ClickHouse values; and the Debezium Server configuration equals the
 * embedded engine's for every setting they share, so the slot, publication, tables and offsets are the same.
 */
class ExternalCdcEquivalenceTest {

    private static final Schema ROW = SchemaBuilder.struct().optional()
            .field("id", Schema.STRING_SCHEMA)
            .field("price", Schema.STRING_SCHEMA) // decimal.handling.mode=string
            .field("quantity", Schema.INT32_SCHEMA)
            .field("sale_date", SchemaBuilder.int64().name("io.debezium.time.MicroTimestamp").build())
            .field("updated_at", SchemaBuilder.string().name("io.debezium.time.ZonedTimestamp").build())
            .field("refund_date", SchemaBuilder.string().name("io.debezium.time.ZonedTimestamp").optional().build())
            .field("day", SchemaBuilder.int32().name("io.debezium.time.Date").build())
            .field("recurring", Schema.BOOLEAN_SCHEMA)
            .field("tags", SchemaBuilder.array(Schema.STRING_SCHEMA).build())
            .build();
    private static final Schema SOURCE = SchemaBuilder.struct()
            .field("table", Schema.STRING_SCHEMA).field("lsn", Schema.OPTIONAL_INT64_SCHEMA).field("ts_ms", Schema.INT64_SCHEMA).build();
    private static final Schema ENVELOPE = SchemaBuilder.struct()
            .field("before", ROW).field("after", ROW).field("source", SOURCE).field("op", Schema.STRING_SCHEMA)
            .field("ts_ms", Schema.OPTIONAL_INT64_SCHEMA).build();
    /** ClickHouse types of the columns, as the sink reads them from system.columns. */
    private static final Map<String, String> TYPES = Map.of("id", "String", "price", "Decimal(18, 2)", "quantity", "Int32",
            "sale_date", "DateTime('UTC')", "updated_at", "DateTime('UTC')", "refund_date", "Nullable(DateTime('UTC'))",
            "day", "Date", "recurring", "UInt8", "tags", "Array(String)");

    @Test
    void aChangePostedAsJsonIsTheChangeTheBridgeReads() {
        Struct before = row("s1", "10.00", null);
        Struct after = row("s1", "12345678901234.56", "2026-11-20T08:00:00.123456Z");
        for (String op : List.of("c", "u", "d", "r")) {
            Struct envelope = new Struct(ENVELOPE).put("before", before).put("after", after).put("op", op).put("ts_ms", 1L)
                    .put("source", new Struct(SOURCE).put("table", "sales").put("lsn", 987654321012L).put("ts_ms", 1_763_700_000_123L));
            Change embedded = CdcBridge.toChange(new SourceRecord(Map.of(), Map.of(), "t", ENVELOPE, envelope));
            List<Change> posted = DebeziumJsonEvents.parse(json(envelope));
            assertEquals(1, posted.size());
            Change external = posted.get(0);
            assertEquals(embedded.table(), external.table());
            assertEquals(embedded.version(), external.version(), op);
            assertEquals(embedded.deleted(), external.deleted(), op);
            assertEquals(embedded.sourceMillis(), external.sourceMillis());
            assertEquals("r".equals(op) ? 0 : 987654321012L, external.version());
            TYPES.forEach((column, type) -> assertEquals(String.valueOf(ColumnValues.shape(embedded.row().get(column), type)),
                    String.valueOf(ColumnValues.shape(external.row().get(column), type)), op + " " + column));
        }
    }

    @Test
    void heartbeatsAndTheHeartbeatTableAreLeftOutAndBatchesAndSchemasAreRead() {
        Struct beat = new Struct(ENVELOPE).put("after", row("x", "1.00", null)).put("op", "u")
                .put("source", new Struct(SOURCE).put("table", CdcBridge.HEARTBEAT_TABLE).put("lsn", 5L).put("ts_ms", 1L));
        Struct sale = new Struct(ENVELOPE).put("after", row("s2", "1.00", null)).put("op", "c")
                .put("source", new Struct(SOURCE).put("table", "sales").put("lsn", 6L).put("ts_ms", 1L));
        String batch = "[" + new String(json(beat), StandardCharsets.UTF_8) + ",{\"ts_ms\":1763700000000},"
                + new String(json(sale), StandardCharsets.UTF_8) + "]";
        List<Change> changes = DebeziumJsonEvents.parse(batch.getBytes(StandardCharsets.UTF_8));
        assertEquals(1, changes.size());
        assertEquals("s2", changes.get(0).row().get("id"));
        JsonConverter withSchemas = new JsonConverter();
        withSchemas.configure(Map.of("schemas.enable", "true"), false);
        List<Change> wrapped = DebeziumJsonEvents.parse(withSchemas.fromConnectData("t", ENVELOPE, sale));
        assertEquals(6L, wrapped.get(0).version());
    }

    /** Every engine setting the embedded bridge gives, Debezium Server's file gives the same (defaults resolved). */
    @Test
    void debeziumServerIsConfiguredAsTheEmbeddedBridge() throws IOException {
        Properties file = new Properties();
        Path config = Path.of("").toAbsolutePath().getParent().resolve("config/debezium-server/application.properties");
        try (var in = Files.newBufferedReader(config)) {
            file.load(in);
        }
        CdcBridge bridge = new CdcBridge(new CdcSettings(), null, new CdcStatus(), null,
                "jdbc:postgresql://127.0.0.1:5432/attribution", "postgres", "");
        Properties embedded = bridge.properties();
        for (String key : embedded.stringPropertyNames()) {
            if (key.equals("name")) {
                continue; // the engine name keys the offsets: "attribution-cdc" here, "http" there; scripts/cdc-server hands over
            }
            String value = file.getProperty("debezium.source." + key);
            assertNotNull(value, "debezium.source." + key + " is missing from " + config);
            assertEquals(embedded.getProperty(key), defaults(value), "debezium.source." + key);
        }
        assertEquals("http", file.getProperty("debezium.sink.type"));
        assertEquals("standard-webhooks", file.getProperty("debezium.sink.http.authentication.type"));
        assertEquals("false", file.getProperty("debezium.format.value.schemas.enable"));
        assertTrue(Integer.parseInt(file.getProperty("debezium.sink.http.batch.max-size")) * 4096 < 10 * 1024 * 1024,
                "a batch fits the server's max-request-size at 4 KiB an event");
    }

    /** {@code ${NAME:default}} as its default, the way Debezium Server resolves it with NAME unset. */
    private static String defaults(String value) {
        Matcher m = Pattern.compile("\\$\\{[A-Z0-9_]+:([^}]*)}").matcher(value);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(out, Matcher.quoteReplacement(m.group(1)));
        }
        return m.appendTail(out).toString();
    }

    private static Struct row(String id, String price, String refund) {
        return new Struct(ROW).put("id", id).put("price", price).put("quantity", 3).put("sale_date", 1_763_625_600_123_456L)
                .put("updated_at", "2026-11-20T08:00:00.5+01:00").put("refund_date", refund).put("day", 20_412).put("recurring", true)
                .put("tags", List.of("a", "b"));
    }

    private static byte[] json(Struct envelope) {
        JsonConverter converter = new JsonConverter();
        converter.configure(Map.of("schemas.enable", "false"), false);
        return converter.fromConnectData("t", ENVELOPE, envelope);
    }
}
