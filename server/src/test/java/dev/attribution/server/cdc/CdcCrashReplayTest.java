package dev.attribution.server.cdc;

import dev.attribution.api.RequestIds;
import dev.attribution.cdc.CdcBridge;
import dev.attribution.cdc.CdcSettings;
import dev.attribution.cdc.CdcStatus;
import dev.attribution.cdc.Change;
import dev.attribution.cdc.ChangeSink;
import dev.attribution.cdc.ClickHouseChangeSink;
import dev.attribution.cdc.resync.CdcCheck;
import dev.attribution.cdc.resync.CdcTables;
import dev.attribution.clickhouse.ClickHouseSchema;
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
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.attribution.server.cdc.CdcTesting.awaitClean;
import static dev.attribution.server.cdc.CdcTesting.chLong;
import static dev.attribution.server.cdc.CdcTesting.sql;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A second bridge (own slot, publication, offset table and ClickHouse database) that crashes inside a batch after N
 * of M changes: part of the batch is in ClickHouse, its offsets are not committed. A new bridge on the same slot and
 * offsets replays from the last committed offset; ClickHouse then matches PostgreSQL exactly (cdc check clean)
 * although the raw tables hold the replayed rows twice.
 */
@MicronautTest
class CdcCrashReplayTest extends ApiTest {

    /** Not a multiple of a transaction's size (100 or 500 changes): the crash comes inside a batch, after part of it. */
    private static final int CRASH_AFTER = 1_537;

    @Inject
    DataSource dataSource;

    String account;
    String name;
    ClientV2Gateway gateway;
    CdcSettings settings;
    CdcBridge bridge;

    /** Remembers every change it passed on (table, version, delete flag, row). */
    static final class RecordingSink implements ChangeSink {
        private final ChangeSink delegate;
        final java.util.Set<String> written = java.util.concurrent.ConcurrentHashMap.newKeySet();

        RecordingSink(ChangeSink delegate) {
            this.delegate = delegate;
        }

        @Override
        public void write(List<Change> changes) {
            delegate.write(changes);
            for (Change c : changes) {
                written.add(c.table() + "|" + c.version() + "|" + c.deleted() + "|" + new java.util.TreeMap<>(c.row()));
            }
        }
    }

    /** Writes the first {@code budget} changes it is handed, then fails in the middle of a batch, like a killed process. */
    static final class CrashingSink implements ChangeSink {
        private final ChangeSink delegate;
        private final AtomicInteger budget;

        CrashingSink(ChangeSink delegate, int budget) {
            this.delegate = delegate;
            this.budget = new AtomicInteger(budget);
        }

        @Override
        public void write(List<Change> changes) {
            int left = budget.get();
            if (left >= changes.size()) {
                delegate.write(changes);
                budget.addAndGet(-changes.size());
                return;
            }
            if (left > 0) {
                delegate.write(changes.subList(0, left));
                budget.set(0);
            }
            throw new IllegalStateException("simulated crash in the middle of a batch");
        }
    }

    @BeforeAll
    void secondBridge() {
        account = RequestIds.next("acc_");
        directory.createAccount(account, "CDC crash", null, ZoneId.of("UTC"), "USD");
        TestStack stack = TestStack.get();
        name = stack.clickhouseDatabase() + "_crash";
        gateway = new ClientV2Gateway(stack.clickhouseUrl(), name, "default", "");
        new ClickHouseSchema(gateway, false).migrate();
        settings = new CdcSettings();
        settings.setSlotName(name);
        settings.setPublicationName(name);
        settings.setOffsetTable("cdc_offsets_crash");
        settings.setRestartBackoffMs(0); // the test restarts it itself
    }

    private CdcBridge bridge(ChangeSink sink, CdcStatus status) {
        TestStack stack = TestStack.get();
        return new CdcBridge(settings, sink, status, null, stack.jdbcUrl(),
                stack.properties().get("datasources.default.username"), stack.properties().get("datasources.default.password"));
    }

    @Test
    void crashAfterNOfMChangesThenRestartMatchesPostgres() {
        CdcStatus crashing = new CdcStatus();
        // the new slot first snapshots the rows other tests left: the crash comes CRASH_AFTER changes after those
        long existing = CdcTesting.pgLong("SELECT (SELECT count(*) FROM leads) + (SELECT count(*) FROM lead_tags) + (SELECT count(*) FROM lead_phones)");
        RecordingSink beforeCrash = new RecordingSink(new ClickHouseChangeSink(gateway));
        bridge = bridge(new CrashingSink(beforeCrash, (int) existing + CRASH_AFTER), crashing);
        bridge.start();
        // the crash must come while streaming the changes below, not during the snapshot of what other tests left
        awaitLong(() -> crashing.eventsApplied() >= existing, Duration.ofSeconds(120));

        // M = 2,000 inserts + 2,000 updates + 300 deletes (+ the deletes' cascades), in 90 transactions
        for (int t = 0; t < 40; t++) {
            List<String> batch = new ArrayList<>();
            for (int i = t * 50; i < t * 50 + 50; i++) {
                batch.add("INSERT INTO leads (account_id, id, email, created_at, updated_at) VALUES ('" + account + "', 'c" + i
                        + "', 'c" + i + "@example.com', '2025-0" + (1 + i % 6) + "-01T00:00:00Z', now())");
                batch.add("INSERT INTO lead_tags VALUES ('" + account + "', 'c" + i + "', '!crash', now())");
            }
            sql(batch.toArray(String[]::new));
        }
        for (int t = 0; t < 40; t++) {
            sql("UPDATE leads SET first_name = 'u" + t + "' WHERE account_id = '" + account + "' AND id IN (SELECT 'c' || g FROM generate_series("
                    + (t % 4) * 500 + ", " + ((t % 4) * 500 + 499) + ") g)");
        }
        for (int t = 0; t < 10; t++) {
            sql("DELETE FROM leads WHERE account_id = '" + account + "' AND id IN (SELECT 'c' || g FROM generate_series("
                    + t * 30 + ", " + (t * 30 + 29) + ") g)");
        }

        ApiTest.await(() -> crashing.state() == CdcStatus.State.FAILED ? true : null);
        bridge.stop();
        long written = chLong("SELECT count() FROM " + name + ".leads") + chLong("SELECT count() FROM " + name + ".lead_tags")
                + chLong("SELECT count() FROM " + name + ".lead_phones");
        assertTrue(written <= existing + CRASH_AFTER, "the crashed bridge wrote " + written + " rows, at most " + (existing + CRASH_AFTER));
        assertEquals(existing + CRASH_AFTER, beforeCrash.written.size(), "it crashed after exactly N changes");

        releaseSlot();
        CdcStatus restarted = new CdcStatus();
        RecordingSink afterCrash = new RecordingSink(new ClickHouseChangeSink(gateway));
        bridge = bridge(afterCrash, restarted);
        bridge.start();
        CdcCheck check = new CdcCheck(new CdcTables(settings, gateway, dataSource), gateway, dataSource);
        awaitClean(check, Duration.ofSeconds(90));

        assertEquals(1_700, chLong("SELECT count() FROM " + name + ".leads_current WHERE account_id = '" + account + "'"));
        assertEquals(1_700, chLong("SELECT count() FROM " + name + ".lead_tags_current WHERE account_id = '" + account + "'"));
        assertTrue(afterCrash.written.stream().anyMatch(beforeCrash.written::contains),
                "the restart replayed changes ClickHouse already had (the views counted them once)");
    }

    private static void awaitLong(java.util.function.BooleanSupplier done, Duration timeout) {
        long deadline = System.currentTimeMillis() + timeout.toMillis();
        while (!done.getAsBoolean()) {
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("not done within " + timeout.toSeconds() + " s");
            }
            CdcTesting.sleep(50);
        }
    }

    /** The crashed engine's walsender may hold the slot a moment: end it, as a dead process's connection would end. */
    private void releaseSlot() {
        sql("SELECT pg_terminate_backend(active_pid) FROM pg_replication_slots WHERE slot_name = '" + name + "' AND active_pid IS NOT NULL");
        ApiTest.await(() -> CdcTesting.pgLong("SELECT count(*) FROM pg_replication_slots WHERE slot_name = '" + name + "' AND active") == 0 ? true : null);
    }

    @AfterAll
    void dropSecondBridge() throws Exception {
        if (bridge != null) {
            bridge.stop();
        }
        CdcTesting.dropSlotAndPublication(name);
        gateway.execute("DROP DATABASE IF EXISTS " + name);
        gateway.close();
    }
}
