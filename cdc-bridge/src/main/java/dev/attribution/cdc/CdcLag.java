package dev.attribution.cdc;

import io.micronaut.context.annotation.Requires;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * How far the bridge is behind PostgreSQL's WAL head, in bytes and in milliseconds.
 *
 * <p>The head ({@code pg_current_wal_lsn()}) is sampled every {@value #SAMPLE_MILLIS} ms. The time lag is how long
 * ago the head stood where ClickHouse is now: now minus the time of the first sample whose head is past the applied
 * WAL position ({@link CdcStatus#appliedLsn()}); 0 when the applied position is at or past the newest sample. The
 * heartbeat (a published change every heartbeat interval) keeps the applied position moving when domain tables are
 * quiet, so an idle bridge reads below that interval.
 */
@Singleton
@Requires(beans = CdcBridge.class)
public class CdcLag {

    static final long SAMPLE_MILLIS = 250;
    private static final int MAX_SAMPLES = 4 * 60 * 30; // 30 minutes of history
    private static final Logger LOG = LoggerFactory.getLogger(CdcLag.class);

    private record Sample(long at, long headLsn) {
    }

    private final CdcStatus status;
    private final DataSource dataSource;
    private final Deque<Sample> samples = new ArrayDeque<>();
    private final ScheduledExecutorService sampler;
    private volatile long headLsn;

    public CdcLag(CdcStatus status, DataSource dataSource) {
        this.status = status;
        this.dataSource = io.micronaut.data.connection.jdbc.advice.DelegatingDataSource.unwrapDataSource(dataSource);
        this.sampler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "cdc-lag");
            t.setDaemon(true);
            return t;
        });
        sampler.scheduleWithFixedDelay(this::sample, 0, SAMPLE_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** The newest sampled WAL head. */
    public long headLsn() {
        return headLsn;
    }

    /** Bytes of WAL between the head and what ClickHouse has (all databases' WAL counts: it is one stream). */
    public long walBytesBehind() {
        long applied = status.appliedLsn();
        return applied == 0 ? 0 : Math.max(0, headLsn - applied);
    }

    /** Milliseconds behind the WAL head (see the class comment); 0 before the bridge applied anything. */
    public synchronized long lagMillis() {
        long applied = status.appliedLsn();
        if (applied == 0 || samples.isEmpty() || samples.peekLast().headLsn() <= applied) {
            return 0;
        }
        long firstAhead = samples.peekLast().at();
        var it = samples.descendingIterator();
        while (it.hasNext()) {
            Sample s = it.next();
            if (s.headLsn() <= applied) {
                break;
            }
            firstAhead = s.at();
        }
        return Math.max(0, System.currentTimeMillis() - firstAhead);
    }

    private void sample() {
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT pg_current_wal_lsn() - '0/0'::pg_lsn")) {
            rs.next();
            long head = rs.getLong(1);
            headLsn = head;
            synchronized (this) {
                samples.addLast(new Sample(System.currentTimeMillis(), head));
                while (samples.size() > MAX_SAMPLES) {
                    samples.removeFirst();
                }
            }
        } catch (Exception e) {
            LOG.debug("cannot sample the WAL head", e);
        }
    }

    @PreDestroy
    void close() {
        sampler.shutdownNow();
    }
}
