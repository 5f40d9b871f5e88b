package dev.attribution.server.support;

import dev.attribution.api.auth.ApiKeys;
import dev.attribution.api.auth.Roles;
import dev.attribution.testing.TestStack;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Real server processes for crash tests: the server's main class, in a JVM of its own, over a PostgreSQL database
 * of the test's own (so a kill never touches the shared test database). Start one, SIGKILL it, start another over
 * the same data. CDC is off in these processes (no replication slot to clean up); every other role is on.
 * {@link #close} kills whatever is still running.
 */
public final class ServerProcesses implements AutoCloseable {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** One running server process and its base URL. */
    public record Server(Process process, String url) {
        /** SIGKILL (no shutdown hooks run), and wait until the process is gone. */
        public void kill() throws InterruptedException {
            process.destroyForcibly().waitFor();
        }
    }

    private final String name;
    private final String jdbcUrl;
    private final List<Process> processes = new ArrayList<>();

    /** Creates the database {@code <test database>_<name>}; logs go to {@code target/<name>-<server>.log}. */
    public ServerProcesses(String name) throws Exception {
        this.name = name;
        String base = TestStack.get().jdbcUrl();
        String database = base.substring(base.lastIndexOf('/') + 1).replaceAll("\\?.*", "") + "_" + name;
        try (Connection c = TestStack.get().connect(); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + database);
        }
        jdbcUrl = base.replaceFirst("/[^/?]+(\\?|$)", "/" + database + "$1");
    }

    private ServerProcesses(String name, String jdbcUrl) {
        this.name = name;
        this.jdbcUrl = jdbcUrl;
    }

    /** Servers over the existing database {@code jdbcUrl} (e.g. on a PostgreSQL of the test's own), not a new one. */
    public static ServerProcesses over(String name, String jdbcUrl) {
        return new ServerProcesses(name, jdbcUrl);
    }

    /** Starts a server over this database with {@code properties} added; returns once it answers HTTP (60 s at most). */
    public Server start(String server, Map<String, String> properties) throws Exception {
        return start(server, properties, Duration.ofSeconds(180)); // a bound against hangs, not a speed check: loaded CI machines
    }

    /** {@link #start(String, Map)} waiting up to {@code startTimeout} for the first answer. */
    public Server start(String server, Map<String, String> properties, Duration startTimeout) throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Map<String, String> props = new HashMap<>(TestStack.get().properties());
        props.put("datasources.default.url", jdbcUrl);
        props.put("micronaut.server.port", Integer.toString(port));
        props.put("attribution.roles.cdc", "false");
        props.putAll(properties);
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m", "-XX:TieredStopAtLevel=1"));
        props.forEach((k, v) -> command.add("-D" + k + "=" + v));
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), "dev.attribution.server.Application"));
        Path log = Path.of("target", name + "-" + server + ".log");
        Files.createDirectories(log.getParent());
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        processes.add(p);
        Server started = new Server(p, "http://127.0.0.1:" + port);
        Instant deadline = Instant.now().plus(startTimeout);
        while (Instant.now().isBefore(deadline)) {
            if (!p.isAlive()) {
                throw new AssertionError("server " + server + " exited: " + Files.readString(log));
            }
            try {
                if (send(started, null, "GET", "/api/v1.0/leads", null).statusCode() == 401) {
                    return started;
                }
            } catch (IOException notYet) {
                // still starting
            }
            Thread.sleep(200);
        }
        throw new AssertionError("server " + server + " did not start: " + Files.readString(log));
    }

    /** An HTTP request to {@code server} with {@code key} (none when null) and a JSON body (none when null). */
    public static HttpResponse<String> send(Server server, String key, String method, String path, String json)
            throws IOException, InterruptedException {
        return HTTP.send(request(server, key == null ? Map.of() : Map.of("API-Key", key), method, path, json),
                HttpResponse.BodyHandlers.ofString());
    }

    /** The request {@link #send} sends, with {@code headers}; for clients that send it their own way. */
    public static HttpRequest request(Server server, Map<String, String> headers, String method, String path, String json) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(server.url() + path)).timeout(Duration.ofSeconds(10))
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
        headers.forEach(b::header);
        if (json != null) {
            b.header("Content-Type", "application/json");
        }
        return b.build();
    }

    /** The HTTP client {@link #send} uses. */
    public static HttpClient client() {
        return HTTP;
    }

    /** An ACTIVE account {@code accountId} (UTC, generous rate limits) written straight to the database; returns its key. */
    public String createAccount(String accountId) throws Exception {
        String key = ApiKeys.newKey();
        try (Connection c = db()) {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO accounts (id, name, time_zone, rate_per_second, "
                    + "rate_per_minute) VALUES (?, ?, 'UTC', 100000, 1000000)")) {
                ps.setString(1, accountId);
                ps.setString(2, "Account " + accountId);
                ps.executeUpdate();
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO api_keys (account_id, key_hash, roles) VALUES (?, ?, ?)")) {
                ps.setString(1, accountId);
                ps.setString(2, ApiKeys.hash(key));
                ps.setArray(3, c.createArrayOf("text", Roles.ALL.toArray()));
                ps.executeUpdate();
            }
        }
        return key;
    }

    /** The first column of the first row of {@code sql}, whose one parameter is {@code values} as a text array. */
    public int count(String sql, List<String> values) throws Exception {
        return count(sql, values.toArray());
    }

    /** The first column of the first row of {@code sql}, a query without parameters. */
    public int count(String sql) throws Exception {
        return count(sql, (Object[]) null);
    }

    private int count(String sql, Object[] textArray) throws Exception {
        try (Connection c = db(); PreparedStatement ps = c.prepareStatement(sql)) {
            if (textArray != null) {
                ps.setArray(1, c.createArrayOf("text", textArray));
            }
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    /** A new connection to this database (the caller closes it). */
    public Connection db() throws Exception {
        Map<String, String> p = TestStack.get().properties();
        return DriverManager.getConnection(jdbcUrl, p.get("datasources.default.username"), p.get("datasources.default.password"));
    }

    @Override
    public void close() {
        processes.forEach(Process::destroyForcibly);
    }
}
