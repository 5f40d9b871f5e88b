package dev.attribution.cdc.ingest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.attribution.cdc.CdcBridge;
import dev.attribution.cdc.Change;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Debezium Server's HTTP sink bodies as {@link Change}s: one change event, or (batch mode) a JSON array of them; each
 * the envelope ({@code before}, {@code after}, {@code source}, {@code op}), or with schemas on,
 * {@code {"schema": …, "payload": envelope}}. Heartbeats, the heartbeat table's rows and other records without a
 * row image are left out. Values arrive as the JSON converter writes Debezium's types (the same configuration as the
 * embedded bridge: decimals as strings, timestamps as microseconds or ISO text), which the sink shapes per column.
 */
public final class DebeziumJsonEvents {

    private static final ObjectMapper MAPPER = JsonMapper.builder().build();
    private static final TypeReference<Map<String, Object>> ROW = new TypeReference<>() { };

    private DebeziumJsonEvents() {
    }

    /** The row changes of a post, in the order posted; {@link IllegalArgumentException} when it is not such JSON. */
    public static List<Change> parse(byte[] body) {
        JsonNode root;
        try {
            root = MAPPER.readTree(body);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("the body is not JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new IllegalArgumentException("the body is not JSON: " + e.getMessage());
        }
        if (root == null || !(root.isArray() || root.isObject())) {
            throw new IllegalArgumentException("the body must be a Debezium change event or an array of them");
        }
        List<Change> changes = new ArrayList<>(root.isArray() ? root.size() : 1);
        for (JsonNode event : root.isArray() ? root : List.of(root)) {
            Change change = change(event.has("payload") && event.has("schema") ? event.get("payload") : event);
            if (change != null && !CdcBridge.HEARTBEAT_TABLE.equals(change.table())) {
                changes.add(change);
            }
        }
        return changes;
    }

    private static Change change(JsonNode envelope) {
        if (envelope == null || !envelope.isObject() || !envelope.path("op").isTextual()) {
            return null;
        }
        JsonNode source = envelope.path("source");
        if (!source.path("table").isTextual()) {
            throw new IllegalArgumentException("a change event has no source.table");
        }
        return Change.of(source.get("table").asText(), envelope.get("op").asText(), image(envelope.get("before")),
                image(envelope.get("after")), source.path("lsn").isIntegralNumber() ? source.get("lsn").asLong() : null,
                source.path("ts_ms").isIntegralNumber() ? source.get("ts_ms").asLong() : null);
    }

    private static Map<String, Object> image(JsonNode image) {
        return image == null || !image.isObject() ? null : MAPPER.convertValue(image, ROW);
    }
}
