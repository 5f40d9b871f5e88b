package dev.attribution.cdc;

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
        Map<String, ByteArrayOutputStream> perTable = new LinkedHashMap<>();
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
            Map<String, Object> row = new LinkedHashMap<>();
            shape.forEach((column, type) -> {
                if (!column.equals("_version") && !column.equals("is_deleted")) {
                    row.put(column, ColumnValues.shape(change.row().get(column), type));
                }
            });
            row.put("_version", change.version());
            row.put("is_deleted", change.deleted() ? 1 : 0);
            try {
                ByteArrayOutputStream out = perTable.computeIfAbsent(change.table(), t -> new ByteArrayOutputStream());
                MAPPER.writeValue(out, row);
                out.write('\n');
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        perTable.forEach((table, body) -> gateway.insertJsonEachRow(table, body.toByteArray()));
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
