package dev.attribution.command.requests;

import dev.attribution.api.RoleSettings;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.JsonBody;
import dev.attribution.api.auth.Account;
import dev.attribution.api.auth.AccountDirectory;
import dev.attribution.command.requests.WriteClaims.Pending;
import io.micronaut.context.annotation.Requires;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
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
import java.sql.SQLException;
import java.sql.Savepoint;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Applies accepted writes from {@code write_requests}. A few worker threads per server node
 * ({@code attribution.worker.threads}), each applying one batch per transaction. Which writes a transaction takes is
 * {@link WriteClaims}: the oldest pending writes of ordering keys (account and lead) that no other transaction holds,
 * each key locked for that transaction only with a PostgreSQL advisory lock, so the threads of every node over one
 * database share all keys (several stateless nodes split the work; none waits for another to die), each key's writes
 * are applied in accept order, and a long write holds up its own key only. A big write (a 10,000-item order) is
 * applied alone and only in one of a few slots, so it never delays another account's writes (issue 23 point 1). Each
 * batch is one transaction: a request's effects and its PROCESSED/FAILED mark commit together, so a crash between
 * accept and apply leaves the request PENDING and it is applied exactly once after restart.
 *
 * <p>Fast path ({@link GroupApply}, issue 23 point 3): the batch's writes of one type are applied together with
 * set-based statements, each lead's writes still in accept order; the advisory locks the batch will wait for are taken
 * first, in one order ({@link GroupApply#lockAhead}). If anything fails, the attempt is rolled back and the batch is
 * applied again one write at a time, each behind a savepoint, so a failing write is marked FAILED alone. The
 * conversion touches of the batch's leads are refreshed once, before the commit ({@link DeferredTouches}).
 *
 * <p>Loop outline: {@link #awaitCalm} (stand aside during a burst of accepts, {@link AcceptBursts}),
 * {@link #processBatch}, and when idle {@link #awaitWrites}.
 */
@Singleton
@Requires(property = RoleSettings.COMMAND, notEquals = "false")
public class WriteWorker implements ApplicationEventListener<ServerStartupEvent> {

    private static final Logger LOG = LoggerFactory.getLogger(WriteWorker.class);

    private final DataSource dataSource;
    private final Map<String, WriteHandler> handlers = new HashMap<>();
    private final int batchSize;
    private final int threadCount;
    private final WriteClaims claims;
    private final GroupApply groups;
    private volatile boolean running;
    private final List<Thread> threads = new ArrayList<>();

    /** How long an idle worker waits before looking again for writes accepted by other nodes. */
    static final long IDLE_POLL_MILLIS = 100;

    private final WriteSignal signal;
    private final AcceptBursts bursts;

    public WriteWorker(DataSource dataSource, List<WriteHandler> handlers, WriteSignal signal,
                       AcceptBursts bursts, WorkerSettings settings) {
        // The worker holds one long-lived connection (LISTEN, session advisory locks) and commits by hand: it needs
        // the pool itself, not Micronaut's transaction-aware proxy that only hands out a transaction's connection.
        this.dataSource = DelegatingDataSource.unwrapDataSource(dataSource);
        this.signal = signal;
        this.bursts = bursts;
        this.batchSize = settings.getBatchSize();
        this.threadCount = settings.getThreads();
        this.claims = new WriteClaims(batchSize, settings.getBatchBytes(), WriteClaims.bigSlots(threadCount));
        handlers.forEach(h -> this.handlers.put(h.eventType(), h));
        this.groups = new GroupApply(this.handlers);
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
        // each thread applies one batch at a time on its own connection; each key stays ordered, keys run in parallel
        for (int i = 0; i < threadCount; i++) {
            Thread thread = new Thread(this::run, "write-worker-" + i);
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

    private void run() {
        while (running) {
            try (Connection connection = dataSource.getConnection()) {
                // when a claim last found nothing to apply. Not "a batch smaller than batch-size": batch-bytes and the
                // keys other threads hold cut most batches of a big backlog short, and a worker that counted those as
                // caught up stood aside again and again while the backlog grew (issue 23 point 3)
                long caughtUpAt = System.nanoTime();
                while (running) {
                    long seen = signal.generation();
                    awaitCalm(caughtUpAt);
                    int applied = processBatch(connection);
                    if (applied == 0) {
                        caughtUpAt = System.nanoTime();
                        awaitWrites(seen);
                    }
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
     * Applies one batch ({@link WriteClaims#claim}) in order, in one transaction; returns how many writes. The keys are
     * locked for this transaction only: free again at commit (or when a crashed node's session ends).
     */
    int processBatch(Connection connection) throws SQLException {
        connection.setAutoCommit(false);
        try {
            List<Pending> batch = claims.claim(connection);
            if (batch.isEmpty()) {
                connection.commit();
                return 0;
            }
            Map<String, Optional<Account>> accountsOfBatch = accountsOfBatch(connection, batch, new HashMap<>());
            List<Outcome> outcomes;
            try {
                List<WriteHandler.Write> writes = groups.writes(batch, accountsOfBatch); // each payload parsed once
                groups.lockAhead(connection, batch, writes, DeferredTouches.DEFER);
                outcomes = applyGrouped(connection, batch, writes);
            } catch (FastPathFailed e) {
                // some write failed: nothing of this attempt is kept; again, each write behind its own savepoint
                connection.rollback(); // also frees the keys: claim again before the second attempt
                batch = claims.claim(connection);
                accountsOfBatch(connection, batch, accountsOfBatch);
                groups.lockAhead(connection, batch, groups.writes(batch, accountsOfBatch), DeferredTouches.DEFER);
                outcomes = applyOneByOne(connection, batch, accountsOfBatch);
            }
            WriteRequestLog.finish(connection, outcomes, DeferredTouches.FLUSH);
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

    /**
     * The accounts of the batch's writes, added to {@code known}: those not known yet read in one statement in the
     * batch's transaction (a read of its own would cost a transaction's round trips per batch).
     */
    private static Map<String, Optional<Account>> accountsOfBatch(Connection connection, List<Pending> batch,
                                                                  Map<String, Optional<Account>> known) throws SQLException {
        Set<String> unknown = new HashSet<>();
        for (Pending p : batch) {
            if (!known.containsKey(p.accountId())) {
                unknown.add(p.accountId());
            }
        }
        if (!unknown.isEmpty()) {
            Map<String, Account> found = AccountDirectory.findAll(connection, unknown);
            unknown.forEach(id -> known.put(id, Optional.ofNullable(found.get(id))));
        }
        return known;
    }

    /** What a write ended as: PROCESSED with its result, or FAILED with its message. */
    record Outcome(long seq, String status, String error, String result) {
    }

    /** A write failed while the batch ran on the fast path (grouped, without savepoints). */
    private static final class FastPathFailed extends RuntimeException {
        FastPathFailed() {
            super(null, null, false, false);
        }
    }

    /**
     * The fast path: the batch applied by {@link GroupApply} (writes of one type together, each lead's in order), no
     * savepoints. Any failure aborts the attempt with {@link FastPathFailed}.
     */
    private List<Outcome> applyGrouped(Connection connection, List<Pending> batch, List<WriteHandler.Write> writes) {
        List<String> results;
        try {
            results = groups.apply(connection, batch, writes);
        } catch (Exception e) {
            // a write refused (its FAILED mark comes from the one-by-one attempt) or a statement failed
            LOG.debug("fast path of a batch of {} failed, applying it one by one: {}", batch.size(), e.toString());
            throw new FastPathFailed();
        }
        List<Outcome> outcomes = new ArrayList<>(batch.size());
        for (int i = 0; i < batch.size(); i++) {
            outcomes.add(new Outcome(batch.get(i).seq(), "PROCESSED", null, results.get(i)));
        }
        return outcomes;
    }

    /**
     * The second attempt after a failed fast path: the batch in order, one write at a time, each behind a savepoint. A
     * failing write is rolled back alone and marked FAILED, and the others are kept.
     */
    private List<Outcome> applyOneByOne(Connection connection, List<Pending> batch, Map<String, Optional<Account>> accountsOfBatch)
            throws SQLException {
        List<Outcome> outcomes = new ArrayList<>(batch.size());
        for (Pending p : batch) {
            Savepoint savepoint = connection.setSavepoint();
            String error;
            MDC.put(RequestIds.MDC_KEY, p.id()); // every line logged while applying names the request it applies
            try {
                outcomes.add(new Outcome(p.seq(), "PROCESSED", null, apply(connection, p, accountsOfBatch.get(p.accountId()))));
                connection.releaseSavepoint(savepoint);
                continue;
            } catch (WriteHandler.WriteFailure e) {
                error = e.getMessage();
            } catch (Exception e) {
                Optional<SQLException> rolledBack = transactionRollback(e);
                if (rolledBack.isPresent()) {
                    // a deadlock or serialization failure says nothing about the write itself (two transactions
                    // met on the same rows, e.g. conversion_touches of two leads): the whole batch is tried again
                    throw rolledBack.get();
                }
                LOG.error("request {} ({}) failed", p.id(), p.eventType(), e);
                error = "There was a problem while processing the request";
            } finally {
                MDC.remove(RequestIds.MDC_KEY);
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
