package dev.attribution.api;

import com.zaxxer.hikari.HikariDataSource;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Rarely changing rows read on every request, kept in memory so that the request costs no database round trip:
 * a key's grant and rate overrides, agency links and client accounts ({@code ApiKeyFilter}), an account's contact
 * blacklist ({@code Blacklist}).
 *
 * <p>Invalidation, so that a revoked key, a blocked account, a removed role or a new blacklist entry takes effect on
 * every node promptly: statement triggers on {@code accounts}, {@code api_keys}, {@code agency_links} and
 * {@code contact_blacklist} (migration V11) send {@code NOTIFY attribution_cache_changed}; every node LISTENs on a
 * connection of its own and drops its whole cache when one arrives (these tables change through admin operations and
 * lead erasures only, never on the accept path). Changes made through {@code AccountDirectory} in this JVM drop it at
 * once. Every entry carries the generation it was read in, and a read that raced with an invalidation is not kept.
 * While the listening connection is down (not yet opened, or lost) nothing is served from memory: every request
 * reads the database, as without the cache, and the cache starts empty again once LISTEN is back. Entries also
 * expire after {@code attribution.cache.max-age-ms} (default 60 s) as a backstop.
 * {@code attribution.cache.enabled=false} turns it off.
 */
@Singleton
public class NotifiedCache {

    public static final String CHANNEL = "attribution_cache_changed";
    private static final Logger LOG = LoggerFactory.getLogger(NotifiedCache.class);
    private static final int MAX_ENTRIES = 100_000;

    /** JVM-wide: a change made through any AccountDirectory of this process invalidates every cache in it. */
    private static final AtomicLong GENERATION = new AtomicLong();

    private record Entry(Object value, long generation, long loadedAtMillis) {
    }

    private final DataSource dataSource;
    private final boolean enabled;
    private final long maxAgeMillis;
    private final Map<String, Entry> entries = new ConcurrentHashMap<>();
    private final AtomicLong hits = new AtomicLong();
    private volatile boolean listening;
    private volatile boolean running = true;
    private Thread listener;

    public NotifiedCache(DataSource dataSource, CacheSettings settings) {
        this.dataSource = DelegatingDataSource.unwrapDataSource(dataSource);
        this.enabled = settings.isEnabled();
        this.maxAgeMillis = settings.getMaxAgeMs();
    }

    /** Drops every cached entry of every cache in this JVM (called by the writes of {@link AccountDirectory}). */
    public static void invalidateAll() {
        GENERATION.incrementAndGet();
    }

    /**
     * The cached value of {@code key}, or what {@code load} reads (kept unless {@code cacheable} says no). A miss
     * inside {@link DatabaseReads#without} ends that attempt before reading.
     */
    @SuppressWarnings("unchecked")
    public <T> T get(String key, Supplier<T> load, java.util.function.Predicate<T> cacheable) {
        if (!enabled) {
            DatabaseReads.beforeRead();
            return load.get();
        }
        startListening();
        long generation = GENERATION.get();
        Entry e = entries.get(key);
        if (e != null && listening && e.generation() == generation
                && System.currentTimeMillis() - e.loadedAtMillis() < maxAgeMillis) {
            hits.incrementAndGet();
            return (T) e.value();
        }
        DatabaseReads.beforeRead();
        T value = load.get();
        // kept only if no invalidation happened since before the read, and only while notifications are received
        if (listening && GENERATION.get() == generation && cacheable.test(value)) {
            if (entries.size() >= MAX_ENTRIES) {
                entries.clear();
            }
            entries.put(key, new Entry(value, generation, System.currentTimeMillis()));
        }
        return value;
    }

    /** How many lookups were answered from memory (tests check that the cache is in use). */
    public long hits() {
        return hits.get();
    }

    /** True once this node receives change notifications, i.e. serves from the cache. */
    public boolean listening() {
        return listening;
    }

    private synchronized void startListening() {
        if (listener != null || !running) {
            return;
        }
        listener = new Thread(this::listen, "cache-change-listener");
        listener.setDaemon(true);
        listener.start();
    }

    private void listen() {
        boolean warned = false; // one warning per outage, not one per retry every 500 ms
        while (running) {
            try (Connection c = listeningConnection()) {
                c.setAutoCommit(true);
                try (Statement s = c.createStatement()) {
                    s.execute("LISTEN " + CHANNEL);
                }
                PGConnection pg = c.unwrap(PGConnection.class);
                invalidateAll(); // whatever changed before LISTEN took effect was not heard
                entries.clear();
                listening = true;
                if (warned) {
                    LOG.info("cache: change notifications back; caching again");
                    warned = false;
                }
                while (running) {
                    PGNotification[] notifications = pg.getNotifications(1000);
                    if (notifications != null && notifications.length > 0) {
                        invalidateAll();
                        entries.clear();
                    }
                }
            } catch (SQLException | RuntimeException e) {
                listening = false;
                invalidateAll();
                if (running) {
                    if (!warned) {
                        LOG.warn("cache: change notifications lost ({}); reading every request from the database until back",
                                e.getMessage());
                        warned = true;
                    }
                    sleep(500);
                }
            } finally {
                listening = false;
            }
        }
    }

    /**
     * A connection of its own, outside the pool: a pooled connection that broke while waiting for notifications
     * would go back to the pool unnoticed (the failure does not pass through the pool's proxy), and LISTEN would stay
     * on a connection that requests borrow.
     */
    private Connection listeningConnection() throws SQLException {
        if (dataSource.isWrapperFor(HikariDataSource.class)) {
            HikariDataSource hikari = dataSource.unwrap(HikariDataSource.class);
            Properties properties = new Properties();
            properties.putAll(hikari.getDataSourceProperties());
            if (hikari.getUsername() != null) {
                properties.setProperty("user", hikari.getUsername());
            }
            if (hikari.getPassword() != null) {
                properties.setProperty("password", hikari.getPassword());
            }
            return DriverManager.getConnection(hikari.getJdbcUrl(), properties);
        }
        return dataSource.getConnection();
    }

    @PreDestroy
    synchronized void stop() {
        running = false;
        listening = false;
        if (listener != null) {
            listener.interrupt();
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
