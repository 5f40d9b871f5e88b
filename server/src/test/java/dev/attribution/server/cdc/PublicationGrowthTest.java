package dev.attribution.server.cdc;

import dev.attribution.cdc.CdcBridge;
import dev.attribution.cdc.CdcSettings;
import dev.attribution.cdc.CdcStatus;
import dev.attribution.cdc.ClickHouseChangeSink;
import dev.attribution.clickhouse.ClientV2Gateway;
import dev.attribution.server.support.ApiTest;
import dev.attribution.testing.TestStack;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.Statement;
import java.util.List;

import static dev.attribution.server.cdc.CdcTesting.pgLong;
import static dev.attribution.server.cdc.CdcTesting.sql;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * An upgrade that streams a new table: the bridge restarts over an existing publication and slot with one more table
 * in {@code attribution.cdc.tables}; the publication grows to the new list (Debezium's filtered mode alters it) and
 * the new table's rows arrive, while the old table keeps streaming from its stored offset without a re-snapshot.
 */
@MicronautTest
class PublicationGrowthTest extends ApiTest {

    private static final String OLD = "cdc_growth_old";
    private static final String NEW = "cdc_growth_new";

    String name;
    ClientV2Gateway gateway;
    CdcBridge bridge;

    @BeforeAll
    void ownTablesAndDatabase() {
        TestStack stack = TestStack.get();
        name = stack.clickhouseDatabase() + "_growth";
        for (String t : List.of(OLD, NEW)) {
            sql("CREATE TABLE " + t + " (id bigint PRIMARY KEY, created_at timestamptz NOT NULL, label text NOT NULL)",
                    "ALTER TABLE " + t + " REPLICA IDENTITY FULL");
        }
        gateway = new ClientV2Gateway(stack.clickhouseUrl(), name, "default", "");
        gateway.execute("CREATE DATABASE IF NOT EXISTS " + name);
        for (String t : List.of(OLD, NEW)) {
            gateway.execute("CREATE TABLE " + name + "." + t + " (id Int64, created_at DateTime('UTC'), label String, "
                    + "_version UInt64, is_deleted UInt8) ENGINE = ReplacingMergeTree(_version) ORDER BY id");
        }
    }

    private CdcBridge start(List<String> tables) {
        CdcSettings settings = new CdcSettings();
        settings.setSlotName(name);
        settings.setPublicationName(name);
        settings.setOffsetTable("cdc_offsets_growth");
        settings.setTables(tables);
        CdcStatus status = new CdcStatus();
        TestStack stack = TestStack.get();
        CdcBridge b = new CdcBridge(settings, new ClickHouseChangeSink(gateway), status, null, stack.jdbcUrl(),
                stack.properties().get("datasources.default.username"), stack.properties().get("datasources.default.password"));
        b.start();
        ApiTest.await(() -> status.state() == CdcStatus.State.STREAMING ? true : null);
        return b;
    }

    private long clickhouseRows(String table) {
        return Long.parseLong(TestStack.get().clickhouse("SELECT count() FROM " + name + "." + table + " FORMAT TabSeparated").trim());
    }

    @Test
    void restartingWithAnExtraTableStreamsItAndKeepsTheOldOne() throws Exception {
        bridge = start(List.of(OLD));
        sql("INSERT INTO " + OLD + " VALUES (1, now(), 'before')", "INSERT INTO " + NEW + " VALUES (1, now(), 'not yet streamed')");
        ApiTest.await(() -> clickhouseRows(OLD) == 1 ? true : null);
        assertEquals(1, pgLong("SELECT count(*) FROM pg_publication_tables WHERE pubname = '" + name + "' AND tablename IN ('"
                + OLD + "', '" + NEW + "')"));
        bridge.stop();

        bridge = start(List.of(OLD, NEW));
        assertEquals(2, pgLong("SELECT count(*) FROM pg_publication_tables WHERE pubname = '" + name + "' AND tablename IN ('"
                + OLD + "', '" + NEW + "')"), "the publication now lists the new table");
        sql("INSERT INTO " + OLD + " VALUES (2, now(), 'after')", "INSERT INTO " + NEW + " VALUES (2, now(), 'streamed')");
        ApiTest.await(() -> clickhouseRows(NEW) >= 1 && clickhouseRows(OLD) == 2 ? true : null);
        assertEquals("2\tstreamed", TestStack.get().clickhouse("SELECT id, label FROM " + name + "." + NEW
                + " WHERE id = 2 FORMAT TabSeparated").trim());
        assertEquals(2, clickhouseRows(OLD), "the old table was not snapshotted again (no duplicate versions)");
    }

    @AfterAll
    void dropOwnTablesAndBridge() throws Exception {
        if (bridge != null) {
            bridge.stop();
        }
        CdcTesting.dropSlotAndPublication(name);
        try (Connection c = TestStack.get().connect(); Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS " + OLD + ", " + NEW);
        }
        gateway.execute("DROP DATABASE IF EXISTS " + name);
        gateway.close();
    }
}
