package dev.attribution.server.platform;

import dev.attribution.api.JsonBody;
import io.micronaut.http.HttpMethod;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.micronaut.web.router.Router;
import io.micronaut.web.router.UriRouteInfo;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 3 item 8: generated malformed input (bad JSON, wrong types, huge numbers and strings, unknown enum values,
 * injection strings, invalid UTF-8, bad dates and ids, unknown charsets and content types, Accept headers without
 * JSON) sent to every {@code /api/v1.0} route the Router knows.
 * Every answer must come within 10 s, never be a 5xx, and every 4xx must be the error envelope of spec 7.1.
 * Deterministic (fixed seed), so a failure reproduces; the failing request is printed.
 */
@MicronautTest(transactional = false)
class RouteFuzzTest extends PlatformTest {

    static final long SEED = 20260323L;
    static final int CASES_PER_ROUTE = 16;
    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** Parameter and field names of spec 4 (document 2); each route gets all of them, known or not. */
    static final List<String> NAMES = List.of("adOptimizationConsent", "attribute", "attributionModel", "basis", "cartId",
            "conversionType", "currency", "date", "dayOfAttribution", "email", "emails", "endDate", "externalId", "fields",
            "firstName", "fromDate", "groupsLimit", "id", "ids", "isEnabled", "items", "lastName", "leadIds", "leadIps",
            "leadStage", "lead_stage", "level", "name", "orderId", "pageId", "pageSize", "phoneNumbers", "phones", "price",
            "productTags", "removeLeadStages", "removeTags", "scientificDaysRange", "stage", "startDate", "state", "status",
            "tag", "tagFromDate", "tagToDate", "tags", "tagsDate", "timeGroupingOption", "toDate", "updatedFromDate",
            "updatedToDate", "windowAttributionDaysRange", "frequency", "cost", "productId", "newestFirst");

    static final List<String> BAD_VALUES = List.of("", " ", "null", "-1", "0", "99999999999999999999999999",
            "1e309", "NaN", "true", "UNKNOWN_VALUE", "\"a\",\"b", "\"\"\"", ",,,", "2025-13-45", "2025-02-30T25:61:61",
            "2025-03-01T10:00:00-0500", "9999-12-31", "0000-01-01", "2025-03-01T10:00:00.123456789Z", "../../etc/passwd",
            "' OR '1'='1", "'; DROP TABLE leads; --", "<script>alert(1)</script>", "${jndi:ldap://x/a}", "%s%n%x",
            "\u0000", "\uFFFF", "\uD83D\uDE00", "x".repeat(5000), "\"" + "x,".repeat(500) + "\"", "{}", "[]");

    @Inject
    Router router;

    @Test
    void everyRouteAnswersMalformedInputWithA4xxEnvelopeOrSuccessNeverA5xx() throws Exception {
        Acct caller = account();
        directory.setRateOverride(caller.id(), 1_000_000, 10_000_000);
        List<UriRouteInfo<?, ?>> routes = router.uriRoutes()
                .filter(r -> r.getUriMatchTemplate().toPathString().startsWith("/api/v1.0"))
                .filter(r -> r.getHttpMethod() != HttpMethod.HEAD || random() == 0) // HEAD mirrors GET: sampled
                .toList();
        assertTrue(routes.size() >= 3, "routes found: " + routes.size());
        Random random = new Random(SEED);
        List<String> failures = new ArrayList<>();
        TreeSet<String> covered = new TreeSet<>();
        for (UriRouteInfo<?, ?> route : routes) {
            covered.add(route.getHttpMethod() + " " + route.getUriMatchTemplate());
            for (int i = 0; i < CASES_PER_ROUTE; i++) {
                Case c = generate(route, random, caller);
                String problem = check(c);
                if (problem != null) {
                    failures.add(problem);
                }
            }
        }
        assertTrue(failures.isEmpty(), failures.size() + " bad answers over " + covered + ":\n" + String.join("\n", failures));
    }

    record Case(String method, String path, byte[] body, String contentType, String key, String target, String accept) {
        @Override
        public String toString() {
            return method + " " + abbreviate(path) + (body == null ? "" : " body=" + abbreviate(new String(body, StandardCharsets.UTF_8)))
                    + (body == null ? "" : " Content-Type=" + contentType)
                    + (target == null ? "" : " Accessible-Account-Id=" + abbreviate(target))
                    + (accept == null ? "" : " Accept=" + accept);
        }
    }

    private int headSample;

    private int random() {
        return headSample++ % 3;
    }

    private Case generate(UriRouteInfo<?, ?> route, Random random, Acct caller) {
        String path = route.getUriMatchTemplate().toPathString();
        StringBuilder concrete = new StringBuilder();
        for (String segment : path.split("/")) {
            if (segment.isEmpty()) {
                continue;
            }
            concrete.append('/').append(segment.startsWith("{") ? enc(pick(random, BAD_VALUES), random, true) : segment);
        }
        StringBuilder query = new StringBuilder();
        int params = random.nextInt(4);
        for (int p = 0; p < params; p++) {
            query.append(query.length() == 0 ? '?' : '&').append(pick(random, NAMES)).append('=')
                    .append(enc(pick(random, BAD_VALUES), random, false));
        }
        HttpMethod method = route.getHttpMethod();
        byte[] body = null;
        if (method == HttpMethod.POST || method == HttpMethod.PUT || method == HttpMethod.PATCH
                || (method == HttpMethod.DELETE && random.nextBoolean())) {
            body = body(random);
        }
        String target = random.nextInt(8) == 0 ? pick(random, BAD_VALUES) : null;
        String contentType = random.nextInt(6) == 0 ? pick(random, List.of("text/plain", "application/xml", "", "application/json; charset=latin1",
                "application/json; charset=bogus", "application/json; charset=@@@", "application/json; charset=", "application/json;;;", "/"))
                : "application/json";
        // issue 29: Accept headers a browser, a BI tool or a broken client sends (a JSON-less one was a 500)
        String accept = random.nextInt(4) == 0 ? pick(random, List.of("text/html", "application/xml", "text/csv", "*/*",
                "application/json;q=0.1, text/html", "garbage", ";;;", "application/*", "text/plain")) : null;
        return new Case(method.name(), (concrete.length() == 0 ? "/" : concrete.toString()) + query, body, contentType,
                caller.key(), target, accept);
    }

    private static byte[] body(Random random) {
        switch (random.nextInt(9)) {
            case 0:
                return pick(random, List.of("{", "{\"email\":", "{'email':'x'}", "[1,2", "nul", "{\"a\":1}}", "{\"a\":1,}",
                        "\"unterminated", "{\"a\":01}", "{\"a\":.5}")).getBytes(StandardCharsets.UTF_8);
            case 1: // invalid UTF-8 inside a string and as a bare byte
                return new byte[]{'{', '"', 'e', 'm', 'a', 'i', 'l', '"', ':', '"', (byte) 0xC3, (byte) 0x28, (byte) 0xFF, '"', '}'};
            case 2:
                return ("[".repeat(3000) + "]".repeat(3000)).getBytes(StandardCharsets.UTF_8);
            case 3:
                return ("{\"email\":\"a@example.com\",\"n\":" + "9".repeat(2000) + "}").getBytes(StandardCharsets.UTF_8);
            case 4:
                return pick(random, List.of("[]", "42", "\"x\"", "null", "true", "")).getBytes(StandardCharsets.UTF_8);
            default: { // an object whose known field names carry values of the wrong type or out of range
                var node = JsonBody.mapper().createObjectNode();
                int fields = 1 + random.nextInt(5);
                for (int f = 0; f < fields; f++) {
                    String name = pick(random, NAMES);
                    switch (random.nextInt(7)) {
                        case 0 -> node.put(name, random.nextLong());
                        case 1 -> node.put(name, new java.math.BigDecimal("1e" + (300 + random.nextInt(5000))));
                        case 2 -> node.putArray(name).add(1).add(true).addNull();
                        case 3 -> node.putObject(name).put("nested", pick(random, BAD_VALUES));
                        case 4 -> node.putNull(name);
                        case 5 -> node.put(name, random.nextBoolean());
                        default -> node.put(name, pick(random, BAD_VALUES));
                    }
                }
                return node.toString().getBytes(StandardCharsets.UTF_8);
            }
        }
    }

    private String check(Case c) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(server.getURL() + c.path()))
                .timeout(Duration.ofSeconds(10))
                .method(c.method(), c.body() == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(c.body()))
                .header("API-Key", c.key());
        if (c.body() != null && !c.contentType().isEmpty()) {
            b.header("Content-Type", c.contentType());
        }
        if (c.accept() != null) {
            b.header("Accept", c.accept());
        }
        if (c.target() != null && c.target().chars().allMatch(ch -> ch >= 0x20 && ch < 0x7F)) {
            b.header("Accessible-Account-Id", c.target());
        }
        HttpResponse<String> r;
        try {
            r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
        } catch (HttpTimeoutException e) {
            return "HANG (10 s) " + c;
        } catch (Exception e) {
            return "NO ANSWER (" + e + ") " + c;
        }
        if (r.statusCode() >= 500) {
            return r.statusCode() + " " + abbreviate(r.body()) + " <- " + c;
        }
        if (r.statusCode() >= 400 && !"HEAD".equals(c.method())) { // a HEAD answer has no body by definition
            try {
                var body = JsonBody.mapper().readTree(r.body());
                if (!"ERROR".equals(body.path("result").asText()) || !body.path("message").isArray() || body.path("message").isEmpty()) {
                    return r.statusCode() + " without the error envelope: " + abbreviate(r.body()) + " <- " + c;
                }
            } catch (Exception e) {
                return r.statusCode() + " not JSON: " + abbreviate(r.body()) + " <- " + c;
            }
        }
        return null;
    }

    private static String enc(String value, Random random, boolean pathSegment) {
        if (random.nextInt(10) == 0) {
            return "%C3%28%FF"; // invalid UTF-8, percent-encoded
        }
        String e = URLEncoder.encode(value, StandardCharsets.UTF_8);
        return pathSegment && e.isEmpty() ? "%20" : e;
    }

    private static <T> T pick(Random random, List<T> values) {
        return values.get(random.nextInt(values.size()));
    }

    private static String abbreviate(String s) {
        return s == null ? "null" : s.length() > 160 ? s.substring(0, 160) + "…(" + s.length() + ")" : s;
    }
}
