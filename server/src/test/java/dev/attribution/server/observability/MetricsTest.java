package dev.attribution.server.observability;

import dev.attribution.api.JsonBody;
import dev.attribution.api.RequestIds;
import dev.attribution.api.auth.ApiKeys;
import dev.attribution.api.auth.Roles;
import dev.attribution.command.requests.WriteWorker;
import dev.attribution.server.support.ApiTest;
import io.micronaut.context.annotation.Property;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Issue 24 point 1 (docs/operations.md "Metrics"): after a scripted mix of answers — 2xx, the API key filter's 401,
 * 403 and 429, a route's 400, 404 and 413 — every one is counted in {@code http_server_requests_seconds} by route
 * template, method and status, with latency buckets; the backlog gauges follow the request log; and
 * {@code promtool check metrics} finds nothing to say about the scrape, {@code promtool check rules} accepts the
 * documented alert rules. promtool is Debian's {@code prometheus} package ({@code scripts/lib/servers.sh install}).
 */
@MicronautTest(transactional = false)
@Property(name = "attribution.metrics.gauge-refresh", value = "200ms")
class MetricsTest extends ApiTest {

    static final Path RULES = Path.of("..", "docs", "monitoring", "alert-rules.yml");
    static final Path DASHBOARD = Path.of("..", "docs", "monitoring", "grafana-dashboard.json");
    private static final String LEADS = "/api/v1.0/leads";
    private static final String REQUESTS = "http_server_requests_seconds";

    @Inject
    WriteWorker worker;

    /** What the test sent and saw, by the labels it expects: method, route, status. */
    private final Map<String, Integer> answered = new TreeMap<>();

    private Response counted(String method, String route, Response r) {
        answered.merge(method + " " + route + " " + r.status(), 1, Integer::sum);
        return r;
    }

    @Test
    void everyAnswerIsCountedByRouteMethodAndStatusWithLatencyBuckets() {
        String key = newUnthrottledAccount("UTC", Roles.ALL);
        String readOnly = newAccount("UTC", List.of(Roles.GET_TAGS));
        String accountId = RequestIds.next("acc_");
        directory.createAccount(accountId, "Throttled", null, ZoneId.of("UTC"), "USD");
        directory.setRateOverride(accountId, 1000, 3); // the 4th request of a minute is refused
        String throttled = ApiKeys.newKey();
        directory.createKey(accountId, ApiKeys.hash(throttled), Roles.ALL, false);

        Scrape before = scrape();
        for (int i = 0; i < 3; i++) {
            assertEquals(200, counted("GET", LEADS, get(key, LEADS + "?limit=1")).status());
        }
        assertEquals(200, counted("POST", LEADS, post(key, LEADS, "{\"email\":\"metrics@example.com\"}")).status());
        assertEquals(400, counted("POST", LEADS, post(key, LEADS, "{\"email\":")).status());
        assertEquals(401, counted("GET", LEADS, get(null, LEADS)).status());
        assertEquals(401, counted("GET", LEADS, get("ak_not-a-key", LEADS)).status());
        assertEquals(403, counted("GET", LEADS, get(readOnly, LEADS)).status());
        assertEquals(404, counted("GET", RequestObservation.UNMATCHED, get(key, "/api/v1.0/no-such-route")).status());
        assertEquals(413, counted("POST", LEADS, post(key, LEADS, "{\"email\":\"" + "x".repeat(11 * 1024 * 1024) + "\"}")).status());
        for (int i = 0; i < 6; i++) {
            counted("GET", LEADS, get(throttled, LEADS + "?limit=1"));
        }
        // answered by Netty before any filter: a request line over 32 KiB, an HTTP version the server does not speak
        String tooLong = raw("GET " + LEADS + "?x=" + "y".repeat(40_000) + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        assertTrue(tooLong.matches("(?s)HTTP/1\\.[01] 413 .*"), tooLong); // Netty answers an undecodable head in 1.0
        answered.merge("GET " + RequestObservation.UNMATCHED + " 413", 1, Integer::sum);
        String version = raw("GET " + LEADS + " HTTP/9.9\r\nHost: x\r\n\r\n");
        assertTrue(version.startsWith("HTTP/1.1 400 "), version);
        answered.merge("GET " + RequestObservation.UNMATCHED + " 400", 1, Integer::sum);
        Scrape after = scrape();

        Set<String> statuses = answered.keySet().stream().map(k -> k.substring(k.lastIndexOf(' ') + 1)).collect(Collectors.toCollection(TreeSet::new));
        assertEquals(new TreeSet<>(List.of("200", "400", "401", "403", "404", "413", "429")), statuses, "the mix: " + answered);
        answered.forEach((series, n) -> {
            String[] p = series.split(" ");
            Map<String, String> labels = Map.of("method", p[0], "route", p[1], "status", p[2]);
            assertEquals((double) n, after.value(REQUESTS + "_count", labels) - before.value(REQUESTS + "_count", labels), series + "\n" + after.text());
            Map<String, String> inf = new TreeMap<>(labels);
            inf.put("le", "+Inf");
            assertEquals((double) n, after.value(REQUESTS + "_bucket", inf) - before.value(REQUESTS + "_bucket", inf), series + " +Inf bucket");
            assertTrue(after.present(REQUESTS + "_sum", labels) > 0, series + " total time");
        });
        // buckets from 1 ms to 30 s, cumulative, so that a p99 per route can be computed
        List<Scrape.Sample> buckets = after.find(REQUESTS + "_bucket", Map.of("method", "GET", "route", LEADS, "status", "200"));
        assertEquals(List.of("0.001", "0.002", "0.005", "0.01", "0.025", "0.05", "0.1", "0.25", "0.5", "1.0", "2.5", "5.0", "10.0", "30.0", "+Inf"),
                buckets.stream().map(b -> b.labels().get("le")).toList());
        for (int i = 1; i < buckets.size(); i++) {
            assertTrue(buckets.get(i).value() >= buckets.get(i - 1).value(), "cumulative: " + buckets);
        }
        assertEquals(List.of(), after.find(REQUESTS + "_count", Map.of()).stream()
                .filter(s -> !s.labels().keySet().equals(Set.of("method", "route", "status"))).toList(), "labels: method, route, status");
        promtoolLintsNothing(after.text());
    }

    @Test
    void backlogGaugesFollowTheRequestLog() {
        String key = newUnthrottledAccount("UTC", Roles.ALL);
        Scrape idle = await(() -> {
            Scrape s = scrape();
            return Double.isNaN(s.present("request_log_pending_writes", Map.of())) ? null : s;
        });
        for (String state : List.of("pending", "paused", "failed")) {
            assertFalse(Double.isNaN(idle.present("webhook_deliveries", Map.of("state", state))), state);
        }
        for (String status : List.of("pending", "running")) {
            assertFalse(Double.isNaN(idle.present("report_jobs", Map.of("status", status))), status);
        }
        // (the CDC gauges, where the bridge runs: CdcLagTest)
        for (String gauge : List.of("write_workers_standing_aside", "writes_burst", "process_cpu_seconds_total", "system_cpus")) {
            assertTrue(idle.present(gauge, Map.of()) >= 0, gauge);
        }

        Scrape backlog;
        List<String> ids = new ArrayList<>();
        worker.stop(); // nothing is applied: the writes stay PENDING
        try {
            double before = idle.present("request_log_pending_writes", Map.of());
            for (int i = 0; i < 3; i++) {
                ids.add(sendWrite(key, "POST", LEADS, "{\"email\":\"backlog-" + i + "@example.com\"}"));
            }
            backlog = await(() -> {
                Scrape s = scrape();
                return s.present("request_log_pending_writes", Map.of()) >= before + 3
                        && s.present("request_log_oldest_pending_age_seconds", Map.of()) > 0 ? s : null;
            });
        } finally {
            worker.start();
        }
        awaitAllProcessed(key, ids);
        double peak = backlog.present("request_log_pending_writes", Map.of());
        await(() -> scrape().present("request_log_pending_writes", Map.of()) <= peak - 3 ? true : null);
        promtoolLintsNothing(backlog.text());
    }

    @Test
    void theAlertRulesPassPromtool() {
        assertTrue(Files.isRegularFile(RULES), RULES.toAbsolutePath() + " missing");
        Result r = promtool(null, "check", "rules", RULES.toString());
        assertEquals(0, r.exit(), r.output());
        assertTrue(r.output().contains("SUCCESS"), r.output());
    }

    /** The dashboard and the alert rules query series /prometheus exports (the CDC ones: CdcLagTest), nothing else. */
    @Test
    void theDashboardAndTheRulesQueryExportedSeries() throws IOException {
        String key = newUnthrottledAccount("UTC", Roles.ALL);
        get(key, LEADS);
        Set<String> exported = await(() -> {
            Scrape s = scrape();
            return s.find("request_log_pending_writes", Map.of()).isEmpty() ? null
                    : s.samples().stream().map(Scrape.Sample::name).collect(Collectors.toSet());
        });
        List<String> queries = new ArrayList<>();
        JsonBody.mapper().readTree(DASHBOARD.toFile()).get("panels").forEach(p -> p.path("targets").forEach(t -> queries.add(t.get("expr").asText())));
        Files.readAllLines(RULES).stream().map(String::strip).filter(l -> !l.startsWith("#")).forEach(queries::add);
        assertTrue(queries.size() > 20, "queries: " + queries);
        Set<String> used = new TreeSet<>();
        queries.forEach(q -> used.addAll(PromQl.metricNames(q)));
        used.removeIf(n -> n.startsWith("cdc_"));
        assertTrue(used.containsAll(List.of("http_server_requests_seconds_bucket", "request_log_oldest_pending_age_seconds", "report_jobs")), used.toString());
        assertEquals(Set.of(), used.stream().filter(n -> !exported.contains(n)).collect(Collectors.toSet()), "queried, not exported");
    }

    /** Everything the server answers to {@code request} sent as is, until it closes the connection. */
    private String raw(String request) {
        try (Socket s = new Socket("127.0.0.1", server.getPort())) {
            s.setSoTimeout(30_000);
            s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            s.getOutputStream().flush();
            return new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private Scrape scrape() {
        Response r = get(null, "/prometheus");
        assertEquals(200, r.status(), r.raw());
        return Scrape.parse(r.raw());
    }

    private static void promtoolLintsNothing(String scrape) {
        Result r = promtool(scrape, "check", "metrics");
        assertEquals("", r.output().strip(), "promtool check metrics");
        assertEquals(0, r.exit(), r.output());
    }

    record Result(int exit, String output) {
    }

    /** Runs promtool (stdin {@code input} when not null); fails the test with the remedy when it is not installed. */
    static Result promtool(String input, String... args) {
        List<String> command = new ArrayList<>(List.of("promtool"));
        command.addAll(List.of(args));
        Process p;
        try {
            p = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            return fail("promtool is not installed: it is in Debian's prometheus package, which "
                    + "'scripts/lib/servers.sh install' (run by scripts/test) installs (" + e.getMessage() + ")");
        }
        try {
            if (input != null) {
                p.getOutputStream().write(input.getBytes(StandardCharsets.UTF_8));
            }
            p.getOutputStream().close();
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return fail("promtool did not finish");
            }
            return new Result(p.exitValue(), output);
        } catch (IOException e) {
            throw new AssertionError(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
