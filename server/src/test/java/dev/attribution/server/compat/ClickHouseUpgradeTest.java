package dev.attribution.server.compat;

import dev.attribution.clickhouse.ClickHouseGateway;
import dev.attribution.clickhouse.ClickHouseSchema;
import dev.attribution.clickhouse.ClickHouseSql;
import dev.attribution.server.support.TwoEngines;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A database migrated by the numbered DDL files as they were before the one-file-per-object layout (frozen under
 * {@code schema/src/test/resources/clickhouse-chain-066}: every CREATE written out in the numbered files) upgrades to
 * exactly the schema a fresh database gets from today's files: the same {@code SHOW CREATE} for every table and view.
 * (Checked failing with {@code erased} moved before {@code is_deleted} in tables/leads.sql.)
 * Checked from every state of that chain (after 001, after 002, … after 066) on 18.16, and from the states before each
 * change of an existing object on a current release ({@link TwoEngines}).
 */
class ClickHouseUpgradeTest {

    static final String CHAIN_066 = "clickhouse-chain-066";
    /**
     * On the current engine (chdb-http runs one statement at a time, several times slower here) the states just before
     * each file that changes an existing object (031 leads, 061 calls/subscriptions views, 065 clicks_by_lead, 066 ads)
     * and the whole chain; every state on 18.16.
     */
    private static final List<Integer> CURRENT_ENGINE_STATES = List.of(30, 60, 64, 65, 66);

    @Test
    void everyStateOfTheOldChainUpgradesToTheFreshSchema() throws Exception {
        List<Integer> versions = ClickHouseSchema.files(CHAIN_066).stream().map(ClickHouseSchema.DdlFile::version).toList();
        assertEquals(66, versions.get(versions.size() - 1));
        try (TwoEngines two = TwoEngines.start("upgrade")) {
            for (Map.Entry<String, ClickHouseGateway> engine : two.engines().entrySet()) {
                Map<String, String> fresh = shape(engine.getValue());
                assertTrue(fresh.keySet().containsAll(List.of("leads", "leads_current", "clicks_by_lead", "clicks_by_lead_feed_v2",
                        "ads_current", "calls_current", "schema_migrations")), fresh.keySet().toString());
                for (int version : engine.getKey().equals("18.16") ? versions : CURRENT_ENGINE_STATES) {
                    String db = "upgrade_from_" + version + "_" + Long.toHexString(System.nanoTime());
                    try (ClickHouseGateway old = two.other(engine.getKey(), db)) {
                        new ClickHouseSchema(old, false, "", CHAIN_066).migrate(version);
                        new ClickHouseSchema(old, false).migrate();
                        assertEquals(List.of(), differences(fresh, shape(old)), "upgraded after " + version + " on " + engine.getKey());
                        old.execute("DROP DATABASE " + db);
                    }
                }
            }
        }
    }

    /** Each object whose statement differs or that only one side has: {@code name: fresh <> upgraded}. */
    private static List<String> differences(Map<String, String> fresh, Map<String, String> upgraded) {
        Set<String> names = new TreeSet<>(fresh.keySet());
        names.addAll(upgraded.keySet());
        return names.stream().filter(n -> !Objects.equals(fresh.get(n), upgraded.get(n)))
                .map(n -> n + ": " + fresh.get(n) + " <> " + upgraded.get(n)).toList();
    }

    /**
     * The {@code CREATE} statement of every table and view of the gateway's database (system.tables'
     * {@code create_table_query}: what {@code SHOW CREATE} prints, on one line), its name written {@code {db}}.
     */
    private static Map<String, String> shape(ClickHouseGateway g) {
        String db = g.database();
        Map<String, String> out = new TreeMap<>();
        for (var row : g.select("SELECT name, create_table_query FROM system.tables WHERE database = " + ClickHouseSql.str(db))) {
            out.put(row.get("name").asText(), row.get("create_table_query").asText().replace(db + ".", "{db}."));
        }
        return out;
    }
}
