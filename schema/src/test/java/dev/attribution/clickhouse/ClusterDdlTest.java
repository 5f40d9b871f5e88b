package dev.attribution.clickhouse;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The cluster rendering of the DDL files (ClusterDdl): what each kind of statement becomes. The rendered files run on
 * a real 18.16 cluster in ClickHouseClusterTest; this pins the shapes. With -Dcluster.ddl.out=FILE it also writes the
 * whole rendered schema there (one statement per line), to try it by hand on a cluster or a current engine.
 */
class ClusterDdlTest {

    private final ClusterDdl ddl = new ClusterDdl("c1", Set.of("clicks", "clicks_by_ad", "leads"));

    @Test
    void aTableBecomesAReplicatedLocalTableAndADistributedOneShardedByAccount() {
        List<String> out = ddl.render("CREATE TABLE IF NOT EXISTS {db}.clicks (\n account_id String, id String, _version UInt64\n)"
                + " ENGINE = {{ReplacingMergeTree(_version)}}\nPARTITION BY toYYYYMM(click_date)\nORDER BY (account_id, id)", "a");
        assertEquals(List.of("CREATE TABLE IF NOT EXISTS a.clicks_local ON CLUSTER c1 (\n account_id String, id String, _version UInt64\n)"
                        + " ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/a/clicks', '{replica}', _version)\n"
                        + "PARTITION BY toYYYYMM(click_date)\nORDER BY (account_id, id)",
                "CREATE TABLE IF NOT EXISTS a.clicks ON CLUSTER c1 AS a.clicks_local ENGINE = Distributed(c1, a, clicks_local, cityHash64(account_id))"), out);
    }

    @Test
    void perNodeReplicationRendersTheSameEngineInPlace() {
        // clickhouse.replicated without a cluster: the table keeps its name, the engine is ClusterDdl's
        String rendered = new ClickHouseSchema(null, true).render("CREATE TABLE IF NOT EXISTS {db}.clicks (id String)"
                + " ENGINE = {{ReplacingMergeTree(_version)}} ORDER BY id", "a");
        assertEquals("CREATE TABLE IF NOT EXISTS a.clicks (id String) ENGINE = ReplicatedReplacingMergeTree("
                + "'/clickhouse/tables/{shard}/a/clicks', '{replica}', _version) ORDER BY id", rendered);
    }

    @Test
    void viewsReadTheDistributedTablesAndMaterializedViewsTheLocalOnes() {
        assertEquals(List.of("CREATE VIEW IF NOT EXISTS a.v ON CLUSTER c1 AS SELECT id FROM a.clicks"),
                ddl.render("CREATE VIEW IF NOT EXISTS {db}.v AS SELECT id FROM {db}.clicks", "a"));
        assertEquals(List.of("CREATE MATERIALIZED VIEW IF NOT EXISTS a.f ON CLUSTER c1 TO a.clicks_by_ad_local AS SELECT id FROM a.clicks_local"),
                ddl.render("CREATE MATERIALIZED VIEW IF NOT EXISTS {db}.f TO {db}.clicks_by_ad AS SELECT id FROM {db}.clicks", "a"));
    }

    @Test
    void aColumnChangeAltersTheLocalTableAndRecreatesTheDistributedOne() {
        assertEquals(List.of("ALTER TABLE a.leads_local ON CLUSTER c1 ADD COLUMN erased UInt8 DEFAULT 0",
                        "DROP TABLE IF EXISTS a.leads ON CLUSTER c1",
                        "CREATE TABLE IF NOT EXISTS a.leads ON CLUSTER c1 AS a.leads_local ENGINE = Distributed(c1, a, leads_local, cityHash64(account_id))"),
                ddl.render("ALTER TABLE {db}.leads ADD COLUMN erased UInt8 DEFAULT 0", "a"));
        assertEquals(List.of("ALTER TABLE a.clicks_local ON CLUSTER c1 UPDATE x = 1 WHERE 1"),
                ddl.render("ALTER TABLE {db}.clicks UPDATE x = 1 WHERE 1", "a"));
        assertEquals(List.of("DROP TABLE IF EXISTS a.leads_current ON CLUSTER c1"), ddl.render("DROP TABLE IF EXISTS {db}.leads_current", "a"));
        assertEquals(List.of("INSERT INTO a.clicks_by_ad SELECT * FROM a.clicks"), ddl.render("INSERT INTO {db}.clicks_by_ad SELECT * FROM {db}.clicks", "a"));
    }

    @Test
    void everyTableOfTheFilesHasAnAccountToShardBy() throws Exception {
        Set<String> sharded = ClickHouseSchema.shardedTables();
        assertTrue(sharded.contains("clicks") && sharded.contains("conversion_touches"), sharded.toString());
        ClusterDdl real = new ClusterDdl("attribution", sharded);
        List<String> all = new ArrayList<>(real.bootstrap("attribution"));
        for (ClickHouseSchema.DdlFile file : ClickHouseSchema.files()) {
            for (String statement : file.statements()) {
                if (statement.startsWith("CREATE TABLE")) {
                    assertTrue(statement.contains("account_id "), file.name() + " creates a table without account_id: " + statement);
                }
                all.addAll(real.render(statement, "attribution"));
            }
        }
        String out = System.getProperty("cluster.ddl.out");
        if (out != null) {
            Files.write(Path.of(out), all.stream().map(s -> s.replace('\n', ' ')).toList());
        }
    }
}
