package dev.attribution.query.reports;

import dev.attribution.api.RoleSettings;

import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.attribution.api.ApiException;
import io.micronaut.context.annotation.Requires;
import io.micronaut.context.event.ApplicationEventListener;
import io.micronaut.runtime.server.event.ServerStartupEvent;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Runs report jobs (docs/reports.md) on a few threads per node ({@code attribution.reports.worker-threads}). Jobs live
 * in PostgreSQL ({@link ReportJobStore}): a thread claims one with {@code FOR UPDATE SKIP LOCKED} and a lease,
 * computes it part by part through its {@link ReportType}, saving each part (and renewing the lease) as it goes.
 * A node that dies leaves its lease to run out and another node resumes the job at its first unsaved part; a node
 * that stops gives its jobs back at once. A job claimed more than {@code max-attempts} times fails.
 *
 * <p>Loop outline: {@link #sweepExpired} now and then, {@link #work} one job, and when idle sleep.
 */
@Singleton
@Requires(property = RoleSettings.QUERY, notEquals = "false")
@Requires(beans = ReportJobStore.class)
public class ReportWorker implements ApplicationEventListener<ServerStartupEvent> {

    private static final Logger LOG = LoggerFactory.getLogger(ReportWorker.class);
    static final String GAVE_UP = "The report could not be generated";

    private final ReportJobStore store;
    private final Map<String, ReportType> types = new HashMap<>();
    private final int threadCount;
    private final Duration lease;
    private final Duration retention;
    private final Duration retryDelay;
    private final long pollMillis;
    private final int maxAttempts;
    private final String node = UUID.randomUUID().toString();
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean running;
    private volatile long lastSweep;

    public ReportWorker(ReportJobStore store, List<ReportType> types, ReportSettings settings) {
        this.store = store;
        types.forEach(t -> this.types.put(t.name(), t));
        this.threadCount = settings.getWorkerThreads();
        this.lease = settings.getLease();
        this.retention = settings.getRetention();
        this.retryDelay = settings.getRetryDelay();
        this.pollMillis = Math.max(10, settings.getPollInterval().toMillis());
        this.maxAttempts = settings.getMaxAttempts();
    }

    @Override
    public void onApplicationEvent(ServerStartupEvent event) {
        start();
    }

    public synchronized void start() {
        if (running) {
            return;
        }
        running = true;
        lastSweep = 0; // sweep expired jobs first
        for (int i = 0; i < threadCount; i++) {
            String owner = node + "/" + i;
            Thread thread = new Thread(() -> run(owner), "report-worker-" + i);
            thread.setDaemon(true);
            thread.start();
            threads.add(thread);
        }
    }

    @PreDestroy
    public synchronized void stop() {
        running = false;
        threads.forEach(Thread::interrupt);
        for (Thread thread : threads) {
            try {
                thread.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        threads.clear();
    }

    private void run(String owner) {
        while (running) {
            try {
                sweepExpired();
                if (!work(owner, Integer.MAX_VALUE, true)) {
                    Thread.sleep(pollMillis);
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                if (!running) {
                    return;
                }
                LOG.warn("report worker retrying after error: {}", e.getMessage());
                try {
                    Thread.sleep(500);
                } catch (InterruptedException ie) {
                    return;
                }
            }
        }
    }

    /** At most once a minute per node: deletes jobs whose results expired. */
    private void sweepExpired() {
        long now = System.currentTimeMillis();
        if (now - lastSweep > 60_000) {
            lastSweep = now;
            int n = store.deleteExpired();
            if (n > 0) {
                LOG.info("deleted {} expired report jobs", n);
            }
        }
    }

    /**
     * Claims one due job as {@code owner} and computes up to {@code maxParts} of its parts; false when no job was
     * due. A job left unfinished by {@code maxParts} keeps its lease, as if this node had died (tests use it).
     */
    public boolean work(String owner, int maxParts) {
        return work(owner, maxParts, false);
    }

    /** {@link #work(String, int)}; {@code ownThread}: a thread of this worker, which gives its job back on stop. */
    private boolean work(String owner, int maxParts, boolean ownThread) {
        Optional<ReportJobStore.Job> claimed = store.claim(owner, lease);
        if (claimed.isEmpty()) {
            return false;
        }
        ReportJobStore.Job job = claimed.get();
        ReportType type = types.get(job.reportType());
        if (type == null || job.attempts() > maxAttempts) {
            LOG.warn("report job {} failed: {}", job.id(), type == null ? "no report type " + job.reportType() : "attempts exhausted");
            store.fail(job.id(), owner, GAVE_UP, retention);
            return true;
        }
        ArrayNode rows = job.rows();
        ArrayNode notes = job.notes();
        int done = job.partsDone();
        try {
            for (int computed = 0; done < job.partsTotal(); computed++) {
                if (computed == maxParts) {
                    return true;
                }
                if (ownThread && !running) {
                    store.release(job.id(), owner, Duration.ZERO); // stopping: another node takes it now
                    return true;
                }
                ReportType.Part part = type.part(job.accountId(), job.zone(), job.parameters(), done);
                part.rows().forEach(r -> rows.add(ReportJobStore.tree(r)));
                part.notes().forEach(notes::add);
                done++;
                if (!store.savePart(job.id(), owner, done, rows, notes, lease)) {
                    LOG.warn("report job {}: lease lost, leaving it to its new owner", job.id());
                    return true;
                }
            }
            store.finish(job.id(), owner, retention);
        } catch (ApiException e) {
            // the configuration no longer holds (e.g. a stage renamed since): a final answer, not a retry
            store.fail(job.id(), owner, String.join("; ", e.messages()), retention);
        } catch (RuntimeException e) {
            LOG.warn("report job {} part {} failed, retrying later: {}", job.id(), done, e.toString());
            store.release(job.id(), owner, retryDelay);
        }
        return true;
    }
}
