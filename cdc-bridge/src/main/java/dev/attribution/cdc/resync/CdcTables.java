package dev.attribution.cdc.resync;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.cdc.CdcSettings;
import dev.attribution.clickhouse.ClickHouseGateway;
import dev.attribution.clickhouse.ClickHouseSql;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The streamed tables ({@link CdcSettings#getTables()}) described from both catalogs: ClickHouse's
 * {@code system.tables}/{@code system.columns} (sorting key, partition key, column types) and PostgreSQL's
 * {@code information_schema.columns}. Nothing is listed by hand: a domain table added to the settings and to the
 * DDL is checked and resynced as it is.
 */
@Singleton
@Requires(beans = ClickHouseGateway.class)
public class CdcTables {

    private static final Pattern MONTH = Pattern.compile("toYYYYMM\\((\\w+)\\)");
    private static final Pattern GROUP_BY = Pattern.compile("\\bGROUP BY\\s+(.+?)\\s+HAVING\\b");
    private static final List<String> META = List.of("_version", "is_deleted");

    private final CdcSettings settings;
    private final ClickHouseGateway clickhouse;
    private final DataSource postgres;

    public CdcTables(CdcSettings settings, ClickHouseGateway clickhouse, DataSource postgres) {
        this.settings = settings;
        this.clickhouse = clickhouse;
        this.postgres = io.micronaut.data.connection.jdbc.advice.DelegatingDataSource.unwrapDataSource(postgres);
    }

    /** Every streamed table, or just {@code only} when given (IllegalArgumentException when it is not streamed). */
    public List<CdcTable> tables(String only) {
        List<String> names = settings.getTables();
        if (only != null) {
            if (!names.contains(only)) {
                throw new IllegalArgumentException("table " + only + " is not streamed; streamed tables: " + String.join(", ", names));
            }
            names = List.of(only);
        }
        List<CdcTable> out = new ArrayList<>();
        for (String name : names) {
            out.add(describe(name));
        }
        return out;
    }

    public CdcTable describe(String name) {
        String db = ClickHouseSql.str(clickhouse.database());
        List<JsonNode> table = clickhouse.select("SELECT partition_key, sorting_key FROM system.tables WHERE database = "
                + db + " AND name = " + ClickHouseSql.str(name));
        if (table.isEmpty()) {
            throw new IllegalStateException("ClickHouse has no table " + clickhouse.database() + "." + name);
        }
        Matcher month = MONTH.matcher(table.get(0).get("partition_key").asText());
        String sorting = table.get(0).get("sorting_key").asText().replaceAll("^\\((.*)\\)$", "$1");
        List<String> key = viewKey(name).orElse(Arrays.stream(sorting.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList());
        Map<String, String> pgTypes = postgresColumns(name);
        List<CdcTable.Column> columns = new ArrayList<>();
        clickhouse.select("SELECT name, type FROM system.columns WHERE database = " + db + " AND table = " + ClickHouseSql.str(name))
                .forEach(r -> {
                    String column = r.get("name").asText();
                    if (!META.contains(column) && pgTypes.containsKey(column)) {
                        columns.add(new CdcTable.Column(column, r.get("type").asText(), pgTypes.get(column)));
                    }
                });
        return new CdcTable(name, columns, key, month.find() ? month.group(1) : null);
    }

    /**
     * The dedup key of the table's {@code <name>_current} view (its GROUP BY), which is what readers count by: it may be
     * narrower than the sorting key (calls and subscriptions are sorted by lead but deduplicated by id, so a row moved
     * to another lead keeps one live version). Empty when the table has no such view.
     */
    private java.util.Optional<List<String>> viewKey(String name) {
        List<JsonNode> view = clickhouse.select("SELECT create_table_query FROM system.tables WHERE database = "
                + ClickHouseSql.str(clickhouse.database()) + " AND name = " + ClickHouseSql.str(name + "_current"));
        if (view.isEmpty()) {
            return java.util.Optional.empty();
        }
        Matcher m = GROUP_BY.matcher(view.get(0).get("create_table_query").asText());
        if (!m.find()) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(Arrays.stream(m.group(1).split(",")).map(s -> s.replace("`", "").trim()).toList());
    }

    private Map<String, String> postgresColumns(String table) {
        Map<String, String> types = new HashMap<>();
        try (Connection c = postgres.getConnection();
             PreparedStatement s = c.prepareStatement("SELECT column_name, data_type FROM information_schema.columns "
                     + "WHERE table_schema = 'public' AND table_name = ?")) {
            s.setString(1, table);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    types.put(rs.getString(1), rs.getString(2));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the columns of " + table + ": " + e.getMessage(), e);
        }
        if (types.isEmpty()) {
            throw new IllegalStateException("PostgreSQL has no table public." + table);
        }
        return types;
    }
}
