package dev.attribution.server.reports;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.attribution.api.JsonBody;
import dev.attribution.api.auth.Roles;
import dev.attribution.query.attribution.roas.CacCurveBuilder;
import dev.attribution.server.reports.ApiWrittenData.Click;
import dev.attribution.server.reports.ApiWrittenData.Cost;
import dev.attribution.server.reports.ApiWrittenData.Item;
import dev.attribution.server.reports.ApiWrittenData.Order;
import dev.attribution.server.reports.ApiWrittenData.Source;
import dev.attribution.server.support.ApiTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The reports other than GET /attribution over accounts written only through HTTP, as an integration partner writes
 * them (issue 20, notes/design-hierarchy.md): no SQL, no demo seed, no spend import. Each seeded data set
 * ({@link ApiWrittenData}) has two FACEBOOK sources (ad set ids, one ad account, campaigns), a GOOGLE source (ad group,
 * ad account, sub-type) and an organic source; clicks with and without an ad id, with and without email (connected by
 * ip, or unassigned); multi-item orders with rebills; refunds; calls; DAILY and ONE_TIME custom costs on the source
 * tags. Derived values (lead ids, sale ids and amounts, refunds) are read back through GET /leads and GET /sales.
 *
 * <p>Checked against plain-Java expectations: GET /attribution/roas at levels ad (real ads and the source entry S),
 * source_link, campaign, account with both bases (the credited sales by {@link AttributionOracle}, the cost from the
 * custom costs allocated as the design says); GET /attribution/marginal-cac-curve at the same levels (daily spend from
 * custom costs, new customers per credited click day, the buckets by {@link CacCurveBuilder}); GET /conversion-paths
 * (SALE, CALL, LEAD) with the partner's ids on every touch; GET /leads/aggregation FIRST_SOURCE_TAG / LAST_SOURCE_TAG;
 * the hierarchy ids of GET /leads/journey fed back into ROAS, the curve, GET /ads, GET /ad-accounts and
 * GET /attribution/ad-account.
 */
@MicronautTest(transactional = false)
class ApiWrittenRoasTest extends ApiTest {

    /** Data sets in CI; more with -Dapi.roas.sets=N. */
    static final int SEEDS = Integer.getInteger("api.roas.sets", 10);
    static final DateTimeFormatter WALL = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss");

    /** An ad of the oracle: real ads and source entries (ad id = set id = the source's adSourceId). */
    record Ad(String id, String platform, String set, String campaign, String account, boolean entry) {
    }

    /** A sale as read back: amounts from GET /sales, dates and flags from what was written. */
    record Sale(String id, String orderId, String leadId, Instant at, long cents, boolean recurring, boolean first, long refundedCents) {
    }

    /** One written account: its key, the data written and what was read back. */
    static final class Written {
        final ApiWrittenData data;
        final String key;
        final List<Ad> ads = new ArrayList<>();
        final List<Sale> sales = new ArrayList<>();
        /** Calls as written, with the lead id. */
        final List<Object[]> calls = new ArrayList<>();

        Written(ApiWrittenData data, String key) {
            this.data = data;
            this.key = key;
        }

        String leadId(String email) {
            return data.leadIds.get(email);
        }

        /** The clicks connected to a lead (the only ones attribution can credit), oldest first. */
        List<Click> assigned() {
            return data.clicks.stream().filter(c -> c.leadEmail() != null).sorted(Comparator.comparing(Click::at)).toList();
        }
    }

    final List<Written> accounts = new ArrayList<>();

    @BeforeAll
    void write() {
        for (int seed = 1; seed <= SEEDS; seed++) {
            ZoneId zone = ZoneId.of(seed % 2 == 0 ? "UTC" : "America/New_York");
            ApiWrittenData data = new ApiWrittenData(seed, zone, LocalDate.now(zone));
            Written w = new Written(data, newUnthrottledAccount(zone.getId(), Roles.ALL));
            writeAll(w);
            accounts.add(w);
        }
        awaitCdcCaughtUp();
        for (Written w : accounts) {
            readBack(w);
        }
    }

    // ---------------------------------------------------------------- writing, as a partner does

    private void writeAll(Written w) {
        ApiWrittenData d = w.data;
        // 1. the sources but the late one (their tags come back in the processed result)
        for (Source s : d.sources) {
            if (!s.late()) {
                createSource(w, s);
            }
        }
        // 2. clicks with email, orders, calls, custom costs: sent together, then awaited
        List<String> pending = new ArrayList<>();
        for (Click c : d.clicks) {
            if (c.email() != null) {
                pending.add(accepted(w.key, "POST", "/api/v1.0/clicks", clickBody(d, c)));
            }
        }
        for (Order o : d.orders) {
            ObjectNode body = JsonBody.mapper().createObjectNode().put("email", o.email()).put("orderId", o.id())
                    .put("date", o.at().toString());
            ArrayNode items = body.putArray("items");
            for (Item it : o.items()) {
                items.addObject().put("name", it.name()).put("price", BigDecimal.valueOf(it.unitCents(), 2))
                        .put("quantity", it.quantity()).put("isRebill", it.rebill());
            }
            if (o.ip() != null) {
                body.putArray("leadIps").add(o.ip());
            }
            pending.add(accepted(w.key, "POST", "/api/v1.0/orders", body.toString()));
        }
        for (ApiWrittenData.Call c : d.calls) {
            ObjectNode body = JsonBody.mapper().createObjectNode().put("name", c.name()).put("email", c.email()).put("date", c.at().toString());
            if (c.state() != null) {
                body.put("state", c.state());
            }
            pending.add(accepted(w.key, "POST", "/api/v1.0/calls", body.toString()));
        }
        for (Cost c : d.costs) {
            if (c.sourceKeys().stream().anyMatch(k -> d.source(k).late())) {
                continue; // written once its source exists (step 4)
            }
            pending.add(writeCost(w, c));
        }
        awaitProcessed(w.key, pending);
        // 3. clicks without email (connected through an order's ip, or unassigned) and the refunds
        pending.clear();
        for (Click c : d.clicks) {
            if (c.email() == null) {
                pending.add(accepted(w.key, "POST", "/api/v1.0/clicks", clickBody(d, c)));
            }
        }
        for (ApiWrittenData.Refund r : d.refunds) {
            pending.add(accepted(w.key, "DELETE", "/api/v1.0/orders/" + r.orderId() + "?refundedAmount=" + BigDecimal.valueOf(r.cents(), 2), null));
        }
        awaitProcessed(w.key, pending);
        // 4. the source created after its clicks, then its custom costs
        pending.clear();
        for (Source s : d.sources) {
            if (s.late()) {
                createSource(w, s);
            }
        }
        for (Cost c : d.costs) {
            if (c.sourceKeys().stream().anyMatch(k -> d.source(k).late())) {
                pending.add(writeCost(w, c));
            }
        }
        awaitProcessed(w.key, pending);
    }

    private void createSource(Written w, Source s) {
        ObjectNode body = JsonBody.mapper().createObjectNode().put("name", s.name());
        if (s.paid()) {
            body.put("integrationType", s.platform()).put("adSourceId", s.adSourceId()).put("accountId", s.adAccountId());
            if (s.campaignId() != null) {
                body.put("campaignId", s.campaignId());
            }
            if (s.subType() != null) {
                body.put("adspendSubType", s.subType());
            }
        } else {
            body.put("isOrganic", true);
        }
        JsonNode source = processed(w.key, "POST", "/api/v1.0/sources", body.toString(), "CREATE_SOURCE_LINK");
        String tag = source.get("tag").asText();
        assertTrue(tag.startsWith("@"), source.toString());
        w.data.tags.put(s.key(), tag);
    }

    private String writeCost(Written w, Cost c) {
        ApiWrittenData d = w.data;
        {
            ObjectNode body = JsonBody.mapper().createObjectNode().put("name", c.name()).put("frequency", c.frequency())
                    .put("cost", BigDecimal.valueOf(c.cents(), 2)).put("startDate", wall(c.start(), c.offset()));
            if (c.end() != null) {
                body.put("endDate", wall(c.end(), c.offset()));
            }
            ArrayNode tags = body.putArray("tags");
            c.sourceKeys().forEach(k -> tags.add(d.tags.get(k)));
            return accepted(w.key, "POST", "/api/v1.0/custom-costs", body.toString());
        }
    }

    private static String wall(java.time.LocalDateTime t, String offset) {
        return WALL.format(t) + (offset == null ? "" : offset);
    }

    private static String clickBody(ApiWrittenData d, Click c) {
        ObjectNode body = JsonBody.mapper().createObjectNode().put("referrerUrl", "https://shop.example.com/landing?s=" + d.seed)
                .put("date", c.at().toString());
        if (c.tagged()) {
            body.put("sourceLinkTag", d.tags.get(c.source().key()));
        }
        if (c.email() != null) {
            body.put("email", c.email());
        }
        if (c.ip() != null) {
            body.put("ip", c.ip());
        }
        if (c.source().paid()) {
            body.put("integrationType", c.source().platform()).put("adSourceId", c.source().adSourceId())
                    .put("adSourceClickId", "clid-" + c.at().getEpochSecond());
            if (!c.adId().isEmpty()) {
                body.put("adspendAdId", c.adId());
            }
        } else {
            body.put("isOrganic", true);
        }
        return body.toString();
    }

    private String accepted(String key, String method, String path, String json) {
        Response r = send(key, method, path, json);
        assertEquals(200, r.status(), method + " " + path + " " + json + ": " + r.raw());
        return r.body().get("request_id").asText();
    }

    private void awaitProcessed(String key, List<String> requestIds) {
        for (String id : requestIds) {
            JsonNode status = awaitRequest(key, id);
            assertEquals("PROCESSED", status.get("status").asText(), status.toString());
        }
    }

    // ---------------------------------------------------------------- reading back what the server derived

    private void readBack(Written w) {
        ApiWrittenData d = w.data;
        // lead ids by email (GET /leads)
        for (JsonNode lead : pages(w.key, "/api/v1.0/leads?pageSize=250")) {
            d.leadIds.put(lead.get("email").asText(), lead.get("id").asText());
        }
        for (String email : d.leads) {
            assertNotNull(d.leadIds.get(email), "lead " + email + " of seed " + d.seed + " not listed: " + d.leadIds);
        }
        // the ads: every real ad a click names, every source entry
        Set<String> seen = new HashSet<>();
        for (Click c : d.clicks) {
            if (c.source().paid() && !c.adId().isEmpty() && seen.add(c.adId())) {
                Source s = c.source();
                w.ads.add(new Ad(c.adId(), s.platform(), s.adSourceId(), nz(s.campaignId()), s.adAccountId(), false));
            }
        }
        for (Source s : d.sources) {
            if (s.campaignLevel()) {
                w.ads.add(new Ad(s.adSourceId(), s.platform(), "", s.adSourceId(), s.adAccountId(), true));
            } else if (s.paid()) {
                w.ads.add(new Ad(s.adSourceId(), s.platform(), s.adSourceId(), nz(s.campaignId()), s.adAccountId(), true));
            }
        }
        // the sales: one per item, amounts as GET /sales reads them; first purchase = the non-recurring items of the
        // lead's earliest order holding one (a rebill never makes a new customer)
        Map<String, Order> ordersById = new HashMap<>();
        d.orders.forEach(o -> ordersById.put(o.id(), o));
        Map<String, Order> firstOrder = new HashMap<>();
        for (Order o : d.orders.stream().sorted(Comparator.comparing(Order::at)).toList()) {
            if (o.items().stream().anyMatch(i -> !i.rebill())) {
                firstOrder.putIfAbsent(o.email(), o);
            }
        }
        List<JsonNode> sales = pages(w.key, "/api/v1.0/sales?pageSize=250&fromDate=" + d.today.minusDays(70) + "&toDate=" + d.today);
        int items = d.orders.stream().mapToInt(o -> o.items().size()).sum();
        assertEquals(items, sales.size(), "one sale per order item, seed " + d.seed);
        Map<String, Long> refundedByOrder = new HashMap<>();
        for (JsonNode s : sales) {
            Order o = ordersById.get(s.get("orderId").asText());
            assertNotNull(o, s.toString());
            String name = s.get("product").get("name").asText();
            Item item = o.items().stream().filter(i -> i.name().equals(name)).findFirst().orElseThrow(() -> new AssertionError(s.toString()));
            long cents = s.get("price").get("price").decimalValue().movePointRight(2).longValueExact();
            assertEquals(item.unitCents() * item.quantity(), cents, "price x quantity: " + s);
            assertEquals(item.rebill(), s.get("recurring").asBoolean(), "isRebill: " + s);
            assertEquals(w.leadId(o.email()), s.get("lead").get("id").asText(), s.toString());
            long refunded = s.get("price").get("refunded").decimalValue().movePointRight(2).longValueExact();
            refundedByOrder.merge(o.id(), refunded, Long::sum);
            boolean first = !item.rebill() && firstOrder.get(o.email()) == o;
            w.sales.add(new Sale(s.get("id").asText(), o.id(), w.leadId(o.email()), o.at(), cents, item.rebill(), first, refunded));
        }
        for (ApiWrittenData.Refund r : d.refunds) {
            assertEquals(r.cents(), (long) refundedByOrder.get(r.orderId()), "refund of " + r.orderId() + " spread over its sales");
        }
        for (ApiWrittenData.Call c : d.calls) {
            w.calls.add(new Object[]{c, w.leadId(c.email())});
        }
    }

    private List<JsonNode> pages(String key, String pathAndQuery) {
        List<JsonNode> out = new ArrayList<>();
        String next = null;
        for (int page = 0; page < 50; page++) {
            Response r = get(key, pathAndQuery + (next == null ? "" : "&pageId=" + enc(next)));
            assertEquals(200, r.status(), pathAndQuery + ": " + r.raw());
            r.body().get("result").forEach(out::add);
            JsonNode n = r.body().get("nextPageId");
            if (n == null || n.isNull() || n.asText().isEmpty()) {
                return out;
            }
            next = n.asText();
        }
        throw new AssertionError("paging never ends: " + pathAndQuery);
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }

    // ---------------------------------------------------------------- the oracle

    /** Custom cost in cents per (entry ad id, day) for days from..to, by the rule of design-hierarchy.md. */
    static Map<String, Map<LocalDate, Long>> customCost(ApiWrittenData d, LocalDate from, LocalDate to) {
        Map<String, Map<LocalDate, Long>> out = new HashMap<>();
        for (Cost c : d.costs) {
            LocalDate first = c.start().toLocalDate();
            LocalDate last = c.frequency().equals("ONE_TIME") ? first : c.end() == null ? to : c.end().toLocalDate();
            for (LocalDate day = first; !day.isAfter(last); day = day.plusDays(1)) {
                if (day.isBefore(from) || day.isAfter(to)) {
                    continue;
                }
                int n = c.sourceKeys().size();
                for (int i = 0; i < n; i++) {
                    long share = c.cents() / n + (i < c.cents() % n ? 1 : 0);
                    Source s = d.source(c.sourceKeys().get(i));
                    if (s.paid() && share > 0) {
                        out.computeIfAbsent(s.adSourceId(), k -> new TreeMap<>()).merge(day, share, Long::sum);
                    }
                }
            }
        }
        return out;
    }

    static Predicate<Ad> member(String id, String level) {
        return switch (level) {
            case "ad" -> a -> a.id().equals(id);
            case "source_link" -> a -> a.set().equals(id);
            case "campaign" -> a -> a.campaign().equals(id);
            default -> a -> a.account().equals(id);
        };
    }

    static String depth(String level) {
        return switch (level) {
            case "source_link" -> "adset";
            default -> level;
        };
    }

    /** The oracle's data: assigned clicks (ids in time order), the sales, the custom costs as per-day spend of the entries. */
    static AttributionOracle.Data oracleData(Written w, LocalDate from, LocalDate to) {
        List<AttributionOracle.Ad> ads = w.ads.stream().map(a -> new AttributionOracle.Ad(a.id(), a.set(), a.campaign(), a.account())).toList();
        List<AttributionOracle.Click> clicks = new ArrayList<>();
        int i = 0;
        for (Click c : w.assigned()) {
            clicks.add(new AttributionOracle.Click(String.format("k%05d", i++), w.leadId(c.leadEmail()), c.at(), c.organic(),
                    c.organic() ? "" : c.source().platform(), c.organic() ? "" : c.creditedAd(), ""));
        }
        List<AttributionOracle.Sale> sales = w.sales.stream()
                .map(s -> new AttributionOracle.Sale(s.id(), s.leadId(), s.at(), s.cents(), s.recurring(), s.first())).toList();
        List<AttributionOracle.Spend> spend = new ArrayList<>();
        customCost(w.data, from, to).forEach((ad, days) -> days.forEach((day, cents) -> spend.add(new AttributionOracle.Spend(ad, day, cents))));
        return new AttributionOracle.Data(ads, clicks, sales, spend);
    }

    /** The ROAS result expected, or null when the entity has no row. */
    static Map<String, Object> expectedRoas(Written w, String id, String level, String basis, LocalDate from, LocalDate to) {
        ZoneId zone = w.data.zone;
        Instant start = from.atStartOfDay(zone).toInstant();
        Instant end = to.plusDays(1).atStartOfDay(zone).toInstant().minusSeconds(1);
        AttributionOracle.Opts opts = new AttributionOracle.Opts("all_customers", false, "source_link", basis.equals("click_date"),
                false, null, Set.of(), null);
        Map<String, Map<String, Object>> rows = AttributionOracle.compute(oracleData(w, from, to), depth(level), "last_click",
                "prioritize_paid", 0, start, end, from, to, opts);
        Map<String, Object> row = rows.get(id);
        if (row == null) {
            return null;
        }
        BigDecimal cost = (BigDecimal) row.get("cost");
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", id);
        m.put("roas", row.get("roas"));
        m.put("new_customers_roas", cost.signum() == 0 ? null
                : ((BigDecimal) row.get("unique_customers_revenue")).divide(cost, 2, RoundingMode.HALF_UP));
        m.put("revenue", row.get("revenue"));
        m.put("recurring_revenue", row.get("recurring_revenue"));
        m.put("total_revenue", row.get("total_revenue"));
        m.put("cost", cost);
        m.put("unique_sales", row.get("unique_sales"));
        m.put("unique_customers", row.get("unique_customers"));
        m.put("reported_result", null); // no spend import: no platform-reported numbers
        m.put("reported_vs_revenue", null);
        return m;
    }

    /** Credited click of a sale under the fixed preset (prioritize_paid, no window): last or first by time. */
    static Click credited(Written w, Sale s, boolean last) {
        List<Click> candidates = w.assigned().stream()
                .filter(c -> w.leadId(c.leadEmail()).equals(s.leadId()) && !c.at().isAfter(s.at())).toList();
        boolean anyPaid = candidates.stream().anyMatch(c -> !c.organic());
        List<Click> pool = candidates.stream().filter(c -> !anyPaid || !c.organic()).toList();
        if (pool.isEmpty()) {
            return null;
        }
        return last ? pool.get(pool.size() - 1) : pool.get(0);
    }

    /** Days of the curve: custom cost spend of the entity per day, new customers per credited click day. */
    static List<CacCurveBuilder.Day> curveDays(Written w, Predicate<Ad> member, boolean last, LocalDate from, LocalDate to) {
        ZoneId zone = w.data.zone;
        Instant start = from.atStartOfDay(zone).toInstant();
        Instant end = to.plusDays(1).atStartOfDay(zone).toInstant().minusSeconds(1);
        Map<LocalDate, long[]> days = new HashMap<>();
        Set<String> entries = new HashSet<>();
        w.ads.stream().filter(a -> a.entry() && member.test(a)).forEach(a -> entries.add(a.id()));
        customCost(w.data, from, to).forEach((ad, perDay) -> {
            if (entries.contains(ad)) {
                perDay.forEach((day, cents) -> days.computeIfAbsent(day, k -> new long[2])[0] += cents);
            }
        });
        Map<String, Object[]> firsts = new HashMap<>();
        for (Sale s : w.sales) {
            if (!s.first()) {
                continue;
            }
            Click c = credited(w, s, last);
            if (c == null || c.organic() || w.ads.stream().noneMatch(a -> a.id().equals(c.creditedAd()) && member.test(a))) {
                continue;
            }
            Object[] prev = firsts.get(s.leadId());
            if (prev == null || s.at().isBefore(((Sale) prev[0]).at())) {
                firsts.put(s.leadId(), new Object[]{s, c});
            }
        }
        for (Object[] p : firsts.values()) {
            Instant at = ((Click) p[1]).at();
            if (!at.isBefore(start) && !at.isAfter(end)) {
                days.computeIfAbsent(LocalDate.ofInstant(at, zone), k -> new long[2])[1]++;
            }
        }
        List<CacCurveBuilder.Day> out = new ArrayList<>();
        days.forEach((d, v) -> out.add(new CacCurveBuilder.Day(d, v[0], v[1])));
        return out;
    }

    /** The entities of an account: [id, level] at every level, for both platforms. */
    static List<String[]> entities(Written w) {
        List<String[]> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (Ad a : w.ads) {
            out.add(new String[]{a.id(), "ad"});
            if (!a.set().isEmpty() && seen.add("s" + a.set())) {
                out.add(new String[]{a.set(), "source_link"});
            }
            if (!a.campaign().isEmpty() && seen.add("c" + a.campaign())) {
                out.add(new String[]{a.campaign(), "campaign"});
            }
            if (seen.add("a" + a.account())) {
                out.add(new String[]{a.account(), "account"});
            }
        }
        return out;
    }

    // ---------------------------------------------------------------- the checks

    private JsonNode roas(Written w, String id, String level, LocalDate from, LocalDate to, String basis) {
        Response r = get(w.key, "/api/v1.0/attribution/roas?id=" + enc(id) + "&level=" + level + "&startDate=" + from + "&endDate=" + to
                + "&basis=" + basis);
        assertEquals(200, r.status(), "seed " + w.data.seed + " roas " + level + " " + id + ": " + r.raw());
        assertTrue(r.body().has("request_id"), r.raw());
        return r.body();
    }

    private static void assertRoas(Map<String, Object> want, JsonNode body, String label) {
        if (want == null) {
            assertFalse(body.has("result"), label + ": expected no row: " + body);
            return;
        }
        JsonNode got = body.get("result");
        assertNotNull(got, label + ": expected a row " + want + ": " + body);
        assertEquals(new ArrayList<>(want.keySet()), RoasReportTest.fieldNames(got), label + ": " + got);
        for (var m : want.entrySet()) {
            if (m.getKey().equals("id")) {
                assertEquals(m.getValue(), got.get("id").asText(), label);
            } else if (m.getValue() instanceof Long n) {
                assertEquals((long) n, got.get(m.getKey()).asLong(), label + " " + m.getKey() + ": " + got + " want " + want);
            } else {
                RoasReportTest.money(m.getValue() == null ? null : m.getValue().toString(), got.get(m.getKey()),
                        label + " " + m.getKey() + ": " + got + " want " + want);
            }
        }
    }

    @Test
    void roasAtEveryLevelBothBasesMatchesTheOracle() {
        int rows = 0;
        int withCost = 0;
        int withSales = 0;
        for (Written w : accounts) {
            LocalDate today = w.data.today;
            // the whole history is read by sourceEntryCarriesTheCustomCostsAndRealAdsNone and the journey ids' feed-back
            LocalDate[][] ranges = {{today.minusDays(40), today.minusDays(12)}, {today.minusDays(22), today.minusDays(22)}};
            for (String[] e : entities(w)) {
                for (LocalDate[] range : ranges) {
                    for (String basis : List.of("click_date", "sale_date")) {
                        String label = "seed " + w.data.seed + " " + e[1] + " " + e[0] + " " + range[0] + ".." + range[1] + " " + basis;
                        Map<String, Object> want = expectedRoas(w, e[0], e[1], basis, range[0], range[1]);
                        assertRoas(want, roas(w, e[0], e[1], range[0], range[1], basis), label);
                        if (want != null) {
                            rows++;
                            withCost += ((BigDecimal) want.get("cost")).signum() > 0 ? 1 : 0;
                            withSales += (Long) want.get("unique_sales") > 0 ? 1 : 0;
                        }
                    }
                }
            }
            // an ad only unassigned clicks name exists (no 400) and has no row
            assertRoas(null, roas(w, w.data.lonelyAd, "ad", today.minusDays(60), today.minusDays(1), "click_date"), "lonely ad");
        }
        // not vacuous: most calls have a row, with custom costs and credited sales
        assertTrue(rows > 60 && withCost > 30 && withSales > 30, rows + " rows, " + withCost + " with cost, " + withSales + " with sales");
    }

    @Test
    void sourceEntryCarriesTheCustomCostsAndRealAdsNone() {
        for (Written w : accounts) {
            LocalDate from = w.data.today.minusDays(60);
            LocalDate to = w.data.today.minusDays(1);
            Map<String, Map<LocalDate, Long>> costs = customCost(w.data, from, to);
            for (Source s : w.data.sources) {
                if (!s.paid()) {
                    continue;
                }
                long want = costs.getOrDefault(s.adSourceId(), Map.of()).values().stream().mapToLong(Long::longValue).sum();
                assertTrue(want > 0, "every paid source carries a custom cost in the range: seed " + w.data.seed + " " + s.key());
                JsonNode entry = roas(w, s.adSourceId(), "ad", from, to, "click_date").get("result");
                assertNotNull(entry, "source entry " + s.adSourceId());
                RoasReportTest.money(BigDecimal.valueOf(want, 2).toString(), entry.get("cost"), "entry cost " + entry);
                String above = s.campaignLevel() ? "campaign" : "source_link";
                JsonNode set = roas(w, s.adSourceId(), above, from, to, "click_date").get("result");
                RoasReportTest.money(BigDecimal.valueOf(want, 2).toString(), set.get("cost"), "ad set / campaign cost = its entry's " + set);
                for (String ad : s.ads()) {
                    if (w.ads.stream().anyMatch(a -> a.id().equals(ad))) {
                        JsonNode real = roas(w, ad, "ad", from, to, "click_date").get("result");
                        if (real != null) {
                            RoasReportTest.money("0", real.get("cost"), "a real ad gets no share of the source's custom costs " + real);
                        }
                    }
                }
            }
        }
    }

    @Test
    void marginalCacCurveAtEveryLevelMatchesTheOracle() {
        int curves = 0;
        int multiBucket = 0;
        int withCustomers = 0;
        java.util.Random rnd = new java.util.Random(42);
        for (Written w : accounts) {
            LocalDate from = w.data.today.minusDays(55);
            LocalDate to = w.data.today.minusDays(2);
            for (String[] e : entities(w)) {
                for (String model : List.of("first_click", "last_click")) {
                    String label = "seed " + w.data.seed + " curve " + e[1] + " " + e[0] + " " + model;
                    BigDecimal ceiling = BigDecimal.valueOf(1 + rnd.nextInt(20000), 2);
                    Response r = get(w.key, "/api/v1.0/attribution/marginal-cac-curve?id=" + enc(e[0]) + "&level=" + e[1]
                            + "&startDate=" + from + "&endDate=" + to + "&attributionModel=" + model + "&cacCeiling=" + ceiling);
                    assertEquals(200, r.status(), label + ": " + r.raw());
                    JsonNode got = r.body().get("result");
                    CacCurveBuilder.Curve want = CacCurveBuilder.build(curveDays(w, member(e[0], e[1]), model.equals("last_click"), from, to),
                            ceiling.movePointRight(2));
                    assertEquals(e[0], got.get("id").asText(), label);
                    assertEquals(e[1].toUpperCase(java.util.Locale.ROOT), got.get("level").asText(), label);
                    assertEquals(model.toUpperCase(java.util.Locale.ROOT), got.get("attributionModel").asText(), label);
                    if (e[1].equals("account")) {
                        assertTrue(got.get("name").isNull(), label + ": " + got);
                    }
                    // the ad set (LinkedIn: the campaign) and the source entry are named after the source (design-hierarchy.md)
                    w.data.sources.stream().filter(x -> e[0].equals(x.adSourceId()) && !e[1].equals("account")
                                    && (x.campaignLevel() || !e[1].equals("campaign")))
                            .findFirst().ifPresent(x -> assertEquals(x.name(), got.get("name").asText(), label + " name: " + got));
                    assertEquals(want.daysSampled(), got.get("daysSampled").asInt(), label + ": " + got);
                    assertEquals(want.buckets().size(), got.get("curve").size(), label + ": " + got);
                    for (int b = 0; b < want.buckets().size(); b++) {
                        CacCurveBuilder.Bucket x = want.buckets().get(b);
                        JsonNode g = got.get("curve").get(b);
                        RoasReportTest.money(x.spendPerDay().toString(), g.get("spendPerDay"), label + " spendPerDay " + got);
                        assertEquals(x.days(), g.get("days").asInt(), label + ": " + got);
                        assertEquals(x.newCustomers(), g.get("newCustomers").asLong(), label + " newCustomers: " + got);
                        RoasReportTest.money(x.avgCac() == null ? null : x.avgCac().toString(), g.get("avgCac"), label + " avgCac");
                        RoasReportTest.money(x.marginalCac() == null ? null : x.marginalCac().toString(), g.get("marginalCac"), label + " marginalCac");
                    }
                    if (want.saturation() == null) {
                        assertTrue(got.get("saturationPoint").isNull(), label + ": " + got);
                    } else {
                        assertEquals(want.saturation().reason(), got.get("saturationPoint").get("reason").asText(), label + ": " + got);
                        RoasReportTest.money(want.saturation().efficientSpendPerDay().toString(),
                                got.get("saturationPoint").get("efficientSpendPerDay"), label);
                    }
                    List<String> notes = new ArrayList<>();
                    got.get("notes").forEach(n -> notes.add(n.asText()));
                    assertEquals(want.notes(), notes, label + ": " + got);
                    RoasReportTest.money(ceiling.toString(), got.get("cacCeiling"), label);
                    assertEquals("CALLER_PROVIDED", got.get("ceilingBasis").asText(), label);
                    curves++;
                    multiBucket += want.buckets().size() >= 2 ? 1 : 0;
                    withCustomers += want.buckets().stream().anyMatch(x -> x.newCustomers() > 0) ? 1 : 0;
                }
            }
        }
        assertTrue(curves > 40 && multiBucket > 20 && withCustomers > 10, curves + " curves, " + multiBucket + " with 2+ buckets, "
                + withCustomers + " with new customers");
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
