package dev.attribution.testing;

import org.testcontainers.DockerClientFactory;
import org.testcontainers.clickhouse.ClickHouseContainer;
import org.testcontainers.postgresql.PostgreSQLContainer;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The real PostgreSQL and ClickHouse every integration test runs against, started once per test JVM.
 *
 * <p>Where they come from, first match wins: {@code POSTGRES_URL} / {@code CLICKHOUSE_URL} (servers you run);
 * Testcontainers when a Docker engine answers; otherwise local processes started by {@code scripts/lib/servers.sh}
 * on free ports with temporary data directories, stopped when the JVM exits. Each JVM gets its own PostgreSQL
 * database, ClickHouse database and replication slot, so test JVMs never see each other's rows.
 */
public final class TestStack {

    private static TestStack instance;

    private final String postgresServerUrl;
    private final String clickhouseUrl;
    private final String name;
    private final String pgUser;
    private final String pgPassword;

    private TestStack(String postgresServerUrl, String pgUser, String pgPassword, String clickhouseUrl) {
        this.postgresServerUrl = postgresServerUrl;
        this.pgUser = pgUser;
        this.pgPassword = pgPassword;
        this.clickhouseUrl = clickhouseUrl;
        this.name = "t" + Long.toHexString(System.currentTimeMillis()) + Integer.toHexString(ThreadLocalRandom.current().nextInt(1 << 16));
        createDatabase();
    }

    public static synchronized TestStack get() {
        if (instance == null) {
            instance = start();
        }
        return instance;
    }

    /** JDBC URL of this JVM's own database. */
    public String jdbcUrl() {
        int slash = postgresServerUrl.indexOf('/', "jdbc:postgresql://".length());
        int query = postgresServerUrl.indexOf('?', slash);
        return postgresServerUrl.substring(0, slash + 1) + name + (query < 0 ? "" : postgresServerUrl.substring(query));
    }

    public String clickhouseUrl() {
        return clickhouseUrl;
    }

    public String clickhouseDatabase() {
        return name;
    }

    /** Micronaut properties pointing an application context at this stack. */
    public Map<String, String> properties() {
        Map<String, String> p = new HashMap<>();
        p.put("datasources.default.url", jdbcUrl());
        p.put("datasources.default.username", pgUser);
        p.put("datasources.default.password", pgPassword);
        p.put("clickhouse.url", clickhouseUrl);
        p.put("clickhouse.database", name);
        p.put("attribution.cdc.slot-name", name);
        p.put("attribution.cdc.publication-name", name);
        p.put("micronaut.server.port", "-1"); // a free port: several test JVMs and dev servers share the machine
        return p;
    }

    public Connection connect() throws java.sql.SQLException {
        return DriverManager.getConnection(jdbcUrl(), pgUser, pgPassword);
    }

    private void createDatabase() {
        try (Connection c = DriverManager.getConnection(postgresServerUrl, pgUser, pgPassword); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + name);
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException("cannot create test database on " + postgresServerUrl, e);
        }
    }

    private static TestStack start() {
        String pg = System.getenv("POSTGRES_URL");
        String ch = System.getenv("CLICKHOUSE_URL");
        if (pg != null && ch != null) {
            return new TestStack(pg, env("POSTGRES_USER", "postgres"), env("POSTGRES_PASSWORD", ""), ch);
        }
        if (dockerAvailable()) {
            PostgreSQLContainer postgres = new PostgreSQLContainer("postgres:15").withCommand("postgres", "-c", "wal_level=logical");
            ClickHouseContainer clickhouse = new ClickHouseContainer("clickhouse/clickhouse-server:24.8");
            postgres.start();
            clickhouse.start();
            return new TestStack(postgres.getJdbcUrl(), postgres.getUsername(), postgres.getPassword(),
                    "http://" + clickhouse.getHost() + ":" + clickhouse.getMappedPort(8123));
        }
        return startLocal();
    }

    private static TestStack startLocal() {
        try {
            Path dir = Files.createTempDirectory("attribution-test-");
            Path script = repoRoot().resolve("scripts/lib/servers.sh");
            int pgPort = freePort();
            int chHttp = freePort();
            int chTcp = freePort();
            run(script.toString(), "pg-start", dir.resolve("pg").toString(), Integer.toString(pgPort));
            run(script.toString(), "ch-start", dir.resolve("ch").toString(), Integer.toString(chHttp), Integer.toString(chTcp));
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    // throwaway data: immediate stop and kill, so the exiting JVM's own replication client
                    // cannot hold a fast shutdown past surefire's 30 s exit limit (which then leaked the servers)
                    run(script.toString(), "discard", dir.toString());
                } catch (Exception ignored) {
                    // the JVM is going away; the temp directory is cleaned by the OS
                }
            }));
            return new TestStack("jdbc:postgresql://127.0.0.1:" + pgPort + "/postgres", "postgres", "", "http://127.0.0.1:" + chHttp);
        } catch (IOException e) {
            throw new IllegalStateException("cannot start local PostgreSQL and ClickHouse", e);
        }
    }

    /** Runs a ClickHouse statement over plain HTTP (test assertions that must not go through the code under test). */
    public String clickhouse(String sql) {
        try {
            HttpURLConnection c = (HttpURLConnection) URI.create(clickhouseUrl + "/").toURL().openConnection();
            c.setRequestMethod("POST");
            c.setDoOutput(true);
            c.getOutputStream().write(sql.getBytes(StandardCharsets.UTF_8));
            byte[] body = (c.getResponseCode() < 400 ? c.getInputStream() : c.getErrorStream()).readAllBytes();
            String text = new String(body, StandardCharsets.UTF_8);
            if (c.getResponseCode() >= 400) {
                throw new IllegalStateException("ClickHouse: " + text);
            }
            return text;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static Path repoRoot() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.exists(p.resolve("scripts/lib/servers.sh"))) {
            p = p.getParent();
        }
        if (p == null) {
            throw new IllegalStateException("scripts/lib/servers.sh not found above " + Path.of("").toAbsolutePath());
        }
        return p;
    }

    /** Runs {@code scripts/lib/servers.sh} with {@code args} (e.g. a private server a test stops and starts). */
    public static void servers(String... args) throws IOException {
        String[] command = new String[args.length + 1];
        command[0] = repoRoot().resolve("scripts/lib/servers.sh").toString();
        System.arraycopy(args, 0, command, 1, args.length);
        run(command);
    }

    private static void run(String... command) throws IOException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (process.waitFor() != 0) {
                throw new IOException(String.join(" ", command) + " failed:\n" + out);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    public static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (Throwable t) {
            return false;
        }
    }

    private static String env(String name, String fallback) {
        String v = System.getenv(name);
        return v == null ? fallback : v;
    }
}
