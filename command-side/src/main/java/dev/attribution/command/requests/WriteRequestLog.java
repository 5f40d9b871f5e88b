package dev.attribution.command.requests;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.attribution.api.DatabaseReads;
import dev.attribution.api.RequestIds;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import org.postgresql.PGStatement;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The durable request log (spec 1, 3.1): an accepted write is committed here before the caller gets its
 * {@code request_id}; {@link WriteWorker} applies it later. Writes concerning one lead share an ordering key
 * ({@link #orderingKey}, stored in {@code write_requests.lane}) and are applied in accept order ({@link WriteClaims}).
 *
 * <p>Group commit: concurrent accepts are queued and written by a few committer threads, each taking what is queued
 * (up to {@code attribution.requests.accept-batch}) into one multi-row INSERT and one commit. {@link #submit} returns
 * at once a future that the committer completes once the commit holding its row is done (the write routes answer
 * from it, so no request thread waits per write); {@link #accept} waits for it. Alone, a request is written at once
 * (a batch of one); under load one fsync and one round trip serve many requests. A request answered later than
 * another that was already answered is stored after it, so a client's sequential writes keep their order. With
 * {@code attribution.requests.committers=0} each accept is its own INSERT on the caller's thread.
 * <p>
 * Every submitted future is completed: with its id once durable, or exceptionally when the INSERT failed or the server
 * stops before it was written.
 * <p>
 * A write sent with an {@link IdempotencyKey} is inserted alone, {@code ON CONFLICT DO NOTHING} on (account, key): a
 * retry of a committed write completes with the first request id and is not applied again; the same key on another
 * request completes with the key's 400.
 */
@Singleton
public class WriteRequestLog {

    /**
     * Rows accepted before ordering keys (V101) carry one of this many lanes (0..15); no ordering key takes those
     * values, and {@link WriteClaims} applies them first.
     */
    static final int LEGACY_LANES = 16;
    private static final Logger LOG = LoggerFactory.getLogger(WriteRequestLog.class);
    private static final String INSERT_ONE =
            "INSERT INTO write_requests (id, account_id, event_type, lane, payload) VALUES (?, ?, ?, ?, ?::jsonb)";
    private static final String INSERT_MANY = """
            INSERT INTO write_requests (id, account_id, event_type, lane, payload)
            SELECT i, a, e, l, p::jsonb FROM unnest(?::text[], ?::text[], ?::text[], ?::int[], ?::text[]) WITH ORDINALITY AS t(i, a, e, l, p, n)
            ORDER BY n""";

    private static final String INSERT_KEYED = """
            INSERT INTO write_requests (id, account_id, event_type, lane, payload, idempotency_key, request_hash)
            VALUES (?, ?, ?, ?, ?::jsonb, ?, ?)
            ON CONFLICT (account_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING""";
    private static final String FIND_KEYED =
            "SELECT id, request_hash FROM write_requests WHERE account_id = ? AND idempotency_key = ?";

    /** {@code key} null: a write without Idempotency-Key. */
    private record Pending(String id, String accountId, String eventType, int lane, String payload,
                           IdempotencyKey key, CompletableFuture<String> committed) {
    }

    private final DataSource dataSource;
    private final WriteSignal signal;
    private final AcceptBursts bursts;
    private final int batchLimit;
    private final BlockingQueue<Pending> queue = new LinkedBlockingQueue<>();
    private final List<Thread> committers = new ArrayList<>();
    private volatile boolean running = true;

    public WriteRequestLog(DataSource dataSource, WriteSignal signal, AcceptBursts bursts, RequestLogSettings settings) {
        // the pool itself: autocommitted statements outside Micronaut's transaction management
        this.dataSource = DelegatingDataSource.unwrapDataSource(dataSource);
        this.signal = signal;
        this.bursts = bursts;
        this.batchLimit = settings.getAcceptBatch();
        for (int i = 0; i < settings.getCommitters(); i++) {
            Thread t = new Thread(this::commitLoop, "request-log-committer-" + i);
            t.setDaemon(true);
            t.start();
            this.committers.add(t);
        }
    }

    /**
     * Redacts the erased lead's copies in the log (spec 3.2 "personal data redacted"; issue 29): every request of the
     * account whose payload, result or error names one of its values gets {@link Redaction#REDACTED} instead, so
     * {@code GET /requests/{id}} of its earlier writes no longer shows them; status, type and dates stay pollable.
     * Writes still PENDING are left for their worker (they may concern the lead and are refused or applied as usual),
     * except the erasing request itself. A scan of the account's log: erasures are rare and asynchronous.
     */
    public static int redact(java.sql.Connection c, String accountId, Redaction r, String erasingRequestId)
            throws java.sql.SQLException {
        try (java.sql.PreparedStatement ps = c.prepareStatement("""
                UPDATE write_requests SET payload = ?::jsonb, result = CASE WHEN result IS NULL THEN NULL ELSE ?::jsonb END,
                       error_message = CASE WHEN error_message ~* ANY(?) THEN 'redacted' ELSE error_message END
                WHERE account_id = ? AND (status <> 'PENDING' OR id = ?)
                  AND (payload::text ~* ANY(?) OR coalesce(result::text, '') ~* ANY(?) OR coalesce(error_message, '') ~* ANY(?))""")) {
            java.sql.Array patterns = r.array(c);
            ps.setString(1, Redaction.REDACTED);
            ps.setString(2, Redaction.REDACTED);
            ps.setArray(3, patterns);
            ps.setString(4, accountId);
            ps.setString(5, erasingRequestId);
            ps.setArray(6, patterns);
            ps.setArray(7, patterns);
            ps.setArray(8, patterns);
            return ps.executeUpdate();
        }
    }

    /**
     * A window of the log for {@link LogRetention}: applied or failed requests created before the cutoff are
     * purgeable; PENDING ones never are.
     */
    static RetentionWindow purgeWindow(Connection c, long afterSeq, int limit, Instant cutoff) throws SQLException {
        return RetentionWindow.read(c, """
                SELECT w.seq, w.created_at, w.status <> 'PENDING' AND w.created_at < k.cutoff
                FROM (SELECT seq, created_at, status FROM write_requests WHERE seq > ? ORDER BY seq LIMIT ?) w,
                     (SELECT ?::timestamptz AS cutoff) k""", afterSeq, limit, cutoff);
    }

    /** Deletes the purgeable requests of a window (still not PENDING: a status never goes back). */
    static int delete(Connection c, Long[] seqs) throws SQLException {
        if (seqs.length == 0) {
            return 0;
        }
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM write_requests WHERE seq = ANY(?) AND status <> 'PENDING'")) {
            ps.setArray(1, c.createArrayOf("bigint", seqs));
            return ps.executeUpdate();
        }
    }

    /** The log's backlog: writes accepted and not yet applied, and when the oldest of them was accepted (null: none). */
    public record Backlog(long pending, Instant oldestAcceptedAt) {
    }

    /**
     * The backlog of every node (Prometheus {@code request_log_pending_writes}, {@code request_log_oldest_pending_age_seconds}):
     * both through the partial indexes of PENDING rows.
     */
    public static Backlog backlog(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT (SELECT count(*) FROM write_requests WHERE status = 'PENDING'),
                       (SELECT created_at FROM write_requests WHERE status = 'PENDING' ORDER BY seq LIMIT 1)""")) {
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                java.sql.Timestamp oldest = rs.getTimestamp(2);
                return new Backlog(rs.getLong(1), oldest == null ? null : oldest.toInstant());
            }
        }
    }

    /** Records a validated write durably, wakes this node's workers and returns the request id. */
    public String accept(String accountId, String eventType, String laneKey, ObjectNode payload) {
        return await(submit(accountId, eventType, laneKey, payload));
    }

    /**
     * Queues a validated write; the future completes with its request id once the row is committed (on the committer
     * thread), or exceptionally when it could not be written. Does not block, except with no committer threads
     * ({@code committers=0}), where the row is written on the caller's thread: that counts as a database read for
     * {@link DatabaseReads#without}.
     */
    public CompletableFuture<String> submit(String accountId, String eventType, String laneKey, ObjectNode payload) {
        Pending p = new Pending(RequestIds.forWrite(), accountId, eventType, orderingKey(accountId, laneKey), payload.toString(),
                IdempotencyKey.current(), new CompletableFuture<>());
        if (committers.isEmpty()) {
            DatabaseReads.beforeRead();
            commit(new ArrayList<>(List.of(p)));
        } else {
            queue.add(p);
        }
        return p.committed();
    }

    private static String await(CompletableFuture<String> committed) {
        try {
            return committed.get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the request log committed", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("the request log did not commit within 30 s", e);
        }
    }

    /** The rows are durable: counted, this node's workers woken, then each caller answered. */
    private void committed(List<Pending> rows) {
        bursts.accepted(rows.size());
        signal.wake();
        for (Pending p : rows) {
            p.committed().complete(p.id());
        }
    }

    private void commitLoop() {
        List<Pending> batch = new ArrayList<>();
        while (running) {
            try {
                Pending first = queue.poll(200, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                queue.drainTo(batch, batchLimit - 1);
                commit(batch);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } finally {
                batch.clear();
            }
        }
    }

    /**
     * One INSERT for the batch; if it fails, each row alone, so one bad row fails only its own request. Keyed rows are
     * inserted one by one first ({@link #commitKeyed}).
     */
    private void commit(List<Pending> batch) {
        if (batch.stream().anyMatch(p -> p.key() != null)) {
            batch.stream().filter(p -> p.key() != null).forEach(this::commitKeyed);
            batch.removeIf(p -> p.key() != null);
            if (batch.isEmpty()) {
                return;
            }
        }
        try {
            insert(batch);
        } catch (RuntimeException e) {
            if (batch.size() == 1) {
                batch.get(0).committed().completeExceptionally(e);
                return;
            }
            LOG.warn("request log batch of {} failed, writing one by one: {}", batch.size(), e.getMessage());
            oneByOne(batch);
            return;
        }
        committed(batch);
    }

    private void oneByOne(List<Pending> batch) {
        for (Pending p : batch) {
            try {
                insert(List.of(p));
            } catch (RuntimeException e) {
                p.committed().completeExceptionally(e);
                continue;
            }
            committed(List.of(p));
        }
    }

    /** Inserted, or answered from the row that already holds its key (a retry), or refused (another request). */
    private void commitKeyed(Pending p) {
        try (Connection c = autocommitted()) {
            try (PreparedStatement ps = c.prepareStatement(INSERT_KEYED)) {
                ps.setString(1, p.id());
                ps.setString(2, p.accountId());
                ps.setString(3, p.eventType());
                ps.setInt(4, p.lane());
                ps.setString(5, p.payload());
                ps.setString(6, p.key().key());
                ps.setString(7, p.key().requestHash());
                if (ps.executeUpdate() == 1) {
                    committed(List.of(p));
                    return;
                }
            }
            try (PreparedStatement ps = c.prepareStatement(FIND_KEYED)) {
                ps.setString(1, p.accountId());
                ps.setString(2, p.key().key());
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        throw new SQLException("the row holding idempotency key " + p.key().key() + " disappeared");
                    }
                    if (p.key().requestHash().equals(rs.getString(2))) {
                        p.committed().complete(rs.getString(1));
                    } else {
                        p.committed().completeExceptionally(p.key().reusedForAnotherRequest());
                    }
                }
            }
        } catch (SQLException | RuntimeException e) {
            p.committed().completeExceptionally(e instanceof RuntimeException r ? r
                    : new IllegalStateException("the request log refused a write", e));
        }
    }

    /** A pooled connection whose statements commit one by one (outside Micronaut's transaction management). */
    private Connection autocommitted() throws SQLException {
        Connection c = dataSource.getConnection();
        if (!c.getAutoCommit()) {
            c.setAutoCommit(true);
        }
        return c;
    }

    private void insert(List<Pending> rows) {
        try (Connection c = autocommitted()) {
            if (rows.size() == 1) {
                Pending p = rows.get(0);
                try (PreparedStatement ps = c.prepareStatement(INSERT_ONE)) {
                    ps.setString(1, p.id());
                    ps.setString(2, p.accountId());
                    ps.setString(3, p.eventType());
                    ps.setInt(4, p.lane());
                    ps.setString(5, p.payload());
                    ps.executeUpdate();
                }
                return;
            }
            try (PreparedStatement ps = c.prepareStatement(INSERT_MANY)) {
                ps.setArray(1, c.createArrayOf("text", rows.stream().map(Pending::id).toArray()));
                ps.setArray(2, c.createArrayOf("text", rows.stream().map(Pending::accountId).toArray()));
                ps.setArray(3, c.createArrayOf("text", rows.stream().map(Pending::eventType).toArray()));
                ps.setArray(4, c.createArrayOf("integer", rows.stream().map(Pending::lane).toArray()));
                ps.setArray(5, c.createArrayOf("text", rows.stream().map(Pending::payload).toArray()));
                ps.executeUpdate();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("the request log refused a write", e);
        }
    }

    /**
     * Marks a claimed batch's requests PROCESSED or FAILED in one statement, in the worker's transaction (the
     * worker applies; this class owns {@code write_requests}), after {@code sentFirst} (a statement without
     * parameters) in the same round trip.
     * <p>
     * Planned afresh on every call, with the batch's real arrays and the table's size at that moment: never a
     * server-prepared statement, whose cached generic plan PostgreSQL keeps once it looks no worse than a custom one.
     * Made while the request log was small, that plan was a hash join over a sequential scan of the whole table, and
     * it stayed: 22 ms and 1,094 buffers to mark 2 requests once the log held 8,655 rows (auto_explain at 200 POST
     * /leads per second), growing with the log; docs/BENCHMARKS.md "The lead render's planning, and the outcome
     * UPDATE's kept plan". Planning this statement costs ~0.1 ms.
     */
    static void finish(Connection connection, List<WriteWorker.Outcome> outcomes, String sentFirst) throws SQLException {
        if (outcomes.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = connection.prepareStatement(sentFirst + """
                ;
                UPDATE write_requests w SET status = o.status, error_message = o.error, result = o.result::jsonb,
                       processed_at = clock_timestamp()
                FROM unnest(?::bigint[], ?::text[], ?::text[], ?::text[]) AS o(seq, status, error, result)
                WHERE w.seq = o.seq""")) {
            ps.unwrap(PGStatement.class).setPrepareThreshold(0);
            ps.setArray(1, connection.createArrayOf("bigint", outcomes.stream().map(WriteWorker.Outcome::seq).toArray()));
            ps.setArray(2, connection.createArrayOf("text", outcomes.stream().map(WriteWorker.Outcome::status).toArray()));
            ps.setArray(3, connection.createArrayOf("text", outcomes.stream().map(WriteWorker.Outcome::error).toArray()));
            ps.setArray(4, connection.createArrayOf("text", outcomes.stream().map(WriteWorker.Outcome::result).toArray()));
            ps.execute();
        }
    }

    @PreDestroy
    void stop() {
        running = false;
        committers.forEach(Thread::interrupt);
        Pending p;
        while ((p = queue.poll()) != null) {
            p.committed().completeExceptionally(new IllegalStateException("the server is stopping"));
        }
    }

    /**
     * The ordering key of a write: a 32-bit hash of its account and lead key (case-insensitive), never one of the
     * {@link #LEGACY_LANES}. Two leads may share a key (then their writes are ordered together, nothing more).
     */
    public static int orderingKey(String accountId, String laneKey) {
        int hash = (accountId + '\u0000' + laneKey.toLowerCase(Locale.ROOT)).hashCode();
        return hash >= 0 && hash < LEGACY_LANES ? hash + LEGACY_LANES : hash;
    }
}
