package dev.attribution.command.requests;

import dev.attribution.command.events.DomainEvents;
import dev.attribution.command.webhooks.WebhookDelivery;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import io.micronaut.scheduling.annotation.Scheduled;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;

/**
 * Retention of the request log and the outbox (issue 29; {@link RetentionSettings}): every
 * {@code attribution.retention.interval} each node walks both tables from their oldest row in windows of
 * {@code batch-size} rows by sequence number, each window one short autocommitted transaction, and stops at the first
 * window whose rows are all younger than the cutoff. Rows are old at the start of the sequence, so a purge with
 * nothing to do reads one window. The deletes touch only rows no worker touches any more (applied or failed
 * requests; events fanned out, without a pending delivery), so a purge never waits for a write being accepted or
 * applied; several nodes may purge at once, each deleting what is still there.
 */
@Singleton
public class LogRetention {

    private static final Logger LOG = LoggerFactory.getLogger(LogRetention.class);

    /** What one purge removed. */
    public record Purged(long requests, long events, long deliveries) {
    }

    private final DataSource dataSource;
    private final RetentionSettings settings;

    public LogRetention(DataSource dataSource, RetentionSettings settings) {
        this.dataSource = DelegatingDataSource.unwrapDataSource(dataSource);
        this.settings = settings;
    }

    @Scheduled(fixedDelay = "${attribution.retention.interval:10m}", initialDelay = "${attribution.retention.interval:10m}")
    void scheduled() {
        try {
            Purged p = purge(Instant.now());
            if (p.requests() + p.events() > 0) {
                LOG.info("retention: {} requests, {} events, {} webhook deliveries purged", p.requests(), p.events(), p.deliveries());
            }
        } catch (SQLException | RuntimeException e) {
            LOG.warn("retention purge failed, next try in one interval: {}", e.getMessage());
        }
    }

    /** Purges what is older than the windows before {@code now}. */
    public Purged purge(Instant now) throws SQLException {
        Instant requestCutoff = now.minus(settings.getRequests());
        Instant eventCutoff = now.minus(settings.getEvents());
        long requests = 0;
        long events = 0;
        long deliveries = 0;
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(true);
            int limit = settings.getBatchSize();
            long after = 0;
            RetentionWindow w;
            do {
                w = WriteRequestLog.purgeWindow(c, after, limit, requestCutoff);
                requests += WriteRequestLog.delete(c, w.purgeable());
                after = w.lastSeq();
            } while (w.walkOn(limit, requestCutoff));

            after = 0;
            RetentionWindow e;
            do {
                c.setAutoCommit(false);
                try {
                    e = DomainEvents.purgeWindow(c, after, limit, eventCutoff);
                    deliveries += WebhookDelivery.deleteSettled(c, e.purgeable());
                    events += DomainEvents.delete(c, e.purgeable());
                    c.commit();
                } catch (SQLException | RuntimeException failed) {
                    c.rollback();
                    throw failed;
                } finally {
                    c.setAutoCommit(true);
                }
                after = e.lastSeq();
            } while (e.walkOn(limit, eventCutoff));
        }
        return new Purged(requests, events, deliveries);
    }
}
