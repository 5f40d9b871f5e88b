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
import java.util.HashSet;
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
    private final Map<String, Columns> shapes = new ConcurrentHashMap<>();
    private final Map<String, Set<String>> notInClickHouse = new ConcurrentHashMap<>();

    public ClickHouseChangeSink(ClickHouseGateway gateway) {
        this.gateway = gateway;
    }

    @Override
    public void write(List<Change> changes) {
        prepare(changes).run();
    }

    /** Serialises the batch now (one JSONEachRow body per table); the returned write sends one INSERT per table. */
    @Override
    public Runnable prepare(List<Change> changes) {
        Map<String, Batch> perTable = new LinkedHashMap<>();
        Set<String> reread = new HashSet<>();
        for (Change change : changes) {
            Columns columns = columns(change.table());
            if (hasUnknownColumn(change, columns.types()) && reread.add(change.table())) {
                // PostgreSQL has a column the cached shape has not seen: maybe one added while streaming (schema
                // evolution, ClickHouse first). Read the ClickHouse columns again, once per table per batch; columns
                // ClickHouse still lacks are remembered and not asked about again.
                shapes.remove(change.table());
                columns = columns(change.table());
                Set<String> absent = notInClickHouse.computeIfAbsent(change.table(), t -> ConcurrentHashMap.newKeySet());
                for (String column : change.row().keySet()) {
                    if (!columns.types().containsKey(column)) {
                        absent.add(column);
                    }
                }
            }
            try {
                JsonGenerator json = perTable.computeIfAbsent(change.table(), Batch::new).json;
                json.writeStartObject();
                Map<String, Object> row = change.row();
                String[] names = columns.names();
                ColumnValues.Type[] types = columns.compiled();
                for (int i = 0; i < names.length; i++) {
                    json.writeFieldName(names[i]);
                    types[i].write(json, row.get(names[i]));
                }
                json.writeNumberField("_version", change.version());
                json.writeNumberField("is_deleted", change.deleted() ? 1 : 0);
                json.writeEndObject();
                json.writeRaw('\n');
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        Map<String, byte[]> bodies = new LinkedHashMap<>();
        perTable.forEach((table, batch) -> bodies.put(table, batch.bytes()));
        // one INSERT per table for the whole batch
        return () -> bodies.forEach(gateway::insertJsonEachRow);
    }

    /**
     * A table's ClickHouse columns: name → type as read, and the copied ones (all but {@code _version} and
     * {@code is_deleted}) with their types parsed once.
     */
    private record Columns(Map<String, String> types, String[] names, ColumnValues.Type[] compiled) {

        static Columns of(Map<String, String> types) {
            List<String> names = types.keySet().stream().filter(n -> !n.equals("_version") && !n.equals("is_deleted")).toList();
            return new Columns(types, names.toArray(String[]::new),
                    names.stream().map(n -> ColumnValues.Type.of(types.get(n))).toArray(ColumnValues.Type[]::new));
        }
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

    /** The ClickHouse columns of {@code table}, read once. */
    private Columns columns(String table) {
        return shapes.computeIfAbsent(table, t -> {
            Map<String, String> columns = new LinkedHashMap<>();
            gateway.select("SELECT name, type FROM system.columns WHERE database = " + ClickHouseSql.str(gateway.database())
                    + " AND table = " + ClickHouseSql.str(t))
                    .forEach(r -> columns.put(r.get("name").asText(), r.get("type").asText()));
            if (columns.isEmpty()) {
                throw new IllegalStateException("ClickHouse has no table " + gateway.database() + "." + t);
            }
            return Columns.of(columns);
        });
    }
}
