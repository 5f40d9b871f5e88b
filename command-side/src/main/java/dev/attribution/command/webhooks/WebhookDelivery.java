package dev.attribution.command.webhooks;

import dev.attribution.api.RoleSettings;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.attribution.api.ApiDates;
import dev.attribution.api.JsonBody;
import dev.attribution.command.events.DomainEvents;
import io.micronaut.context.annotation.Requires;
import io.micronaut.context.event.ApplicationEventListener;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import io.micronaut.runtime.server.event.ServerStartupEvent;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Delivers the transactional outbox ({@code domain_events}) to webhook subscriptions (spec 6), at least once.
 *
 * <p>Two steps, both claimed with {@code FOR UPDATE SKIP LOCKED} so several nodes share the work:
 * <ol>
 * <li>fan-out: each event not yet fanned out becomes one {@code webhook_deliveries} row per ACTIVE subscription of
 * its account that selects its type, in one transaction with its {@code fanned_out} mark;</li>
 * <li>delivery: due PENDING rows are leased (their {@code next_attempt_at} pushed past the HTTP timeout, committed),
 * then POSTed outside any transaction, signed the Standard Webhooks way. Success marks the row DELIVERED; failure
 * schedules a retry with exponential backoff and jitter; a subscription whose failures have lasted the whole retry
 * period moves to AUTOMATIC_PAUSED, and a row older than the retry period is given up (FAILED) as
 * {@link #failed} says.</li>
 * </ol>
 * State lives in PostgreSQL only: a crash loses nothing, a leased row whose node died is retried when its lease ends.
 * Every attempt resolves the target once, checks the addresses and connects to exactly those ({@link WebhookSender},
 * {@link UrlGuard}: SSRF, DNS rebinding).
 */
@Singleton
@Requires(property = RoleSettings.COMMAND, notEquals = "false")
public class WebhookDelivery implements ApplicationEventListener<ServerStartupEvent> {

    private static final Logger LOG = LoggerFactory.getLogger(WebhookDelivery.class);
    private static final int BATCH = 20;

    private final DataSource dataSource;
    private final Duration retryPeriod;
    private final Duration initialBackoff;
    private final Duration maxBackoff;
    private final Duration timeout;
    private final long pollMillis;
    private final WebhookSender sender;
    private volatile boolean running;
    private Thread thread;

    WebhookDelivery(DataSource dataSource, WebhookSender sender, WebhookSettings settings) {
        this.dataSource = DelegatingDataSource.unwrapDataSource(dataSource);
        this.retryPeriod = settings.getRetryPeriod();
        this.initialBackoff = settings.getInitialBackoff();
        this.maxBackoff = settings.getMaxBackoff();
        this.timeout = settings.getTimeout();
        this.pollMillis = Math.max(10, settings.getPollInterval().toMillis());
        this.sender = sender;
    }

    /**
     * Deliveries not done yet: {@code pending} for ACTIVE subscriptions (being tried), {@code paused} held by a paused
     * subscription, and {@code failed}: given up, kept until the retention purge.
     */
    public record Backlog(long pending, long paused, long failed) {
    }

    /** The backlog of every node (Prometheus {@code webhook_deliveries{state=…}}). */
    public static Backlog backlog(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT count(*) FILTER (WHERE d.state = 'PENDING' AND s.state = 'ACTIVE'),
                       count(*) FILTER (WHERE d.state = 'PENDING' AND s.state IN ('AUTOMATIC_PAUSED', 'MANUALLY_PAUSED')),
                       count(*) FILTER (WHERE d.state = 'FAILED')
                FROM webhook_deliveries d JOIN webhook_subscriptions s ON s.id = d.subscription_id
                WHERE d.state IN ('PENDING', 'FAILED')""");
             ResultSet rs = ps.executeQuery()) {
            rs.next();
            return new Backlog(rs.getLong(1), rs.getLong(2), rs.getLong(3));
        }
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
        thread = new Thread(this::run, "webhook-delivery");
        thread.setDaemon(true);
        thread.start();
    }

    @PreDestroy
    public synchronized void stop() {
        running = false;
        if (thread != null) {
            thread.interrupt();
            try {
                thread.join(timeout.toMillis() + 5000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            thread = null;
        }
    }

    private void run() {
        while (running) {
            try {
                int work = fanOut() + deliverDue();
                if (work == 0) {
                    Thread.sleep(pollMillis);
                }
            } catch (InterruptedException e) {
                return;
            } catch (SQLException | RuntimeException e) {
                if (!running) {
                    return;
                }
                LOG.warn("webhook delivery retrying after error: {}", e.getMessage());
                try {
                    Thread.sleep(500);
                } catch (InterruptedException ie) {
                    return;
                }
            }
        }
    }

    /** Expands events not yet fanned out into delivery rows; returns how many events it took. */
    int fanOut() throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                List<Long> seqs = new ArrayList<>();
                try (PreparedStatement ps = c.prepareStatement("SELECT seq, account_id, event_type FROM domain_events "
                        + "WHERE NOT fanned_out ORDER BY seq LIMIT 200 FOR UPDATE SKIP LOCKED");
                     PreparedStatement insert = c.prepareStatement("INSERT INTO webhook_deliveries (event_seq, subscription_id) "
                             + "SELECT ?, id FROM webhook_subscriptions WHERE account_id = ? AND state = 'ACTIVE' "
                             + "AND ? = ANY (event_types) ON CONFLICT DO NOTHING")) {
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            seqs.add(rs.getLong(1));
                            insert.setLong(1, rs.getLong(1));
                            insert.setString(2, rs.getString(2));
                            insert.setString(3, rs.getString(3));
                            insert.addBatch();
                        }
                    }
                    if (seqs.isEmpty()) {
                        c.commit();
                        return 0;
                    }
                    insert.executeBatch();
                }
                DomainEvents.markFannedOut(c, seqs);
                c.commit();
                return seqs.size();
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        }
    }

    private record Attempt(long id, long subscriptionId, int attempts, String eventId, String eventType,
                           String accountId, String payload, Instant occurredAt, String targetUrl, String secret) {
    }

    /** Leases and attempts due deliveries; returns how many it attempted. */
    int deliverDue() throws SQLException {
        List<Attempt> due = new ArrayList<>();
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(true);
            try (PreparedStatement ps = c.prepareStatement("""
                    WITH claimed AS (
                        UPDATE webhook_deliveries d SET next_attempt_at = now() + ?::interval, attempts = d.attempts + 1
                        WHERE d.id IN (SELECT d2.id FROM webhook_deliveries d2
                                       JOIN webhook_subscriptions s2 ON s2.id = d2.subscription_id
                                       WHERE d2.state = 'PENDING' AND d2.next_attempt_at <= now() AND s2.state = 'ACTIVE'
                                       ORDER BY d2.next_attempt_at LIMIT ? FOR UPDATE OF d2 SKIP LOCKED)
                        RETURNING d.id, d.subscription_id, d.attempts, d.event_seq)
                    SELECT c.id, c.subscription_id, c.attempts, e.id AS event_id, e.event_type, e.account_id,
                           e.payload::text AS payload, e.occurred_at, s.target_url, s.secret_key
                    FROM claimed c JOIN domain_events e ON e.seq = c.event_seq
                    JOIN webhook_subscriptions s ON s.id = c.subscription_id""")) {
                ps.setString(1, (timeout.toMillis() * 2 + 5000) + " milliseconds");
                ps.setInt(2, BATCH);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        due.add(new Attempt(rs.getLong("id"), rs.getLong("subscription_id"), rs.getInt("attempts"),
                                rs.getString("event_id"), rs.getString("event_type"),
                                rs.getString("account_id"), rs.getString("payload"), rs.getTimestamp("occurred_at").toInstant(),
                                rs.getString("target_url"), rs.getString("secret_key")));
                    }
                }
            }
            for (Attempt a : due) {
                Optional<String> error = attempt(a);
                if (error.isEmpty()) {
                    succeeded(c, a);
                } else {
                    failed(c, a, error.get());
                }
            }
        }
        return due.size();
    }

    /** The delivery body: event type, its time, the account and the subject in the shape of its GET. */
    /**
     * Deletes the delivery records of outbox events being purged (retention, {@code LogRetention}): the caller chose
     * events none of whose deliveries was PENDING; one made PENDING since is kept, and so is its event.
     */
    public static int deleteSettled(Connection c, Long[] eventSeqs) throws SQLException {
        if (eventSeqs.length == 0) {
            return 0;
        }
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM webhook_deliveries WHERE event_seq = ANY(?) AND state <> 'PENDING'")) {
            ps.setArray(1, c.createArrayOf("bigint", eventSeqs));
            return ps.executeUpdate();
        }
    }

    static String body(String type, Instant occurredAt, String accountId, String payload) {
        ObjectNode body = JsonBody.mapper().createObjectNode();
        body.put("type", type);
        body.put("timestamp", ApiDates.formatUtc(occurredAt));
        body.put("accountId", accountId);
        try {
            body.set("data", JsonBody.mapper().readTree(payload));
        } catch (Exception e) {
            throw new IllegalStateException("unreadable event payload", e);
        }
        return body.toString();
    }

    private Optional<String> attempt(Attempt a) {
        String body;
        try {
            body = body(a.eventType(), a.occurredAt(), a.accountId(), a.payload());
        } catch (RuntimeException e) {
            return Optional.of(e.getMessage());
        }
        return sender.send(a.targetUrl(), a.secret(), a.eventId(), body);
    }

    private static void succeeded(Connection c, Attempt a) throws SQLException {
        try (PreparedStatement d = c.prepareStatement("UPDATE webhook_deliveries SET state = 'DELIVERED', delivered_at = now(), "
                + "last_error = NULL WHERE id = ?")) {
            d.setLong(1, a.id());
            d.executeUpdate();
        }
        WebhookSubscriptionsTable.delivered(c, a.subscriptionId());
    }

    /**
     * Records a failed attempt, in one statement: the subscription's run of failures starts (or goes on), and it is
     * AUTOMATIC_PAUSED once the run has lasted the retry period. The delivery is retried after a backoff, or given up
     * (FAILED) once it is older than the retry period and either that pause was reached or the subscription has
     * delivered something since the event was produced. Without that second condition an event could be given up
     * shortly before the run reached the period (its first attempt came late: a loaded machine, a slow target),
     * leaving nothing to retry and the failing subscription ACTIVE for good. After a manual move back to ACTIVE the
     * run starts again, so the events still pending get a new period before they are given up. The subscription's
     * run ({@link WebhookSubscriptionsTable#failed}) and the delivery are written in one transaction.
     */
    private void failed(Connection c, Attempt a, String error) throws SQLException {
        String period = retryPeriod.toMillis() + " milliseconds";
        String state = "gone";
        c.setAutoCommit(false);
        try {
            Optional<WebhookSubscriptionsTable.FailureRun> run = WebhookSubscriptionsTable.failed(c, a.subscriptionId(), period);
            if (run.isPresent()) {
                try (PreparedStatement ps = c.prepareStatement("""
                        UPDATE webhook_deliveries d
                        SET state = CASE WHEN d.created_at <= now() - ?::interval
                                          AND (?::timestamptz <= now() - ?::interval OR ?::timestamptz > d.created_at)
                                         THEN 'FAILED' ELSE 'PENDING' END,
                            last_error = ?, next_attempt_at = now() + ?::interval
                        WHERE d.id = ? RETURNING d.state""")) {
                    ps.setString(1, period);
                    ps.setTimestamp(2, run.get().failingSince());
                    ps.setString(3, period);
                    ps.setTimestamp(4, run.get().lastDeliveryAt());
                    ps.setString(5, error.length() > 500 ? error.substring(0, 500) : error);
                    ps.setString(6, backoff(a.attempts()).toMillis() + " milliseconds");
                    ps.setLong(7, a.id());
                    try (ResultSet rs = ps.executeQuery()) {
                        state = rs.next() ? rs.getString(1) : "gone";
                    }
                }
            }
            c.commit();
        } catch (SQLException | RuntimeException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(true);
        }
        LOG.info("webhook delivery {} of {} to subscription {} failed (attempt {}, now {}): {}", a.id(), a.eventId(),
                a.subscriptionId(), a.attempts(), state, error);
    }

    /** Exponential backoff from the initial delay, capped, with ±25 % jitter. */
    Duration backoff(int attempts) {
        double base = initialBackoff.toMillis() * Math.pow(2, Math.min(30, Math.max(0, attempts - 1)));
        double capped = Math.min(base, maxBackoff.toMillis());
        double jittered = capped * (0.75 + ThreadLocalRandom.current().nextDouble() * 0.5);
        return Duration.ofMillis((long) jittered);
    }
}
