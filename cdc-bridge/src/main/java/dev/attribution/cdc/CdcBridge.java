package dev.attribution.cdc;

import dev.attribution.clickhouse.ClickHouseSettings;

import dev.attribution.api.RoleSettings;

import dev.attribution.clickhouse.ClickHouseMigrator;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.ChangeEvent;
import io.debezium.embedded.Connect;
import io.micronaut.context.annotation.Requires;
import io.micronaut.context.event.ApplicationEventListener;
import io.micronaut.context.event.StartupEvent;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Streams the domain tables from PostgreSQL into ClickHouse: Debezium's embedded engine reads the logical
 * replication slot (pgoutput), each batch is written to the {@link ChangeSink}, and only then are the offsets
 * committed (kept in PostgreSQL by Debezium's JDBC offset store). A crash replays from the last committed offset;
 * the sink's versioned rows make the replay harmless.
 *
 * <p>One node of a deployment streams: the engine runs only while this node holds the {@link CdcRole} (a session
 * advisory lock keyed by the slot). The other nodes with the role switched on stand by ({@link CdcStatus.State#STANDBY})
 * and take over when the holder's PostgreSQL session ends (docs/scaling.md "The CDC role").
 */
@Singleton
@Requires(property = RoleSettings.CDC, notEquals = "false")
@Requires(property = ClickHouseSettings.URL)
public class CdcBridge implements ApplicationEventListener<StartupEvent> {

    private static final Logger LOG = LoggerFactory.getLogger(CdcBridge.class);
    /** PostgreSQL table the heartbeat writes (Flyway V20); in the publication, never in ClickHouse. */
    public static final String HEARTBEAT_TABLE = "cdc_heartbeat";

    private final CdcSettings settings;
    private final ChangeSink sink;
    private final CdcStatus status;
    private final String jdbcUrl;
    private final String username;
    private final String password;
    private final CdcRole role;
    /** Takes the role, starts the engine when it has it, stops it if the role is lost; null when stopped. */
    private Thread roleKeeper;
    private ExecutorService executor;
    /** Runs the inserts, one at a time, while the engine thread prepares the next batch. */
    private ExecutorService writer;
    /** Touched by the engine thread only (the handler); the engine runs one handler call at a time. */
    private volatile InFlight inFlight;
    private volatile boolean stopping;
    private DebeziumEngine<ChangeEvent<SourceRecord, SourceRecord>> engine;

    /**
     * @param migrated only orders startup (the ClickHouse tables exist before the first write); may be null when a
     *                 caller builds a bridge by hand
     */
    @Inject
    public CdcBridge(CdcSettings settings, ChangeSink sink, CdcStatus status, ClickHouseMigrator migrated, CdcSourceSettings source) {
        this(settings, sink, status, migrated, source.getUrl(), source.getUsername(), source.getPassword());
    }

    /** A bridge built by hand (tests, benchmarks) on the PostgreSQL at {@code jdbcUrl}. */
    public CdcBridge(CdcSettings settings, ChangeSink sink, CdcStatus status, ClickHouseMigrator migrated, String jdbcUrl,
                     String username, String password) {
        this.settings = settings;
        this.sink = sink;
        this.status = status;
        this.jdbcUrl = jdbcUrl;
        this.username = username;
        this.password = password;
        this.role = new CdcRole(jdbcUrl, username, password, settings, status);
    }

    @Override
    public void onApplicationEvent(StartupEvent event) {
        start();
    }

    /**
     * Starts streaming as soon as this node holds the CDC role: at once when no other node has it, else when the
     * holder's session ends (this node is a standby meanwhile). Returns without waiting for either.
     */
    public synchronized void start() {
        if (roleKeeper != null) {
            return;
        }
        stopping = false;
        status.slot(settings.getSlotName());
        status.state(CdcStatus.State.STARTING, null);
        roleKeeper = new Thread(() -> role.keep(roleEngine), "cdc-role");
        roleKeeper.setDaemon(true);
        roleKeeper.start();
    }

    /** What the role keeper ({@link CdcRole#keep}) starts and stops. */
    private final CdcRole.Engine roleEngine = new CdcRole.Engine() {
        @Override
        public boolean running() {
            synchronized (CdcBridge.this) {
                return engine != null;
            }
        }

        @Override
        public boolean stopping() {
            return stopping;
        }

        @Override
        public void start() {
            synchronized (CdcBridge.this) {
                if (!stopping) {
                    startEngine();
                }
            }
        }

        @Override
        public void stopLost() {
            synchronized (CdcBridge.this) {
                closeEngine();
            }
        }
    };

    private synchronized void startEngine() {
        status.state(CdcStatus.State.STARTING, null);
        DebeziumEngine<ChangeEvent<SourceRecord, SourceRecord>> created = DebeziumEngine.create(Connect.class)
                .using(properties())
                .notifying(this::handleBatch)
                .using((success, message, error) -> {
                    if (!success) {
                        LOG.error("CDC engine stopped: {}", message, error);
                        status.state(CdcStatus.State.FAILED, message);
                        scheduleRestart();
                    }
                })
                .build();
        engine = created;
        inFlight = null;
        writer = Executors.newSingleThreadExecutor(r -> new Thread(r, "cdc-bridge-writer"));
        executor = Executors.newSingleThreadExecutor(r -> new Thread(r, "cdc-bridge"));
        executor.execute(created);
    }

    /**
     * After a failure (ClickHouse down, a refused insert) the engine has stopped without committing the failed
     * batch: start a new one after {@link CdcSettings#getRestartBackoffMs()}; it replays from the committed offset.
     */
    private void scheduleRestart() {
        long delay = settings.getRestartBackoffMs();
        if (delay <= 0 || stopping) {
            return;
        }
        Thread restart = new Thread(() -> {
            try {
                Thread.sleep(delay);
            } catch (InterruptedException e) {
                return;
            }
            synchronized (this) {
                if (stopping || status.state() != CdcStatus.State.FAILED) {
                    return;
                }
                LOG.info("restarting the CDC engine after a failure");
                closeEngine();
                if (role.held()) {
                    startEngine();
                }
            }
        }, "cdc-bridge-restart");
        restart.setDaemon(true);
        restart.start();
    }

    @PreDestroy
    public void stop() {
        Thread keeper;
        synchronized (this) {
            stopping = true;
            keeper = roleKeeper;
            roleKeeper = null;
        }
        if (keeper != null) {
            keeper.interrupt();
            try {
                keeper.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        synchronized (this) {
            if (engine != null) {
                awaitLastBatchCommitted();
                closeEngine();
            }
            role.close(); // after the engine: a standby must not start while this one still reads the slot
            status.state(CdcStatus.State.STOPPED, null);
        }
    }

    /**
     * A graceful stop: the handler, seeing {@code stopping}, commits each batch as soon as its insert returned, so
     * the batch in flight is committed by the next handler call (a heartbeat brings one within the heartbeat
     * interval). Waits for that, up to two intervals; past that, the batch stays uncommitted and is replayed after a
     * start (exact either way: replayed rows carry their versions), only no longer twice in the raw tables.
     */
    private void awaitLastBatchCommitted() {
        long deadline = System.currentTimeMillis() + 2L * settings.getHeartbeatIntervalMs() + 1000;
        while (inFlight != null && System.currentTimeMillis() < deadline && status.state() != CdcStatus.State.FAILED) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private void closeEngine() {
        try {
            engine.close();
        } catch (Exception e) {
            LOG.debug("CDC engine close", e);
        }
        try {
            executor.shutdown();
            executor.awaitTermination(30, TimeUnit.SECONDS);
            // an insert still running finishes; its batch's offsets stay uncommitted and it is replayed after a start
            writer.shutdown();
            writer.awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            engine = null;
        }
    }

    /**
     * Pipelined: the batch is converted and serialised here while the previous batch's insert is still running on the
     * writer thread; then that insert is awaited, the previous batch's offsets are committed (its rows are in
     * ClickHouse), and this batch's insert starts. A batch's offsets are thus committed only after its own insert
     * succeeded, at the next batch (heartbeats bring one at least every heartbeat interval). A failed insert fails the
     * next call: the engine stops with neither batch committed and replays both after a restart.
     */
    private void handleBatch(List<ChangeEvent<SourceRecord, SourceRecord>> records,
                             DebeziumEngine.RecordCommitter<ChangeEvent<SourceRecord, SourceRecord>> committer) throws InterruptedException {
        List<Change> changes = new ArrayList<>(records.size());
        long newestSource = 0;
        long newestLsn = 0;
        for (ChangeEvent<SourceRecord, SourceRecord> event : records) {
            SourceRecord record = event.value();
            newestLsn = Math.max(newestLsn, offsetLsn(record));
            Change change = toChange(record);
            if (change != null && !HEARTBEAT_TABLE.equals(change.table())) {
                changes.add(change);
                newestSource = Math.max(newestSource, change.sourceMillis());
            }
        }
        // one insert per ClickHouse table for the whole batch, serialised now, sent by the writer thread
        Runnable write = changes.isEmpty() ? () -> { } : sink.prepare(changes);
        commitInserted();
        int count = changes.size();
        long source = newestSource;
        long lsn = newestLsn;
        ExecutorService writer = this.writer;
        try {
            inFlight = new InFlight(List.copyOf(records), committer, CompletableFuture.runAsync(() -> {
                write.run();
                status.state(CdcStatus.State.STREAMING, null);
                status.applied(count, source, lsn);
            }, writer));
        } catch (RejectedExecutionException closed) {
            // the engine outlived its close (a slow machine): this batch stays uncommitted and is replayed after a start
            LOG.debug("CDC batch after the writer was closed; left for replay");
            return;
        }
        if (!settings.isPipelined() || stopping) {
            commitInserted();
        }
    }

    /** Waits for the insert in flight and commits the offsets of the batch it wrote; rethrows its failure. */
    private void commitInserted() throws InterruptedException {
        InFlight previous = inFlight;
        if (previous == null) {
            return;
        }
        inFlight = null;
        try {
            previous.insert().get();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw cause instanceof RuntimeException r ? r : new IllegalStateException(cause.getMessage(), cause);
        }
        for (ChangeEvent<SourceRecord, SourceRecord> event : previous.records()) {
            previous.committer().markProcessed(event);
        }
        previous.committer().markBatchFinished();
    }

    /** A batch whose insert was started and whose offsets are not committed yet. */
    private record InFlight(List<ChangeEvent<SourceRecord, SourceRecord>> records,
                            DebeziumEngine.RecordCommitter<ChangeEvent<SourceRecord, SourceRecord>> committer,
                            CompletableFuture<Void> insert) {
    }

    /** The WAL position a record (change or heartbeat) brings the stream to, 0 when it names none. */
    static long offsetLsn(SourceRecord record) {
        Object lsn = record.sourceOffset() == null ? null : record.sourceOffset().get("lsn");
        return lsn instanceof Number n ? n.longValue() : 0;
    }

    /** A row change, or null for heartbeats and other non-row records; versions as {@link Change#of} decides. */
    static Change toChange(SourceRecord record) {
        if (!(record.value() instanceof Struct value) || value.schema().field("op") == null) {
            return null;
        }
        Struct source = value.getStruct("source");
        return Change.of(source.getString("table"), value.getString("op"), image(value.getStruct("before")),
                image(value.getStruct("after")), source.getInt64("lsn"), source.getInt64("ts_ms"));
    }

    private static Map<String, Object> image(Struct image) {
        if (image == null) {
            return null;
        }
        Map<String, Object> row = new HashMap<>();
        for (Field f : image.schema().fields()) {
            row.put(f.name(), image.get(f));
        }
        return row;
    }

    /** The engine's configuration; config/debezium-server/application.properties must agree (ExternalCdcEquivalenceTest). */
    Properties properties() {
        URI uri = URI.create(jdbcUrl.substring("jdbc:".length()));
        String database = uri.getPath().substring(1);
        Properties p = new Properties();
        p.setProperty("name", "attribution-cdc");
        p.setProperty("connector.class", "io.debezium.connector.postgresql.PostgresConnector");
        p.setProperty("plugin.name", "pgoutput");
        p.setProperty("database.hostname", uri.getHost());
        p.setProperty("database.port", Integer.toString(uri.getPort() < 0 ? 5432 : uri.getPort()));
        p.setProperty("database.user", username);
        p.setProperty("database.password", password == null ? "" : password);
        p.setProperty("database.dbname", database);
        // also names the engine's JMX beans and keys its offsets: one per slot, so two bridges can share a JVM
        p.setProperty("topic.prefix", settings.getSlotName());
        p.setProperty("slot.name", settings.getSlotName());
        p.setProperty("publication.name", settings.getPublicationName());
        p.setProperty("publication.autocreate.mode", "filtered");
        List<String> tables = new ArrayList<>(settings.getTables());
        tables.add(HEARTBEAT_TABLE);
        p.setProperty("table.include.list", tables.stream().map(t -> "public." + t).collect(Collectors.joining(",")));
        p.setProperty("snapshot.mode", "initial");
        p.setProperty("decimal.handling.mode", "string");
        p.setProperty("time.precision.mode", "adaptive_time_microseconds");
        p.setProperty("tombstones.on.delete", "false");
        p.setProperty("heartbeat.interval.ms", Integer.toString(settings.getHeartbeatIntervalMs()));
        p.setProperty("heartbeat.action.query", "INSERT INTO " + HEARTBEAT_TABLE + " (id, beat_at) VALUES (1, now()) "
                + "ON CONFLICT (id) DO UPDATE SET beat_at = EXCLUDED.beat_at");
        p.setProperty("poll.interval.ms", Integer.toString(settings.getPollIntervalMs()));
        p.setProperty("max.batch.size", Integer.toString(settings.getMaxBatchSize()));
        p.setProperty("max.queue.size", Integer.toString(settings.getMaxBatchSize() * 4));
        p.setProperty("offset.storage", "io.debezium.storage.jdbc.offset.JdbcOffsetBackingStore");
        p.setProperty("offset.storage.jdbc.connection.url", jdbcUrl);
        p.setProperty("offset.storage.jdbc.connection.user", username);
        // Debezium's JDBC offset store refuses an empty password; a server that trusts the user ignores it.
        p.setProperty("offset.storage.jdbc.connection.password", password == null || password.isEmpty() ? "unused" : password);
        p.setProperty("offset.storage.jdbc.offset.table.name", settings.getOffsetTable());
        p.setProperty("offset.flush.interval.ms", "1000");
        return p;
    }
}
