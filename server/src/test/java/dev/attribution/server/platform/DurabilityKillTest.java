package dev.attribution.server.platform;

import dev.attribution.api.JsonBody;
import dev.attribution.api.auth.ApiKeys;
import dev.attribution.api.auth.Roles;
import dev.attribution.testing.TestStack;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.File;
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
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Spec 1, 3.1 (issue 3 item 7): a real server process is killed with SIGKILL while accepted writes wait to be
 * applied — with the worker caught in the middle of a batch transaction — and a new process over the same
 * database applies every accepted request exactly once, in order per lead.
 *
 * <p>The worker is held mid-batch by a test transaction that locks the {@code leads} table: accepts keep
 * committing to the request log while the batch that is applying them cannot commit.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DurabilityKillTest {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    String jdbcUrl;
    String key;
    final List<Process> processes = new ArrayList<>();

    @BeforeAll
    void ownDatabase() throws Exception {
        String base = TestStack.get().jdbcUrl();
        String name = base.substring(base.lastIndexOf('/') + 1).replaceAll("\\?.*", "") + "_kill";
        try (Connection c = TestStack.get().connect(); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + name);
        }
        jdbcUrl = base.replaceFirst("/[^/?]+(\\?|$)", "/" + name + "$1");
    }

    @AfterAll
    void killLeftovers() {
        processes.forEach(Process::destroyForcibly);
    }

    @Test
    void everyAcceptedWriteSurvivesAKillAndIsAppliedExactlyOnce() throws Exception {
        Server first = start("a");
        key = createAccount();

        // warm-up: the worker applies writes normally
        List<String> warm = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            warm.add(accept(first, "{\"email\":\"warm" + i + "@example.com\"}"));
        }
        awaitTerminal(warm);

        List<String> accepted = Collections.synchronizedList(new ArrayList<>());
        List<String> lastName = Collections.synchronizedList(new ArrayList<>());
        try (Connection lock = db()) {
            lock.setAutoCommit(false);
            try (Statement s = lock.createStatement()) {
                s.execute("LOCK TABLE leads IN EXCLUSIVE MODE");
            }
            // accepted while the worker is stuck inside its batch transaction
            for (int i = 0; i < 60; i++) {
                accepted.add(accept(first, "{\"email\":\"kill" + (i % 20) + "@example.com\",\"firstName\":\"v" + i + "\"}"));
                lastName.add("v" + i);
            }
            // and more arriving from several clients as the process dies
            AtomicBoolean stop = new AtomicBoolean();
            List<Thread> clients = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int client = t;
                Thread thread = new Thread(() -> {
                    for (int i = 0; !stop.get(); i++) {
                        try {
                            accepted.add(accept(first, "{\"email\":\"late" + client + "-" + i + "@example.com\"}"));
                        } catch (Exception | AssertionError dead) {
                            return;
                        }
                    }
                });
                clients.add(thread);
                thread.start();
            }
            Thread.sleep(300);
            first.process.destroyForcibly().waitFor();
            stop.set(true);
            for (Thread thread : clients) {
                thread.join(10_000);
            }
            assertEquals(0, count("SELECT count(*) FROM write_requests WHERE status <> 'PENDING' AND id = ANY(?)", accepted),
                    "nothing accepted under the lock was applied before the kill");
            lock.rollback();
        }
        assertTrue(accepted.size() > 60, "writes were accepted while the process died: " + accepted.size());

        Server second = start("b");
        awaitTerminal(accepted);
        assertEquals(accepted.size(), count("SELECT count(*) FROM write_requests WHERE status = 'PROCESSED' AND id = ANY(?)", accepted),
                "every accepted request PROCESSED");
        assertEquals(accepted.size(), count("SELECT count(DISTINCT id) FROM write_requests WHERE id = ANY(?)", accepted));
        assertEquals(0, count("SELECT count(*) FROM write_requests WHERE status = 'PENDING' AND ? IS NOT NULL", List.of("x")),
                "nothing else left pending either (writes committed but never answered are applied too)");
        for (int i = 0; i < 20; i++) {
            assertEquals(1, count("SELECT count(*) FROM leads WHERE email = ANY(?)", List.of("kill" + i + "@example.com")),
                    "one lead per email");
            String expected = "v" + (40 + i);
            assertEquals(1, count("SELECT count(*) FROM leads WHERE email = ANY(?) AND first_name = '" + expected + "'",
                    List.of("kill" + i + "@example.com")), "the last write of a lead wins: applied in order");
        }
        String status = get(second, "/api/v1.0/requests/" + accepted.get(0));
        assertTrue(status.contains("\"status\":\"PROCESSED\""), status);
    }

    record Server(Process process, String url) {
    }

    private Server start(String name) throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Map<String, String> props = new HashMap<>(TestStack.get().properties());
        props.put("datasources.default.url", jdbcUrl);
        props.put("micronaut.server.port", Integer.toString(port));
        props.put("attribution.roles.cdc", "false");
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m", "-XX:TieredStopAtLevel=1"));
        props.forEach((k, v) -> command.add("-D" + k + "=" + v));
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), "dev.attribution.server.Application"));
        Path log = Path.of("target", "durability-" + name + ".log");
        Files.createDirectories(log.getParent());
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        processes.add(p);
        Server server = new Server(p, "http://127.0.0.1:" + port);
        Instant deadline = Instant.now().plusSeconds(60);
        while (Instant.now().isBefore(deadline)) {
            if (!p.isAlive()) {
                throw new AssertionError("server " + name + " exited: " + Files.readString(log));
            }
            try {
                HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(server.url + "/api/v1.0/leads")).GET().build(),
                        HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 401) {
                    return server;
                }
            } catch (IOException notYet) {
                // still starting
            }
            Thread.sleep(200);
        }
        throw new AssertionError("server " + name + " did not start: " + Files.readString(log));
    }

    private String accept(Server server, String json) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(server.url + "/api/v1.0/leads"))
                .timeout(Duration.ofSeconds(10))
                .header("API-Key", key).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new AssertionError(r.statusCode() + " " + r.body());
        }
        return JsonBody.mapper().readTree(r.body()).get("request_id").asText();
    }

    private String get(Server server, String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(server.url + path)).header("API-Key", key).GET().build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    private String createAccount() throws Exception {
        String key = ApiKeys.newKey();
        try (Connection c = db()) {
            try (PreparedStatement ps = c.prepareStatement(
                    "INSERT INTO accounts (id, name, time_zone, rate_per_second, rate_per_minute) VALUES ('acc_kill', 'Kill', 'UTC', 100000, 1000000)")) {
                ps.executeUpdate();
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO api_keys (account_id, key_hash, roles) VALUES ('acc_kill', ?, ?)")) {
                ps.setString(1, ApiKeys.hash(key));
                ps.setArray(2, c.createArrayOf("text", Roles.ALL.toArray()));
                ps.executeUpdate();
            }
        }
        return key;
    }

    private void awaitTerminal(List<String> ids) throws Exception {
        Instant deadline = Instant.now().plusSeconds(60);
        while (count("SELECT count(*) FROM write_requests WHERE status = 'PENDING' AND id = ANY(?)", ids) > 0) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("requests still pending after 60 s");
            }
            Thread.sleep(100);
        }
    }

    private int count(String sql, List<String> ids) throws Exception {
        try (Connection c = db(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setArray(1, c.createArrayOf("text", ids.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    private Connection db() throws Exception {
        Map<String, String> p = TestStack.get().properties();
        return DriverManager.getConnection(jdbcUrl, p.get("datasources.default.username"), p.get("datasources.default.password"));
    }
}
