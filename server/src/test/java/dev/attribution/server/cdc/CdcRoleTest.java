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
import java.util.ArrayList;
import java.util.List;

import static dev.attribution.server.cdc.CdcTesting.pgLong;
import static dev.attribution.server.cdc.CdcTesting.sql;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The CDC role (docs/scaling.md "The CDC role"): two bridges over one slot, as two nodes with
 * {@code attribution.roles.cdc} on would run them. One streams, the other stands by; when the active one's PostgreSQL
 * session ends (terminated here, as a {@code kill -9} or a lost network ends it) it stops its engine and the standby
 * takes over; a graceful stop hands the role back. Each change reaches ClickHouse whichever bridge streams it.
 * The multi-process version (two server JVMs, {@code kill -9}) is {@code ApiNodesTest}, run by scripts/cluster-test.
 */
@MicronautTest
class CdcRoleTest extends ApiTest {

    private static final String TABLE = "cdc_role_rows";

    String name;
    ClientV2Gateway gateway;
    final List<CdcBridge> bridges = new ArrayList<>();

    @BeforeAll
    void ownTableAndDatabase() {
        TestStack stack = TestStack.get();
        name = stack.clickhouseDatabase() + "_role";
        sql("CREATE TABLE " + TABLE + " (id bigint PRIMARY KEY, created_at timestamptz NOT NULL, label text NOT NULL)");
        gateway = new ClientV2Gateway(stack.clickhouseUrl(), name, "default", "");
        gateway.execute("CREATE DATABASE IF NOT EXISTS " + name);
        gateway.execute("CREATE TABLE " + name + "." + TABLE + " (id Int64, created_at DateTime('UTC'), label String, "
                + "_version UInt64, is_deleted UInt8) ENGINE = ReplacingMergeTree(_version) ORDER BY id");
    }

    private CdcBridge bridge(CdcStatus status) {
        CdcSettings settings = new CdcSettings();
        settings.setSlotName(name);
        settings.setPublicationName(name);
        settings.setOffsetTable("cdc_offsets_role");
        settings.setTables(List.of(TABLE));
        settings.setRoleLockPollMs(200);
        TestStack stack = TestStack.get();
        CdcBridge b = new CdcBridge(settings, new ClickHouseChangeSink(gateway), status, null, stack.jdbcUrl(),
                stack.properties().get("datasources.default.username"), stack.properties().get("datasources.default.password"));
        bridges.add(b);
        return b;
    }

    @Test
    void oneBridgeStreamsTheOtherStandsByAndTakesOverWhenTheFirstSessionEnds() {
        CdcStatus a = new CdcStatus();
        CdcStatus b = new CdcStatus();
        CdcBridge first = bridge(a);
        first.start();
        ApiTest.await(() -> a.state() == CdcStatus.State.STREAMING ? true : null);
        CdcBridge second = bridge(b);
        second.start();
        ApiTest.await(() -> b.state() == CdcStatus.State.STANDBY ? true : null);
        insertAndAwait(1);
        assertEquals(CdcStatus.State.STANDBY, b.state(), "the second bridge stays a standby");
        assertEquals(0, b.eventsApplied(), "and streams nothing");

        // the first bridge's role session ends (as when its process is killed): the second takes over
        sql("SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND classid = 17220 AND granted"
                + " AND objid::bigint = (hashtext('" + name + "')::bigint & 4294967295)");
        ApiTest.await(() -> b.state() == CdcStatus.State.STREAMING && a.state() == CdcStatus.State.STANDBY ? true : null);
        insertAndAwait(2);
        assertEquals(1, roleHolders(), "one role lock");

        // a graceful stop gives the role back
        second.stop();
        ApiTest.await(() -> a.state() == CdcStatus.State.STREAMING ? true : null);
        insertAndAwait(3);
        assertEquals(1, roleHolders());
    }

    private void insertAndAwait(int id) {
        sql("INSERT INTO " + TABLE + " VALUES (" + id + ", now(), 'row " + id + "')");
        ApiTest.await(() -> TestStack.get().clickhouse("SELECT count() FROM " + name + "." + TABLE + " WHERE id = " + id
                + " FORMAT TabSeparated").trim().equals("1") ? true : null);
    }

    private long roleHolders() {
        return pgLong("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND classid = 17220 AND granted"
                + " AND objid::bigint = (hashtext('" + name + "')::bigint & 4294967295)");
    }

    @AfterAll
    void dropOwnTableAndBridges() throws Exception {
        bridges.forEach(CdcBridge::stop);
        CdcTesting.dropSlotAndPublication(name);
        try (Connection c = TestStack.get().connect(); Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS " + TABLE);
        }
        gateway.execute("DROP DATABASE IF EXISTS " + name);
        gateway.close();
    }
}
