package dev.attribution.server.observability;

import dev.attribution.api.RoleSettings;

import dev.attribution.command.requests.WriteRequestLog;
import dev.attribution.command.webhooks.WebhookDelivery;
import dev.attribution.query.reports.ReportJobStore;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micronaut.context.event.ApplicationEventListener;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import io.micronaut.runtime.server.event.ServerStartupEvent;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

/**
 * Gauges of the work waiting in PostgreSQL (docs/operations.md "Metrics"), read by one background thread every
 * {@code attribution.metrics.gauge-refresh} (15 s) with one connection, never by a scrape: the request log's backlog
 * ({@code request_log_pending_writes}, {@code request_log_oldest_pending_age_seconds}) and the webhook deliveries
 * ({@code webhook_deliveries{state}}) where the command role runs, the report jobs ({@code report_jobs{status}}) where
 * the query role runs. Each counts the whole database, not this node's share: take {@code max} across nodes, not
 * {@code sum}. A value is NaN until the first reading and after a failed one (a gap in a graph, not a stale figure).
 * Started with the HTTP server: a one-shot admin command reads nothing.
 */
@Singleton
class BacklogGauges implements ApplicationEventListener<ServerStartupEvent> {

    private static final Logger LOG = LoggerFactory.getLogger(BacklogGauges.class);

    /** What the last refresh read; null parts were not read (role off) or could not be. */
    private record Reading(WriteRequestLog.Backlog log, WebhookDelivery.Backlog webhooks, ReportJobStore.Queue reports) {
    }

    private final DataSource dataSource;
    private final boolean command;
    private final boolean query;
    private final MeterRegistry registry;
    private final Duration refresh;
    private ScheduledExecutorService refresher;
    private volatile Reading reading = new Reading(null, null, null);

    BacklogGauges(DataSource dataSource, MeterRegistry registry,
                  RoleSettings roles,
                  MetricsSettings settings) {
        this.dataSource = DelegatingDataSource.unwrapDataSource(dataSource);
        this.registry = registry;
        this.command = roles.isCommand();
        this.query = roles.isQuery();
        this.refresh = settings.getGaugeRefresh();
    }

    @Override
    public synchronized void onApplicationEvent(ServerStartupEvent event) {
        if (refresher != null) {
            return;
        }
        if (command) {
            gauge(registry, "request.log.pending.writes", null, "writes accepted and not yet applied (all nodes)",
                    r -> r.log() == null ? Double.NaN : r.log().pending());
            gauge(registry, "request.log.oldest.pending.age", "seconds", "age of the oldest write not yet applied, 0 when none (all nodes)",
                    r -> r.log() == null ? Double.NaN : r.log().oldestAcceptedAt() == null ? 0
                            : Math.max(0, Duration.between(r.log().oldestAcceptedAt(), Instant.now()).toMillis() / 1000.0));
            String deliveries = "webhook deliveries not done (all nodes): pending = being tried, paused = held by a paused subscription, "
                    + "failed = given up, kept until the retention purge";
            gauge(registry, "webhook.deliveries", null, deliveries, "state", "pending", r -> r.webhooks() == null ? Double.NaN : r.webhooks().pending());
            gauge(registry, "webhook.deliveries", null, deliveries, "state", "paused", r -> r.webhooks() == null ? Double.NaN : r.webhooks().paused());
            gauge(registry, "webhook.deliveries", null, deliveries, "state", "failed", r -> r.webhooks() == null ? Double.NaN : r.webhooks().failed());
        }
        if (query) {
            String jobs = "report jobs waiting for a worker (pending) and being run (running), all nodes";
            gauge(registry, "report.jobs", null, jobs, "status", "pending", r -> r.reports() == null ? Double.NaN : r.reports().pending());
            gauge(registry, "report.jobs", null, jobs, "status", "running", r -> r.reports() == null ? Double.NaN : r.reports().running());
        }
        refresher = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "metrics-gauges");
            t.setDaemon(true);
            return t;
        });
        refresher.scheduleWithFixedDelay(this::refresh, 0, Math.max(100, refresh.toMillis()), TimeUnit.MILLISECONDS);
    }

    private void gauge(MeterRegistry registry, String name, String unit, String help, ToDoubleFunction<Reading> value) {
        Gauge.builder(name, this, g -> value.applyAsDouble(g.reading)).baseUnit(unit).description(help).register(registry);
    }

    private void gauge(MeterRegistry registry, String name, String unit, String help, String tag, String tagValue,
                       ToDoubleFunction<Reading> value) {
        Gauge.builder(name, this, g -> value.applyAsDouble(g.reading)).baseUnit(unit).description(help).tag(tag, tagValue)
                .register(registry);
    }

    private void refresh() {
        try (Connection c = dataSource.getConnection()) {
            if (!c.getAutoCommit()) {
                c.setAutoCommit(true);
            }
            reading = new Reading(command ? WriteRequestLog.backlog(c) : null, command ? WebhookDelivery.backlog(c) : null,
                    query ? ReportJobStore.queue(c) : null);
        } catch (Exception e) {
            reading = new Reading(null, null, null);
            LOG.warn("backlog gauges not read, NaN until the next try: {}", e.getMessage());
        }
    }

    @PreDestroy
    synchronized void stop() {
        if (refresher != null) {
            refresher.shutdownNow();
        }
    }
}
