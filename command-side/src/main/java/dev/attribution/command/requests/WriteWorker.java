package dev.attribution.command.requests;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.JsonBody;
import dev.attribution.api.auth.Account;
import dev.attribution.api.auth.AccountDirectory;
import io.micronaut.context.annotation.Requires;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import io.micronaut.context.annotation.Value;
import io.micronaut.context.event.ApplicationEventListener;
import io.micronaut.runtime.server.event.ServerStartupEvent;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import dev.attribution.api.RequestIds;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Applies accepted writes from {@code write_requests}. A few worker threads per server node
 * ({@code attribution.worker.threads}), each with its own share of the lanes; lanes are shared between threads and nodes
 * with PostgreSQL advisory locks, so several stateless nodes over one database split the work and each lane stays
 * in order. Each batch is one transaction: a request's effects and its PROCESSED/FAILED mark commit together, so a
 * crash between accept and apply leaves the request PENDING and it is applied exactly once after restart.
 *
 * <p>Loop outline: {@link #claimLanes}, {@link #awaitCalm} (stand aside during a burst of accepts, {@link AcceptBursts}),
 * {@link #processBatch}, and when idle {@link #awaitWrites}.
 */
@Singleton
@Requires(property = "attribution.roles.command", notEquals = "false")
public class WriteWorker implements ApplicationEventListener<ServerStartupEvent> {

    private static final Logger LOG = LoggerFactory.getLogger(WriteWorker.class);
    private static final int LOCK_NAMESPACE = 0x5752; // "WR"

    private final DataSource dataSource;
    private final AccountDirectory accounts;
    private final Map<String, WriteHandler> handlers = new HashMap<>();
    private final int batchSize;
    private final int threadCount;
    private volatile boolean running;
    private final List<Thread> threads = new ArrayList<>();

    /** How long an idle worker waits before looking again for writes accepted by other nodes. */
    static final long IDLE_POLL_MILLIS = 100;

    /** How long a thread short of its share of lanes waits before trying to take more. */
    static final long CLAIM_RETRY_MILLIS = 1000;

    private final WriteSignal signal;
    private final AcceptBursts bursts;

    public WriteWorker(DataSource dataSource, AccountDirectory accounts, List<WriteHandler> handlers, WriteSignal signal,
                       AcceptBursts bursts,
                       @Value("${attribution.worker.batch-size:200}") int batchSize,
                       @Value("${attribution.worker.threads:4}") int threadCount) {
        // The worker holds one long-lived connection (LISTEN, session advisory locks) and commits by hand: it needs
        // the pool itself, not Micronaut's transaction-aware proxy that only hands out a transaction's connection.
        this.dataSource = DelegatingDataSource.unwrapDataSource(dataSource);
        this.accounts = accounts;
        this.signal = signal;
        this.bursts = bursts;
        this.batchSize = batchSize;
        this.threadCount = Math.max(1, Math.min(threadCount, WriteRequestLog.LANES));
        handlers.forEach(h -> this.handlers.put(h.eventType(), h));
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
        // each thread applies its own share of the lanes on its own connection; lanes stay ordered, lanes run in parallel
        int maxLanes = (WriteRequestLog.LANES + threadCount - 1) / threadCount;
        for (int i = 0; i < threadCount; i++) {
            Thread thread = new Thread(() -> run(maxLanes), "write-worker-" + i);
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
                thread.join(5000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        threads.clear();
    }

    private void run(int maxLanes) {
        boolean[] owned = new boolean[WriteRequestLog.LANES];
        while (running) {
            long nextClaim = 0; // a new connection holds no lanes: claim at once
            try (Connection connection = dataSource.getConnection()) {
                java.util.Arrays.fill(owned, false);
                long caughtUpAt = System.nanoTime(); // when a batch last found fewer pending writes than it could take
                try {
                    while (running) {
                        long seen = signal.generation();
                        long now = System.currentTimeMillis();
                        if (now >= nextClaim) {
                            // short of its share (lanes held by another thread or node): look again in a while, not
                            // on every wake — each look is one query per missing lane
                            nextClaim = claimLanes(connection, owned, maxLanes) < maxLanes ? now + CLAIM_RETRY_MILLIS : 0;
                        }
                        awaitCalm(caughtUpAt);
                        int applied = processBatch(connection, owned);
                        if (applied < batchSize) {
                            caughtUpAt = System.nanoTime();
                        }
                        if (applied == 0) {
                            awaitWrites(seen);
                        }
                    }
                } finally {
                    releaseLanes(connection, owned);
                }
            } catch (SQLException | RuntimeException e) {
                if (running) {
                    LOG.warn("write worker restarting after error: {}", e.getMessage());
                    sleep(500);
                }
            }
        }
    }

    /**
     * Takes lanes no other worker holds, up to {@code maxLanes} (session advisory locks live as long as the
     * connection). Lanes are tried from a random start so that threads and nodes spread over them.
     */
    private int claimLanes(Connection connection, boolean[] owned, int maxLanes) throws SQLException {
        connection.setAutoCommit(true);
        int held = 0;
        for (boolean o : owned) {
            held += o ? 1 : 0;
        }
        int first = java.util.concurrent.ThreadLocalRandom.current().nextInt(owned.length);
        for (int k = 0; k < owned.length && held < maxLanes; k++) {
            int lane = (first + k) % owned.length;
            if (!owned[lane]) {
                try (PreparedStatement ps = connection.prepareStatement("SELECT pg_try_advisory_lock(?, ?)")) {
                    ps.setInt(1, LOCK_NAMESPACE);
                    ps.setInt(2, lane);
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        owned[lane] = rs.getBoolean(1);
                        held += owned[lane] ? 1 : 0;
                    }
                }
            }
        }
        return held;
    }

    /**
     * Gives the lanes back before the connection returns to the pool: session advisory locks outlive a pooled
     * connection's close, and lanes left locked there would never be applied again by any node.
     */
    private void releaseLanes(Connection connection, boolean[] owned) {
        try {
            connection.setAutoCommit(true);
            try (Statement s = connection.createStatement()) {
                s.execute("SELECT pg_advisory_unlock_all()");
            }
        } catch (SQLException e) {
            // a broken connection has lost its session, and its locks with it
            LOG.debug("releasing lanes: {}", e.getMessage());
        }
        java.util.Arrays.fill(owned, false);
    }

    /** Applies up to one batch of pending requests of the owned lanes, in order; returns how many. */
    int processBatch(Connection connection, boolean[] owned) throws SQLException {
        List<Integer> lanes = new ArrayList<>();
        for (int i = 0; i < owned.length; i++) {
            if (owned[i]) {
                lanes.add(i);
            }
        }
        if (lanes.isEmpty()) {
            return 0;
        }
        connection.setAutoCommit(false);
        try {
            List<Pending> batch = new ArrayList<>();
            // Each lane's oldest pending writes through the partial index (lane, seq), then the oldest of those: the
            // plain "lane = ANY(?) ORDER BY seq" was planned as a walk of the primary key past every processed and
            // other-lane row (61 ms per batch of 200 with 40,000 rows in the log, against 8 ms this way).
            try (PreparedStatement ps = connection.prepareStatement("""
                    SELECT w.seq, w.id, w.account_id, w.event_type, w.payload::text, w.created_at
                    FROM unnest(?::int[]) AS l(lane) CROSS JOIN LATERAL (
                        SELECT seq, id, account_id, event_type, payload, created_at FROM write_requests
                        WHERE status = 'PENDING' AND lane = l.lane ORDER BY seq LIMIT ?) w
                    ORDER BY w.seq LIMIT ?""")) {
                ps.setArray(1, connection.createArrayOf("integer", lanes.toArray()));
                ps.setInt(2, batchSize);
                ps.setInt(3, batchSize);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        batch.add(new Pending(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4),
                                rs.getString(5), rs.getTimestamp(6)));
                    }
                }
            }
            Map<String, Optional<Account>> accountsOfBatch = new HashMap<>();
            for (Pending p : batch) {
                accountsOfBatch.computeIfAbsent(p.accountId(), accounts::find);
            }
            List<Outcome> outcomes;
            try {
                outcomes = applyAll(connection, batch, accountsOfBatch, false);
            } catch (FastPathFailed e) {
                // some write failed: nothing of this attempt is kept; again, each write behind its own savepoint
                connection.rollback();
                outcomes = applyAll(connection, batch, accountsOfBatch, true);
            }
            finish(connection, outcomes);
            connection.commit();
            logApplied(batch, outcomes);
            return batch.size();
        } catch (SQLException | RuntimeException e) {
            connection.rollback();
            throw e;
        } finally {
            connection.setAutoCommit(true);
        }
    }

    private record Pending(long seq, String id, String accountId, String eventType, String payload, Timestamp createdAt) {
    }

    /** What a write ended as: PROCESSED with its result, or FAILED with its message. */
    private record Outcome(long seq, String status, String error, String result) {
    }

    /** A write failed while the batch ran without savepoints. */
    private static final class FastPathFailed extends RuntimeException {
        FastPathFailed() {
            super(null, null, false, false);
        }
    }

    /**
     * Applies the batch in order. Without savepoints (the usual case: two round trips fewer per write) the first
     * failing write aborts the attempt with {@link FastPathFailed}; with savepoints a failing write is rolled back
     * alone and marked FAILED, and the others are kept.
     */
    private List<Outcome> applyAll(Connection connection, List<Pending> batch, Map<String, Optional<Account>> accountsOfBatch,
                                   boolean savepoints) throws SQLException {
        List<Outcome> outcomes = new ArrayList<>(batch.size());
        for (Pending p : batch) {
            Savepoint savepoint = savepoints ? connection.setSavepoint() : null;
            String error;
            MDC.put(RequestIds.MDC_KEY, p.id()); // every line logged while applying names the request it applies
            try {
                outcomes.add(new Outcome(p.seq(), "PROCESSED", null, apply(connection, p, accountsOfBatch.get(p.accountId()))));
                if (savepoint != null) {
                    connection.releaseSavepoint(savepoint);
                }
                continue;
            } catch (WriteHandler.WriteFailure e) {
                error = e.getMessage();
            } catch (Exception e) {
                Optional<SQLException> rolledBack = transactionRollback(e);
                if (savepoint != null && rolledBack.isPresent()) {
                    // a deadlock or serialization failure says nothing about the write itself (two transactions
                    // met on the same rows, e.g. conversion_touches of two leads): the whole batch is tried again
                    throw rolledBack.get();
                }
                if (savepoint != null) {
                    LOG.error("request {} ({}) failed", p.id(), p.eventType(), e);
                }
                error = "There was a problem while processing the request";
            } finally {
                MDC.remove(RequestIds.MDC_KEY);
            }
            if (savepoint == null) {
                throw new FastPathFailed();
            }
            connection.rollback(savepoint);
            outcomes.add(new Outcome(p.seq(), "FAILED", error, null));
        }
        return outcomes;
    }

    /** At DEBUG, a line per write once its batch committed, under the id of the request that sent it (MDC). */
    private static void logApplied(List<Pending> batch, List<Outcome> outcomes) {
        for (int i = 0; LOG.isDebugEnabled() && i < batch.size(); i++) {
            Pending p = batch.get(i);
            Outcome o = outcomes.get(i);
            MDC.put(RequestIds.MDC_KEY, p.id());
            LOG.debug("write {} {} of account {}{}", o.status(), p.eventType(), p.accountId(), o.error() == null ? "" : ": " + o.error());
            MDC.remove(RequestIds.MDC_KEY);
        }
    }

    /** The write's request-status result (JSON text, or null for none); a failure is thrown. */
    private String apply(Connection connection, Pending p, Optional<Account> account) throws Exception {
        WriteHandler handler = handlers.get(p.eventType());
        if (handler == null) {
            throw new WriteHandler.WriteFailure("No handler for " + p.eventType());
        }
        if (account.isEmpty()) {
            throw new WriteHandler.WriteFailure("Account not found");
        }
        JsonNode payload = JsonBody.mapper().readTree(p.payload());
        JsonNode result = handler.apply(connection, new WriteHandler.Write(p.id(), account.get(), payload, p.createdAt().toInstant()));
        return result == null ? null : result.toString();
    }

    /** The SQL error of class 40 (transaction rollback: deadlock, serialization failure) behind {@code e}, if any. */
    static Optional<SQLException> transactionRollback(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && sql.getSQLState() != null && sql.getSQLState().startsWith("40")) {
                return Optional.of(sql);
            }
        }
        return Optional.empty();
    }

    /** Marks the batch's requests PROCESSED or FAILED in one statement, in the batch's transaction. */
    private static void finish(Connection connection, List<Outcome> outcomes) throws SQLException {
        if (outcomes.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = connection.prepareStatement("""
                UPDATE write_requests w SET status = o.status, error_message = o.error, result = o.result::jsonb,
                       processed_at = clock_timestamp()
                FROM unnest(?::bigint[], ?::text[], ?::text[], ?::text[]) AS o(seq, status, error, result)
                WHERE w.seq = o.seq""")) {
            ps.setArray(1, connection.createArrayOf("bigint", outcomes.stream().map(Outcome::seq).toArray()));
            ps.setArray(2, connection.createArrayOf("text", outcomes.stream().map(Outcome::status).toArray()));
            ps.setArray(3, connection.createArrayOf("text", outcomes.stream().map(Outcome::error).toArray()));
            ps.setArray(4, connection.createArrayOf("text", outcomes.stream().map(Outcome::result).toArray()));
            ps.executeUpdate();
        }
    }

    /** While this node takes a burst of accepts: they get the cores, the burst's writes are applied after it. */
    private void awaitCalm(long caughtUpAt) {
        try {
            bursts.awaitCalm(caughtUpAt);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Until a write is accepted on this node, or {@link #IDLE_POLL_MILLIS} for writes accepted elsewhere. */
    private void awaitWrites(long seen) {
        try {
            signal.awaitAfter(seen, IDLE_POLL_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
