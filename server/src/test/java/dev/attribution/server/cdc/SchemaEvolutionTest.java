package dev.attribution.server.cdc;

import dev.attribution.cdc.CdcBridge;
import dev.attribution.cdc.CdcSettings;
import dev.attribution.cdc.CdcStatus;
import dev.attribution.cdc.ClickHouseChangeSink;
import dev.attribution.cdc.resync.CdcCheck;
import dev.attribution.cdc.resync.CdcTables;
import dev.attribution.clickhouse.ClientV2Gateway;
import dev.attribution.server.support.ApiTest;
import dev.attribution.testing.TestStack;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.attribution.server.cdc.CdcTesting.awaitClean;
import static dev.attribution.server.cdc.CdcTesting.sleep;
import static dev.attribution.server.cdc.CdcTesting.sql;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The schema evolution procedure of docs/clickhouse-schema.md, while a writer keeps inserting: add the column in
 * ClickHouse (table, then view), then in PostgreSQL; backfill old rows in PostgreSQL. No event is lost and the new
 * column's values arrive (cdc check compares it too). Runs on a table and bridge of its own.
 */
@MicronautTest
class SchemaEvolutionTest extends ApiTest {

    private static final String TABLE = "cdc_evolution_probe";

    @Inject
    DataSource dataSource;

    String name;
    ClientV2Gateway gateway;
    CdcSettings settings;
    CdcBridge bridge;

    @BeforeAll
    void ownTableAndBridge() {
        TestStack stack = TestStack.get();
        name = stack.clickhouseDatabase() + "_evo";
        sql("CREATE TABLE " + TABLE + " (id bigint PRIMARY KEY, created_at timestamptz NOT NULL, label text NOT NULL)",
                "ALTER TABLE " + TABLE + " REPLICA IDENTITY FULL");
        gateway = new ClientV2Gateway(stack.clickhouseUrl(), name, "default", "");
        gateway.execute("CREATE DATABASE IF NOT EXISTS " + name);
        gateway.execute("CREATE TABLE " + name + "." + TABLE + " (id Int64, created_at DateTime('UTC'), label String, "
                + "_version UInt64, is_deleted UInt8) ENGINE = ReplacingMergeTree(_version) PARTITION BY toYYYYMM(created_at) ORDER BY id");
        gateway.execute(view(false));
        settings = new CdcSettings();
        settings.setSlotName(name);
        settings.setPublicationName(name);
        settings.setOffsetTable("cdc_offsets_evo");
        settings.setTables(List.of(TABLE));
    }

    private String view(boolean withNote) {
        return "CREATE VIEW " + name + "." + TABLE + "_current AS SELECT id, argMax(created_at, _version) AS created_at, "
                + "argMax(label, _version) AS label" + (withNote ? ", argMax(note, _version) AS note" : "")
                + " FROM " + name + "." + TABLE + " GROUP BY id HAVING argMax(is_deleted, _version) = 0";
    }

    @Test
    void addingAColumnWhileWritesContinueLosesNothing() throws Exception {
        CdcStatus status = new CdcStatus();
        TestStack stack = TestStack.get();
        bridge = new CdcBridge(settings, new ClickHouseChangeSink(gateway), status, null, stack.jdbcUrl(),
                stack.properties().get("datasources.default.username"), stack.properties().get("datasources.default.password"));
        bridge.start();
        ApiTest.await(() -> status.state() == CdcStatus.State.STREAMING ? true : null);

        AtomicBoolean noteExists = new AtomicBoolean();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger written = new AtomicInteger();
        Thread writer = new Thread(() -> {
            while (!stop.get()) {
                int id = written.incrementAndGet();
                sql(noteExists.get()
                        ? "INSERT INTO " + TABLE + " (id, created_at, label, note) VALUES (" + id + ", now(), 'row " + id + "', 'note " + id + "')"
                        : "INSERT INTO " + TABLE + " (id, created_at, label) VALUES (" + id + ", now(), 'row " + id + "')");
                sleep(5);
            }
        });
        writer.start();
        sleep(1_000);

        // 1. ClickHouse first: the column (with its default for old rows), then the view that exposes it (18.16 has
        //    no DROP VIEW: DROP TABLE drops a view too)
        gateway.execute("ALTER TABLE " + name + "." + TABLE + " ADD COLUMN note String DEFAULT ''");
        gateway.execute("DROP TABLE IF EXISTS " + name + "." + TABLE + "_current");
        gateway.execute(view(true));
        sleep(500);
        // 2. then PostgreSQL; the writer starts filling it
        sql("ALTER TABLE " + TABLE + " ADD COLUMN note text");
        noteExists.set(true);
        sleep(1_000);
        stop.set(true);
        writer.join();
        // 3. backfill old rows in PostgreSQL: they stream like any update
        sql("UPDATE " + TABLE + " SET note = 'backfilled' WHERE note IS NULL");

        CdcCheck check = new CdcCheck(new CdcTables(settings, gateway, dataSource), gateway, dataSource);
        awaitClean(check, Duration.ofSeconds(60));
        assertEquals(written.get(), Long.parseLong(stack.clickhouse("SELECT count() FROM " + name + "." + TABLE
                + "_current WHERE note != '' FORMAT TabSeparated").trim()));
    }

    @AfterAll
    void dropOwnTableAndBridge() throws Exception {
        if (bridge != null) {
            bridge.stop();
        }
        CdcTesting.dropSlotAndPublication(name);
        try (Connection c = TestStack.get().connect(); Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS " + TABLE);
        }
        gateway.execute("DROP DATABASE IF EXISTS " + name);
        gateway.close();
    }
}
