package dev.attribution.server.reports;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.RequestIds;
import dev.attribution.api.auth.AccountDirectory;
import dev.attribution.api.auth.ApiKeys;
import dev.attribution.api.auth.Roles;
import dev.attribution.server.reports.ApiWrittenWrites.Write;
import dev.attribution.server.support.ApiTest;
import dev.attribution.server.support.ApiTest.Response;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The writing half of {@link ApiWrittenAttributionTest}: its planned accounts ({@link ApiWrittenDataGenerator#plan})
 * created, written through the public API phase by phase as a partner writes them ({@link ApiWrittenWrites}), the spend
 * file imported before or after the rest, then — once ClickHouse holds everything — what the API derived read back
 * into each {@link ApiWrittenDataSet} (the oracles' input).
 */
final class ApiWrittenPlannedAccounts {

    static final int DEFAULT_SETS = 10;
    /** Account time zones: UTC, one with a DST change inside the data (2026-11-01) and one a half hour off. */
    static final ZoneId[] ZONES = {ZoneOffset.UTC, ZoneId.of("America/New_York"), ZoneId.of("Asia/Kolkata")};

    private final ApiTest api;
    private final AccountDirectory directory;

    ApiWrittenPlannedAccounts(ApiTest api, AccountDirectory directory) {
        this.api = api;
        this.directory = directory;
    }

    /**
     * Plans and writes the data sets of seeds {@code first} … {@code first + n - 1}, waits until ClickHouse has all of
     * it, reads back what the API derived; a read-back mismatch goes to {@code failures}.
     */
    List<ApiWrittenDataSet> write(int n, int first, Consumer<String> failures) {
        List<ApiWrittenDataSet> sets = new ArrayList<>();
        long t0 = System.nanoTime();
        for (int seed = first; seed < first + n; seed++) {
            ApiWrittenDataSet d = ApiWrittenDataGenerator.plan(seed);
            d.accountId = RequestIds.next("acc_");
            d.zone = ZONES[seed % ZONES.length];
            directory.createAccount(d.accountId, "API oracle " + seed, null, d.zone, "USD");
            directory.setRateOverride(d.accountId, 100_000, 1_000_000);
            d.key = ApiKeys.newKey();
            directory.createKey(d.accountId, ApiKeys.hash(d.key), Roles.ALL, false);
            sets.add(d);
        }
        int writes = 0;
        // the spend file: half the accounts import it before any other write, half after all of them (the hierarchy
        // comes out the same in any order: docs "The ad hierarchy the API writes")
        sets.stream().filter(d -> d.importFirst).forEach(d -> api.importSpend(d.key, d.spendFile()));
        for (List<Write> phase : ApiWrittenWrites.phases(sets)) {
            run(phase);
            writes += phase.size();
        }
        sets.stream().filter(d -> !d.importFirst).forEach(d -> api.importSpend(d.key, d.spendFile()));
        long t1 = System.nanoTime();
        api.awaitCdcCaughtUp();
        long t2 = System.nanoTime();
        for (ApiWrittenDataSet d : sets) {
            d.readBack((m, p, j) -> send(d.key, m, p, j), (ok, message) -> {
                if (!ok) {
                    failures.accept("read back: " + message);
                }
            });
        }
        System.out.printf("ApiWrittenAttributionTest: %d writes in %.1f s, CDC caught up in %.1f s, read back in %.1f s%n",
                writes, (t1 - t0) / 1e9, (t2 - t1) / 1e9, (System.nanoTime() - t2) / 1e9);
        return sets;
    }

    /** Sends a phase's writes (all accounts), then waits for each to leave PENDING; each must be PROCESSED. */
    private void run(List<Write> phase) {
        Map<String, Write> pending = new LinkedHashMap<>();
        Map<String, String> keys = new HashMap<>();
        for (Write w : phase) {
            Response r = send(w.set().key, w.method(), w.path(), w.json());
            if (r.status() != 200 || r.body() == null || !r.body().has("request_id")) {
                throw new AssertionError("seed " + w.set().seed + " " + w.method() + " " + w.path() + " " + w.json() + ": " + r.status() + " " + r.raw());
            }
            String id = r.body().get("request_id").asText();
            pending.put(id, w);
            keys.put(id, w.set().key);
        }
        // generous: the bench runs a hundred accounts at once on two cores. The writes are applied about in the order
        // sent, so each is awaited in turn (one poll for most, instead of polling every pending write each round).
        Instant deadline = Instant.now().plus(Duration.ofSeconds(120 + phase.size() / 10));
        for (var e : pending.entrySet()) {
            Write w = e.getValue();
            String what = "seed " + w.set().seed + " " + w.method() + " " + w.path() + " " + w.json();
            JsonNode s;
            while (true) {
                Response r = api.get(keys.get(e.getKey()), "/api/v1.0/requests/" + e.getKey());
                s = r.body() == null ? null : r.body().get("result");
                if (s != null && !"PENDING".equals(s.path("status").asText())) {
                    break;
                }
                if (Instant.now().isAfter(deadline)) {
                    throw new AssertionError("still PENDING: " + what);
                }
                sleep(20);
            }
            assertEquals("PROCESSED", s.path("status").asText(), what + ": " + s);
            assertEquals(w.eventType(), s.path("eventType").asText(), what);
            w.then().accept(s.get("result"));
        }
    }

    /** What ApiTest's send does for a key: the request with its API-Key header. */
    private Response send(String key, String method, String pathAndQuery, String json) {
        return api.sendWithHeaders(method, pathAndQuery, json, Map.of("API-Key", key));
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted");
        }
    }
}
