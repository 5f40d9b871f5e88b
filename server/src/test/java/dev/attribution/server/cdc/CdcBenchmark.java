package dev.attribution.server.cdc;

import dev.attribution.api.RequestIds;
import dev.attribution.cdc.CdcBridge;
import dev.attribution.cdc.CdcSettings;
import dev.attribution.cdc.CdcStatus;
import dev.attribution.cdc.ChangeSink;
import dev.attribution.cdc.resync.CdcResync;
import dev.attribution.server.support.ApiTest;
import dev.attribution.testing.TestStack;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.sql.Connection;
import java.sql.Statement;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static dev.attribution.server.cdc.CdcTesting.chLong;
import static dev.attribution.server.cdc.CdcTesting.sleep;
import static dev.attribution.server.cdc.CdcTesting.sql;

/**
 * bench/cdc.sh: end-to-end lag at a sustained write rate, burst throughput of the bridge next to the same engine with a
 * handler that only counts, and resync throughput. Off in the normal suite ({@code -Dbench=true} turns it on).
 * Parameters: {@code bench.rate} (rows/s, 2000), {@code bench.seconds} (60), {@code bench.burst} (200000).
 */
@MicronautTest
@EnabledIfSystemProperty(named = "bench", matches = "true")
class CdcBenchmark extends ApiTest {

    @Inject
    CdcBridge bridge;

    @Inject
    CdcResync resync;

    String account;

    @BeforeAll
    void account() {
        account = RequestIds.next("acc_");
        directory.createAccount(account, "CDC bench", null, ZoneId.of("UTC"), "USD");
    }

    @Test
    void benchmark() throws Exception {
        int rate = Integer.getInteger("bench.rate", 2000);
        int seconds = Integer.getInteger("bench.seconds", 60);
        int burst = Integer.getInteger("bench.burst", 200_000);
        List<String> report = new ArrayList<>();
        if (seconds > 0) {
            report.add(lag(rate, seconds));
        }
        report.addAll(burst(burst));
        report.add(resyncRate());
        System.out.println("\n==== CDC benchmark (" + Runtime.getRuntime().availableProcessors() + " cores) ====");
        report.forEach(System.out::println);
    }

    /** Rows inserted in 20 ms ticks at {@code rate}; a poller sees when each tick's rows are readable in ClickHouse. */
    private String lag(int rate, int seconds) throws Exception {
        int perTick = Math.max(1, rate / 50);
        int ticks = seconds * 50;
        long[] committedAt = new long[ticks];
        long[] readableAt = new long[ticks];
        AtomicLong visible = new AtomicLong(-1);
        AtomicBoolean done = new AtomicBoolean();
        Thread poller = new Thread(() -> {
            int next = 0;
            while (!done.get() || next < ticks) {
                long maxTick = chLong("SELECT toInt64OrZero(max(substring(id, 2, 6))) - 1 FROM {db}.leads WHERE account_id = '" + account
                        + "' AND id LIKE 'L%'");
                long now = System.nanoTime();
                while (next <= maxTick && next < ticks) {
                    readableAt[next++] = now;
                }
                visible.set(maxTick);
                if (done.get() && next >= ticks) {
                    break;
                }
                sleep(10);
            }
        });
        poller.start();
        long start = System.nanoTime();
        try (Connection c = TestStack.get().connect(); Statement s = c.createStatement()) {
            for (int t = 0; t < ticks; t++) {
                long due = start + t * 20_000_000L;
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                }
                StringBuilder values = new StringBuilder();
                for (int i = 0; i < perTick; i++) {
                    values.append(i == 0 ? "" : ",").append("('").append(account).append("', 'L").append(String.format("%06d", t + 1))
                            .append('-').append(i).append("', 'l").append(t).append('-').append(i).append("@example.com', now(), now())");
                }
                s.execute("INSERT INTO leads (account_id, id, email, created_at, updated_at) VALUES " + values);
                committedAt[t] = System.nanoTime();
            }
        }
        double achieved = (double) ticks * perTick / ((System.nanoTime() - start) / 1e9);
        done.set(true);
        poller.join(120_000);
        long[] lags = new long[ticks];
        for (int t = 0; t < ticks; t++) {
            lags[t] = Math.max(0, (readableAt[t] - committedAt[t]) / 1_000_000);
        }
        java.util.Arrays.sort(lags);
        return String.format("end-to-end lag (commit -> readable in ClickHouse) at %.0f rows/s for %d s: p50 %d ms, p99 %d ms, max %d ms",
                achieved, seconds, lags[ticks / 2], lags[(int) (ticks * 0.99)], lags[ticks - 1]);
    }

    /**
     * 200,000 rows committed while the bridge is stopped; then the same engine with a counting handler, then the bridge,
     * drain them. Both stream the same transaction from a slot of their own with the same engine settings: the counting
     * engine's slot is created (and its initial snapshot finished) before the burst, so neither run snapshots.
     */
    private List<String> burst(int rows) throws Exception {
        List<String> out = new ArrayList<>();
        TestStack stack = TestStack.get();
        String slot = stack.clickhouseDatabase() + "_count";
        CdcSettings settings = new CdcSettings();
        settings.setSlotName(slot);
        settings.setPublicationName(slot);
        settings.setOffsetTable("cdc_offsets_count");
        AtomicLong counted = new AtomicLong();
        AtomicLong snapshotted = new AtomicLong();
        AtomicBoolean streamed = new AtomicBoolean();
        ChangeSink counting = changes -> {
            counted.addAndGet(changes.size());
            for (var change : changes) {
                if (change.version() == 0) {
                    snapshotted.incrementAndGet();
                } else {
                    streamed.set(true);
                }
            }
        };
        CdcStatus countingStatus = new CdcStatus();
        CdcBridge raw = new CdcBridge(settings, counting, countingStatus, null, stack.jdbcUrl(),
                stack.properties().get("datasources.default.username"), stack.properties().get("datasources.default.password"));
        raw.start();
        // a streamed change only follows a finished snapshot: stopping earlier would make the next start snapshot
        // again, and the counting run would then time the snapshot (every leads row), not the stream. Markers until
        // one is streamed: one written before the slot exists is only read by the snapshot.
        long deadline = System.nanoTime() + 300_000_000_000L;
        for (int marker = 0; !streamed.get(); marker++) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the counting engine did not finish its snapshot within 300 s");
            }
            sql("INSERT INTO leads (account_id, id, email, created_at, updated_at) VALUES ('" + account
                    + "', 'M-raw-" + marker + "', 'm" + marker + "@example.com', now(), now())");
            sleep(500);
        }
        raw.stop();
        bridge.stop();
        long before = chLong("SELECT count() FROM {db}.leads");
        sql("INSERT INTO leads (account_id, id, email, created_at, updated_at) SELECT '" + account + "', 'B' || g, 'b' || g || '@example.com', "
                + "timestamptz '2024-01-01' + g * interval '1 minute', now() FROM generate_series(1, " + rows + ") g");

        counted.set(0);
        snapshotted.set(0);
        long t0 = System.nanoTime();
        raw.start();
        while (counted.get() < rows) {
            sleep(5);
        }
        double rawRate = rows / ((System.nanoTime() - t0) / 1e9);
        raw.stop();
        sql("SELECT pg_terminate_backend(active_pid) FROM pg_replication_slots WHERE slot_name = '" + slot + "' AND active_pid IS NOT NULL");
        sleep(500);
        sql("SELECT pg_drop_replication_slot('" + slot + "')", "DROP PUBLICATION IF EXISTS " + slot);
        if (snapshotted.get() > 0) {
            throw new AssertionError("the counting engine snapshotted " + snapshotted.get() + " rows: not a streaming rate");
        }

        long t1 = System.nanoTime();
        bridge.start();
        while (chLong("SELECT count() FROM {db}.leads") < before + rows) {
            sleep(20);
        }
        double bridgeRate = rows / ((System.nanoTime() - t1) / 1e9);
        out.add(String.format("burst of %d rows (engine start to last row): raw engine, counting handler %.0f rows/s; bridge into ClickHouse %.0f rows/s (%.0f %%)",
                rows, rawRate, bridgeRate, 100 * bridgeRate / rawRate));
        return out;
    }

    private String resyncRate() {
        long t0 = System.nanoTime();
        List<CdcResync.Result> results = resync.run("leads", null, CdcResync.Progress.NONE);
        double secs = (System.nanoTime() - t0) / 1e9;
        long rows = results.get(0).rows();
        return String.format("cdc resync --table leads: %d rows in %.1f s = %.0f rows/s", rows, secs, rows / secs);
    }
}
