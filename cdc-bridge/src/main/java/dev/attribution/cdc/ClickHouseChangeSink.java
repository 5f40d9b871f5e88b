package dev.attribution.cdc;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.attribution.clickhouse.ClickHouseGateway;
import dev.attribution.clickhouse.ClickHouseSql;
import jakarta.inject.Singleton;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Writes changes into the ClickHouse table of the same name as JSONEachRow, one insert per table per batch. Column
 * types come from {@code system.columns}: values are shaped for them (timestamps as epoch seconds, booleans as
 * 0/1, NULL as the type's default where the column is not Nullable), plus {@code _version} and {@code is_deleted}.
 */
@Singleton
public class ClickHouseChangeSink implements ChangeSink {

    private static final ObjectMapper MAPPER = JsonMapper.builder().build();

    private final ClickHouseGateway gateway;
    private final Map<String, Map<String, String>> shapes = new ConcurrentHashMap<>();
    private final Map<String, Set<String>> notInClickHouse = new ConcurrentHashMap<>();

    public ClickHouseChangeSink(ClickHouseGateway gateway) {
        this.gateway = gateway;
    }

    @Override
    public void write(List<Change> changes) {
        Map<String, Batch> perTable = new LinkedHashMap<>();
        java.util.Set<String> reread = new java.util.HashSet<>();
        for (Change change : changes) {
            Map<String, String> shape = shape(change.table());
            if (hasUnknownColumn(change, shape) && reread.add(change.table())) {
                // PostgreSQL has a column the cached shape has not seen: maybe one added while streaming (schema
                // evolution, ClickHouse first). Read the ClickHouse columns again, once per table per batch; columns
                // ClickHouse still lacks are remembered and not asked about again.
                shapes.remove(change.table());
                shape = shape(change.table());
                Set<String> absent = notInClickHouse.computeIfAbsent(change.table(), t -> ConcurrentHashMap.newKeySet());
                for (String column : change.row().keySet()) {
                    if (!shape.containsKey(column)) {
                        absent.add(column);
                    }
                }
            }
            try {
                Batch batch = perTable.computeIfAbsent(change.table(), Batch::new);
                JsonGenerator json = batch.json;
                json.writeStartObject();
                for (Map.Entry<String, String> column : shape.entrySet()) {
                    String name = column.getKey();
                    if (!name.equals("_version") && !name.equals("is_deleted")) {
                        json.writeFieldName(name);
                        json.writeObject(ColumnValues.shape(change.row().get(name), column.getValue()));
                    }
                }
                json.writeNumberField("_version", change.version());
                json.writeNumberField("is_deleted", change.deleted() ? 1 : 0);
                json.writeEndObject();
                json.writeRaw('\n');
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        // one INSERT per table for the whole batch
        perTable.forEach((table, batch) -> gateway.insertJsonEachRow(table, batch.bytes()));
    }

    /** The JSONEachRow body of one table's rows in a batch, written by one generator. */
    private static final class Batch {
        final ByteArrayOutputStream out = new ByteArrayOutputStream(1 << 16);
        final JsonGenerator json;

        Batch(String table) {
            try {
                json = MAPPER.getFactory().createGenerator(out);
                json.setRootValueSeparator(null);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        byte[] bytes() {
            try {
                json.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return out.toByteArray();
        }
    }

    private boolean hasUnknownColumn(Change change, Map<String, String> shape) {
        Set<String> absent = notInClickHouse.getOrDefault(change.table(), Set.of());
        for (String column : change.row().keySet()) {
            if (!shape.containsKey(column) && !absent.contains(column)) {
                return true;
            }
        }
        return false;
    }

    /** Column name → ClickHouse type of {@code table}, read once. */
    Map<String, String> shape(String table) {
        return shapes.computeIfAbsent(table, t -> {
            Map<String, String> columns = new LinkedHashMap<>();
            gateway.select("SELECT name, type FROM system.columns WHERE database = " + ClickHouseSql.str(gateway.database())
                    + " AND table = " + ClickHouseSql.str(t))
                    .forEach(r -> columns.put(r.get("name").asText(), r.get("type").asText()));
            if (columns.isEmpty()) {
                throw new IllegalStateException("ClickHouse has no table " + gateway.database() + "." + t);
            }
            return columns;
        });
    }
}
