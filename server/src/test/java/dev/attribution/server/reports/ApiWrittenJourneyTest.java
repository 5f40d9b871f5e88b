package dev.attribution.server.reports;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.server.reports.ApiWrittenAccounts.Ad;
import dev.attribution.server.reports.ApiWrittenAccounts.Sale;
import dev.attribution.server.reports.ApiWrittenAccounts.Written;
import dev.attribution.server.reports.ApiWrittenData.Click;
import dev.attribution.server.reports.ApiWrittenData.Source;
import dev.attribution.server.support.ApiTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static dev.attribution.server.reports.RoasOracle.assertRoas;
import static dev.attribution.server.reports.RoasOracle.expectedRoas;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Conversion paths, first calls, the source-tag aggregation and the journey's hierarchy ids over the accounts of
 * {@link ApiWrittenRoasTest} (written once per test JVM through HTTP, {@link ApiWrittenAccounts#shared}): every touch
 * carries the partner's ids; the ids GET /leads/journey shows feed back into ROAS, the curve, GET /ads,
 * GET /ad-accounts and GET /attribution/ad-account.
 */
@MicronautTest(transactional = false)
class ApiWrittenJourneyTest extends ApiTest {

    private final ApiWrittenAccounts writer = new ApiWrittenAccounts(this);
    List<Written> accounts;

    @BeforeAll
    void write() {
        accounts = ApiWrittenAccounts.shared(this, ApiWrittenRoasTest.SEEDS);
    }

    private List<JsonNode> pages(String key, String pathAndQuery) {
        return writer.pages(key, pathAndQuery);
    }

    /** Every conversion of a type, all pages. */
    private List<JsonNode> paths(Written w, String type) {
        return pages(w.key, "/api/v1.0/conversion-paths?conversionType=" + type + "&pageSize=250");
    }

    /** The expected touches of a lead's conversion at {@code at}: its tagged clicks up to then, oldest first. */
    private static List<Click> touches(Written w, String leadId, Instant at) {
        return w.assigned().stream().filter(c -> c.tagged() && w.leadId(c.leadEmail()).equals(leadId) && !c.at().isAfter(at)).toList();
    }

    private static void assertPath(Written w, List<Click> want, JsonNode path, String label) {
        assertEquals(want.size(), path.size(), label + ": " + path);
        for (int i = 0; i < want.size(); i++) {
            Click c = want.get(i);
            JsonNode t = path.get(i);
            String l = label + " touch " + i + ": " + t;
            assertEquals(w.data.tags.get(c.source().key()), t.get("tag").asText(), l);
            assertEquals(c.at(), OffsetDateTime.parse(t.get("clickDate").asText()).toInstant(), l);
            assertEquals(OffsetDateTime.parse(t.get("clickDate").asText()).getOffset(), w.data.zone.getRules().getOffset(c.at()), l);
            assertEquals(c.organic(), t.get("organic").asBoolean(), l);
            if (c.organic()) {
                assertFalse(t.has("adSource"), l);
                assertFalse(t.has("sourceLinkAd"), l);
            } else {
                Source s = c.source();
                assertEquals(s.adSourceId(), t.get("adSource").get("adSourceId").asText(), l);
                assertEquals(s.adAccountId(), t.get("adSource").path("adAccountId").asText(null), l);
                assertEquals(s.platform(), t.get("adSource").get("platform").asText(), l);
                if (c.adId().isEmpty()) {
                    assertFalse(t.has("sourceLinkAd"), l);
                } else {
                    assertEquals(c.adId(), t.get("sourceLinkAd").get("adSourceId").asText(), l);
                }
            }
        }
    }

    @Test
    void conversionPathsCarryThePartnersIds() {
        for (Written w : accounts) {
            String seed = "seed " + w.data.seed;
            // SALE: every sale, its price and refund as GET /sales reads them, its first-sale flag, its touches
            List<JsonNode> sales = paths(w, "SALE");
            assertEquals(w.sales.size(), sales.size(), seed);
            Map<String, Sale> byId = new HashMap<>();
            w.sales.forEach(s -> byId.put("sle-" + s.id(), s));
            for (JsonNode row : sales) {
                Sale s = byId.get(row.get("id").asText());
                assertNotNull(s, seed + " " + row);
                assertEquals(s.leadId(), row.get("leadId").asText());
                assertEquals(s.at(), OffsetDateTime.parse(row.get("creationDate").asText()).toInstant(), row.toString());
                RoasReportTest.money(BigDecimal.valueOf(s.cents(), 2).toString(), row.get("price").get("price"), seed + " " + row);
                RoasReportTest.money(BigDecimal.valueOf(s.refundedCents(), 2).toString(), row.get("price").get("refunded"), seed + " " + row);
                assertEquals(s.first(), row.get("firstSale").asBoolean(), seed + " firstSale " + row);
                assertPath(w, touches(w, s.leadId(), s.at()), row.get("path"), seed + " sale " + s.id());
            }
            // CALL: the lead's earliest call is its first
            List<JsonNode> calls = paths(w, "CALL");
            assertEquals(w.calls.size(), calls.size(), seed);
            for (JsonNode row : calls) {
                Instant at = OffsetDateTime.parse(row.get("creationDate").asText()).toInstant();
                String lead = row.get("leadId").asText();
                Object[] call = w.calls.stream().filter(c -> c[1].equals(lead) && ((ApiWrittenData.Call) c[0]).at().equals(at)).findFirst()
                        .orElseThrow(() -> new AssertionError(seed + " unknown call " + row));
                assertTrue(row.get("id").asText().startsWith("cll-"), row.toString());
                assertPath(w, touches(w, lead, at), row.get("path"), seed + " call " + ((ApiWrittenData.Call) call[0]).name());
            }
            // LEAD: every lead, its touches up to its join date
            List<JsonNode> leads = paths(w, "LEAD");
            assertEquals(w.data.leads.size(), leads.size(), seed);
            for (JsonNode row : leads) {
                assertFalse(row.has("price"), row.toString());
                Instant joined = OffsetDateTime.parse(row.get("creationDate").asText()).toInstant();
                assertPath(w, touches(w, row.get("leadId").asText(), joined), row.get("path"), seed + " lead " + row.get("leadId"));
            }
        }
    }

    /**
     * Spec 2.16: {@code firstSale} on a CALL row is the lead's first call, by call date. POST /calls flagged the call
     * written first instead, so a call written later with an earlier date read false (fixed: CallHandlers.firstCalls).
     */
    @Test
    void firstCallOfALeadIsFlagged() {
        int firsts = 0;
        for (Written w : accounts) {
            for (JsonNode row : paths(w, "CALL")) {
                Instant at = OffsetDateTime.parse(row.get("creationDate").asText()).toInstant();
                String lead = row.get("leadId").asText();
                boolean first = w.calls.stream().filter(c -> c[1].equals(lead)).noneMatch(c -> ((ApiWrittenData.Call) c[0]).at().isBefore(at));
                firsts += first ? 1 : 0;
                assertEquals(first, row.get("firstSale").asBoolean(), "seed " + w.data.seed + " first call of the lead: " + row);
            }
        }
        assertTrue(firsts > 3, firsts + " first calls");
    }

    @Test
    void aggregationByFirstAndLastSourceTag() {
        for (Written w : accounts) {
            Map<String, Long> first = new TreeMap<>();
            Map<String, Long> last = new TreeMap<>();
            for (String email : w.data.leads) {
                List<Click> mine = w.assigned().stream().filter(c -> c.tagged() && c.leadEmail().equals(email)).toList();
                if (!mine.isEmpty()) {
                    first.merge(w.data.tags.get(mine.get(0).source().key()), 1L, Long::sum);
                    last.merge(w.data.tags.get(mine.get(mine.size() - 1).source().key()), 1L, Long::sum);
                }
            }
            for (var e : Map.of("FIRST_SOURCE_TAG", first, "LAST_SOURCE_TAG", last).entrySet()) {
                Response r = get(w.key, "/api/v1.0/leads/aggregation?attribute=" + e.getKey());
                assertEquals(200, r.status(), r.raw());
                JsonNode result = r.body().get("result");
                List<Map.Entry<String, Long>> want = new ArrayList<>(e.getValue().entrySet());
                want.sort(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
                List<String> got = new ArrayList<>();
                result.get("groups").forEach(g -> got.add(g.get("key").asText() + "=" + g.get("count").asLong()));
                assertEquals(want.stream().map(x -> x.getKey() + "=" + x.getValue()).toList(), got,
                        "seed " + w.data.seed + " " + e.getKey() + ": " + result);
                assertEquals(0, result.get("remainingCount").asLong(), result.toString());
                assertEquals(w.data.leads.size(), result.get("totalCount").asLong(), result.toString());
            }
        }
    }

    @Test
    void journeyHierarchyIdsFeedBackIntoTheReports() {
        int fedBack = 0;
        List<String> problems = new ArrayList<>();
        for (Written w : accounts) {
            String seed = "seed " + w.data.seed;
            List<String> ids = w.data.leads.stream().map(w::leadId).toList();
            Response r = get(w.key, "/api/v1.0/leads/journey?ids=" + list(ids.toArray(String[]::new)) + "&includeEvents=true&fields=journey");
            assertEquals(200, r.status(), r.raw());
            // the ids as the journey gives them (what a partner feeds back), and as the written data says they are
            Map<String, Set<String>> fed = new LinkedHashMap<>();
            Map<String, Set<String>> written = new LinkedHashMap<>();
            Map<String, String> levelOf = Map.of("ad", "ad", "adSet", "source_link", "campaign", "campaign", "adAccount", "account");
            for (JsonNode journey : r.body().get("result")) {
                String leadId = journey.get("lead").get("id").asText();
                List<Click> mine = w.assigned().stream().filter(c -> w.leadId(c.leadEmail()).equals(leadId)).toList();
                List<JsonNode> sl = new ArrayList<>();
                journey.get("journey").forEach(ev -> {
                    if (ev.get("type").asText().equals("sl")) {
                        sl.add(ev);
                    }
                });
                assertEquals(mine.size(), sl.size(), seed + " sl events of " + leadId + ": " + journey);
                for (JsonNode ev : sl) {
                    Instant at = OffsetDateTime.parse(ev.get("date").asText()).toInstant();
                    Click c = mine.stream().filter(x -> x.at().equals(at)).findFirst()
                            .orElseThrow(() -> new AssertionError(seed + " no click at " + at + ": " + ev));
                    Source s = c.source();
                    Map<String, String> want = new LinkedHashMap<>();
                    if (s.campaignLevel()) {
                        want.put("adAccount", s.adAccountId());
                        want.put("campaign", s.adSourceId());
                    } else if (!c.organic()) {
                        want.put("adAccount", s.adAccountId());
                        if (s.campaignId() != null) {
                            want.put("campaign", s.campaignId());
                        }
                        want.put("adSet", s.adSourceId());
                        if (!c.adId().isEmpty()) {
                            want.put("ad", c.adId());
                        }
                    }
                    Map<String, String> got = new LinkedHashMap<>();
                    for (String f : levelOf.keySet()) {
                        if (ev.has(f)) {
                            got.put(f, ev.get(f).path("adSourceId").asText());
                            fed.computeIfAbsent(levelOf.get(f), k -> new LinkedHashSet<>()).add(ev.get(f).path("adSourceId").asText());
                        }
                        if (want.containsKey(f)) {
                            written.computeIfAbsent(levelOf.get(f), k -> new LinkedHashSet<>()).add(want.get(f));
                        }
                    }
                    if (!new TreeMap<>(want).equals(new TreeMap<>(got))) {
                        problems.add(seed + " " + s.platform() + " click hierarchy: want " + new TreeMap<>(want) + ", journey " + ev);
                    }
                }
            }
            assertEquals(Set.of("account", "source_link", "campaign", "ad"), written.keySet(), seed + " every level written");
            LocalDate from = w.data.today.minusDays(60);
            LocalDate to = w.data.today.minusDays(1);
            for (var e : fed.entrySet()) {
                for (String id : e.getValue()) {
                    String label = seed + " journey id " + id + " at level " + e.getKey();
                    // each id has clicks in the range: ROAS answers a row, the curve answers 200
                    Response roas = get(w.key, "/api/v1.0/attribution/roas?id=" + enc(id) + "&level=" + e.getKey() + "&startDate=" + from
                            + "&endDate=" + to + "&basis=click_date");
                    if (roas.status() != 200 || !roas.body().has("result")) {
                        problems.add(label + ": ROAS " + roas.status() + " " + roas.raw());
                    } else if (written.getOrDefault(e.getKey(), Set.of()).contains(id)) {
                        assertRoas(expectedRoas(w, id, e.getKey(), "click_date", from, to), roas.body(), label);
                    }
                    Response curve = get(w.key, "/api/v1.0/attribution/marginal-cac-curve?id=" + enc(id) + "&level=" + e.getKey()
                            + "&startDate=" + from + "&endDate=" + to + "&cacCeiling=100");
                    if (curve.status() != 200) {
                        problems.add(label + ": curve " + curve.status() + " " + curve.raw());
                    }
                    fedBack++;
                }
            }
            // ad → GET /ads as adSourceIds: the ad with its source (the source entry itself is not listed)
            for (String ad : written.get("ad")) {
                Ad a = w.ads.stream().filter(x -> x.id().equals(ad)).findFirst().orElseThrow();
                Response ads = get(w.key, "/api/v1.0/ads?adSourceIds=" + list(ad));
                assertEquals(200, ads.status(), ads.raw());
                assertEquals(1, ads.body().get("result").size(), seed + " GET /ads " + ad + ": " + ads.raw());
                JsonNode item = ads.body().get("result").get(0);
                assertEquals(ad, item.get("adSource").get("adSourceId").asText(), item.toString());
                assertEquals(a.account(), item.get("adSource").get("adAccountId").asText(), item.toString());
                assertEquals(a.platform(), item.get("adSource").get("platform").asText(), item.toString());
                Source s = w.data.sources.stream().filter(x -> a.set().equals(x.adSourceId())).findFirst().orElseThrow();
                assertEquals(w.data.tags.get(s.key()), item.get("source").get("tag").asText(), seed + " the ad's source: " + item);
            }
            for (Source s : w.data.sources) {
                if (s.paid()) {
                    Response entry = get(w.key, "/api/v1.0/ads?adSourceIds=" + list(s.adSourceId()));
                    assertEquals(200, entry.status(), entry.raw());
                    assertEquals(0, entry.body().get("result").size(), seed + " GET /ads does not list the source entry: " + entry.raw());
                }
            }
            // ad account → GET /ad-accounts and GET /attribution/ad-account as ids
            Map<String, String> platforms = new HashMap<>();
            w.data.sources.stream().filter(Source::paid).forEach(s -> platforms.put(s.adAccountId(), s.platform()));
            List<JsonNode> listed = pages(w.key, "/api/v1.0/ad-accounts?pageSize=250");
            Map<String, String> listedTypes = new HashMap<>();
            listed.forEach(a -> listedTypes.put(a.get("id").asText(), a.get("type").asText()));
            assertEquals(platforms, listedTypes, seed + " GET /ad-accounts: " + listed);
            for (String account : written.get("account")) {
                Response one = get(w.key, "/api/v1.0/ad-accounts?ids=" + enc(account));
                assertEquals(200, one.status(), one.raw());
                assertEquals(1, one.body().get("result").size(), one.raw());
                assertEquals(account, one.body().get("result").get(0).get("id").asText(), one.raw());
                Response attribution = get(w.key, "/api/v1.0/attribution/ad-account?attributionModel=last_click&startDate=" + from
                        + "&endDate=" + to + "&fields=cost,clicks&ids=" + enc(account));
                assertEquals(200, attribution.status(), seed + " ad-account " + account + ": " + attribution.raw());
                assertNull(attribution.body().get("message"), attribution.raw());
                JsonNode rows = attribution.body().get("result");
                assertEquals(1, rows.size(), seed + " one row for the ad account: " + attribution.raw());
                Map<String, Object> want = expectedRoas(w, account, "account", "click_date", from, to);
                RoasReportTest.money(want.get("cost").toString(), rows.get(0).get("cost"), seed + " ad-account cost " + rows);
            }
        }
        // the ids fed back first (each answer that is not a row), then one event per wrong shape
        List<String> shown = new ArrayList<>(problems.stream().filter(p -> p.contains(" journey id ")).toList());
        Set<String> shapes = new HashSet<>();
        problems.stream().filter(p -> !p.contains(" journey id ") && shapes.add(p.substring(0, p.indexOf(" click hierarchy"))
                .replaceAll("seed \\d+ ", ""))).forEach(shown::add);
        assertEquals(List.of(), shown, problems.size() + " problems");
        assertTrue(fedBack > 15, fedBack + " ids fed back");
    }
}
