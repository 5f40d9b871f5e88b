package dev.attribution.server.reports;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.server.support.ApiTest;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * The seeded random accounts of {@link ApiWrittenAttributionTest}, planned from a seed and written only through the
 * public API, as an integration partner writes them: POST /sources (FACEBOOK ad sets, GOOGLE ad groups, organic and
 * hand-made sources), POST /clicks (email, phones only, with and without an ad id, dates with {@code Z},
 * {@code +02:00}, {@code -05:00} and no offset), POST /orders (several items, rebills, hard costs, shipping, taxes),
 * DELETE /orders/{id} (refunds, whole and partial), POST /calls and POST /custom-costs (DAILY with and without end,
 * ONE_TIME), PUT /leads (stages) and a spend file for POST /ad-spend/import ({@link #extend}: spend per ad and day,
 * keywords, a GOOGLE_V2 ad group). No SQL, no seed.
 *
 * <p>After the writes have reached ClickHouse, {@link DataSet#readBack} reads what the API derived (sale ids, the money
 * split of the orders, refunds, first-sale flags) through GET /sales and GET /conversion-paths and builds the
 * {@link AttributionOracle}'s input from what was written plus those values. The same seed gives the same plan.
 */
final class ApiWrittenDataGenerator {

    /** Sends one request of the test (method, path with query, JSON body or null). */
    interface Http {
        ApiTest.Response send(String method, String path, String json);
    }

    static final String FACEBOOK = "FACEBOOK";
    static final String GOOGLE = "GOOGLE";
    static final String GOOGLE_V2 = "GOOGLE_V2";
    static final String TIKTOK = "TIKTOK";
    static final String SNAPCHAT = "SNAPCHAT";

    /**
     * A source: {@code platform} "" for organic and hand-made ones; {@code adSourceId} the ad set / ad group id;
     * {@code campaignId} "" when not sent (GOOGLE only); {@code adIds} the ads its clicks may name; {@code late}: created
     * after its first clicks (the hierarchy must come out the same); {@code imported}: a GOOGLE_V2 ad group no source
     * can name (POST /sources has no GOOGLE_V2): its ad account and campaign come from the spend file alone.
     */
    record Source(String name, String platform, String adSourceId, String adAccountId, String campaignId, boolean organic,
                  boolean late, List<String> adIds, boolean imported) {
        Source(String name, String platform, String adSourceId, String adAccountId, String campaignId, boolean organic,
               boolean late, List<String> adIds) {
            this(name, platform, adSourceId, adAccountId, campaignId, organic, late, adIds, false);
        }

        String tag() {
            return "@" + name;
        }

        boolean paid() {
            return !platform.isEmpty();
        }

        /**
         * A paid ad set no source names (no ad account): only clicks carry it, as a partner's tracking may before
         * (or without) setting the source up. It is registered with blank parents (design: "when unknown they stay ''").
         */
        boolean ghost() {
            return paid() && adAccountId.isEmpty();
        }

        /** A source POST /sources creates (not an ad set no source names, not an imported GOOGLE_V2 ad group). */
        boolean written() {
            return !ghost() && !imported;
        }
    }

    /** A lead as the partner knows it: an email (null: phones only) and phone numbers. */
    record Lead(String email, List<String> phones) {
    }

    /**
     * A click: its lead (index), source, ad id ("" none), the date as sent, whether only phones identify the lead;
     * {@code keywordId}: the kwd- id its URL's {@code targetid} carries ("" none; docs "Keyword levels").
     */
    record Click(int lead, Source source, String adId, String date, boolean byPhone, String keywordId) {
        Click(int lead, Source source, String adId, String date, boolean byPhone) {
            this(lead, source, adId, date, byPhone, "");
        }
    }

    /** An order item; {@code cogsCents}: its cost of goods per unit (included in the price, subtracted by excludeHardCosts). */
    record Item(String name, long unitCents, int quantity, boolean rebill, long cogsCents) {
        Item(String name, long unitCents, int quantity, boolean rebill) {
            this(name, unitCents, quantity, rebill, 0);
        }
    }

    /** A line of the spend file (POST /ad-spend/import): an ad's spend of one day, sometimes a keyword of its ad group. */
    record SpendLine(Source source, String adId, LocalDate day, long cents, String keywordId) {
    }

    /** An order; {@code refund}: DELETE /orders/{id} follows, with {@code refundCents} (null: the whole order). */
    record Order(int lead, String orderId, String date, List<Item> items, long hardCents, long shippingCents, long taxCents,
                 boolean refund, Long refundCents) {
        long total() {
            long t = shippingCents + taxCents;
            for (Item i : items) {
                t += i.unitCents() * i.quantity();
            }
            return t;
        }

        /**
         * What excludeHardCosts subtracts from the sales of its recurring ({@code rebill} true) or one-time items:
         * their shares of the order's taxes and shipping (spread evenly, the first items taking the odd cents, as
         * {@code OrderSplit}) and their cost of goods. Per class, as all sales of an order share lead and date.
         */
        long deductions(boolean rebill) {
            long[] tax = AttributionOracle.split(taxCents, items.size());
            long[] ship = AttributionOracle.split(shippingCents, items.size());
            long sum = 0;
            for (int i = 0; i < items.size(); i++) {
                if (items.get(i).rebill() == rebill) {
                    sum += tax[i] + ship[i] + items.get(i).cogsCents() * items.get(i).quantity();
                }
            }
            return sum;
        }
    }

    record Call(int lead, String date, String state) {
    }

    record Cost(boolean daily, String start, String end, long cents, List<String> tags) {
    }

    /** One planned account, then its written ids, then (after {@link #readBack}) the oracle's input. */
    static final class DataSet {
        final int seed;
        String accountId;
        String key;
        /** The account's time zone (report bounds and date buckets; writes without an offset are UTC whatever it is). */
        java.time.ZoneId zone = ZoneOffset.UTC;
        final List<Source> sources = new ArrayList<>();
        final List<Lead> leads = new ArrayList<>();
        final List<Click> clicks = new ArrayList<>();
        final List<Order> orders = new ArrayList<>();
        final List<Call> calls = new ArrayList<>();
        final List<Cost> costs = new ArrayList<>();
        /** Tags of sources deleted (DELETE /sources/{tag}) after everything else was written. */
        final Set<String> deleted = new LinkedHashSet<>();
        /** Each lead's stage ("" none), applied by PUT /leads after the other writes. */
        final List<String> stages = new ArrayList<>();
        /** The spend file, imported before every other write ({@link #importFirst}) or after all of them. */
        final List<SpendLine> spend = new ArrayList<>();
        boolean importFirst;
        /** Read back: lead index → lead id. */
        final Map<Integer, String> leadIdOf = new HashMap<>();
        /** Written: the click id and lead id of each click, in plan order. */
        final List<String> clickIds = new ArrayList<>();
        final List<String> clickLeads = new ArrayList<>();
        /** Read back: every sale of the account (oracle form) and the click → lead ids. */
        final List<AttributionOracle.Sale> sales = new ArrayList<>();
        final List<AttributionOracle.Click> oracleClicks = new ArrayList<>();
        final List<AttributionOracle.Call> oracleCalls = new ArrayList<>();

        DataSet(int seed) {
            this.seed = seed;
        }

        /** The sources created on {@code platform} (not the ad sets no source names). */
        List<Source> paidSources(String platform) {
            return sources.stream().filter(s -> s.platform().equals(platform) && s.written()).toList();
        }

        /** The spend file (CSV). */
        String spendFile() {
            StringBuilder b = new StringBuilder("platform,ad_account_id,campaign_id,ad_set_id,ad_id,date,spend,keyword_id,keyword,match_type\n");
            for (SpendLine l : spend) {
                Source s = l.source();
                b.append(s.platform()).append(',').append(s.adAccountId()).append(',').append(s.campaignId()).append(',').append(s.adSourceId())
                        .append(',').append(l.adId()).append(',').append(l.day()).append(',').append(money(l.cents())).append(',')
                        .append(l.keywordId()).append(',').append(l.keywordId().isEmpty() ? "" : "keyword " + l.keywordId()).append(',')
                        .append(l.keywordId().isEmpty() ? "" : "PHRASE").append('\n');
            }
            return b.toString();
        }

        /** The registered keywords of {@code platform} as {@code <adGroupId>:<keywordId>}. */
        Set<String> keywords(String platform) {
            Set<String> out = new LinkedHashSet<>();
            spend.stream().filter(l -> l.source().platform().equals(platform) && !l.keywordId().isEmpty())
                    .forEach(l -> out.add(l.source().adSourceId() + ":" + l.keywordId()));
            return out;
        }

        /** The leads (ids) whose stage is one of {@code stageNames} (comma-separated, any case); null for "" (no filter). */
        Set<String> stageLeads(String stageNames) {
            if (stageNames.isEmpty()) {
                return null;
            }
            Set<String> wanted = new HashSet<>();
            for (String n : stageNames.split(",")) {
                wanted.add(n.trim().toLowerCase(java.util.Locale.ROOT));
            }
            Set<String> out = new HashSet<>();
            for (int l = 0; l < stages.size(); l++) {
                if (!stages.get(l).isEmpty() && wanted.contains(stages.get(l).toLowerCase(java.util.Locale.ROOT)) && leadIdOf.containsKey(l)) {
                    out.add(leadIdOf.get(l));
                }
            }
            return out;
        }

        /** The spend file's spend of {@code platform}'s ads in oracle form. */
        List<AttributionOracle.Spend> importedSpend(String platform) {
            return spend.stream().filter(l -> platform.isEmpty() || l.source().platform().equals(platform))
                    .map(l -> new AttributionOracle.Spend(l.adId(), l.day(), l.cents())).toList();
        }

        /** The ads of the account on {@code platform} ("" = every platform): source entries, then the clicked ads. */
        List<AttributionOracle.Ad> ads(String platform) {
            Map<String, AttributionOracle.Ad> out = new LinkedHashMap<>();
            for (Source s : sources) {
                if (s.paid() && s.written() && (platform.isEmpty() || s.platform().equals(platform))) {
                    out.put(s.adSourceId(), new AttributionOracle.Ad(s.adSourceId(), s.adSourceId(), s.campaignId(), s.adAccountId()));
                }
            }
            // the ads of the spend file (some no click names), under the parents the file gives
            for (SpendLine l : spend) {
                Source s = l.source();
                if (platform.isEmpty() || s.platform().equals(platform)) {
                    out.putIfAbsent(l.adId(), new AttributionOracle.Ad(l.adId(), s.adSourceId(), s.campaignId(), s.adAccountId()));
                }
            }
            for (Click c : clicks) {
                Source s = c.source();
                if (s.paid() && (platform.isEmpty() || s.platform().equals(platform))) {
                    // an ad, or (a click without one) the entry of an ad set no source names
                    String ad = c.adId().isEmpty() ? s.adSourceId() : c.adId();
                    out.putIfAbsent(ad, new AttributionOracle.Ad(ad, s.adSourceId(), s.campaignId(), s.adAccountId()));
                }
            }
            return List.copyOf(out.values());
        }

        /** The custom costs in oracle form (wall-clock days: the offset sent is discarded). */
        List<AttributionOracle.CustomCost> oracleCosts() {
            return costs.stream().map(c -> new AttributionOracle.CustomCost(c.daily(), wallDay(c.start()),
                    c.end() == null ? null : wallDay(c.end()), c.cents(), c.tags())).toList();
        }

        /** The oracle's input for reports on {@code platform} ("" = every platform, the ad-account endpoint) and the days. */
        AttributionOracle.Data data(String platform, LocalDate fromDay, LocalDate toDay) {
            Map<String, List<String>> entries = new HashMap<>();
            for (Source s : sources) {
                // only live sources take custom costs ("The ad hierarchy the API writes": DELETE /sources)
                if (s.paid() && s.written() && !deleted.contains(s.tag()) && (platform.isEmpty() || s.platform().equals(platform))) {
                    entries.computeIfAbsent(s.tag(), k -> new ArrayList<>()).add(s.adSourceId());
                }
            }
            List<AttributionOracle.Spend> all = new ArrayList<>(AttributionOracle.customCostSpend(oracleCosts(), entries, fromDay, toDay));
            all.addAll(importedSpend(platform));
            return new AttributionOracle.Data(ads(platform), oracleClicks, sales, all, oracleCalls);
        }

        /**
         * Reads back what the API derived and checks it against what was written: GET /sales (every sale of every
         * order, its lead, price, hard cost, refund, recurring flag) and GET /conversion-paths (the first-sale flag, and
         * the clicks ClickHouse holds for each sale and lead). Fills {@link #sales} and {@link #oracleClicks}.
         */
        void readBack(Http http, java.util.function.BiConsumer<Boolean, String> check) {
            Map<Integer, String> leadIds = new HashMap<>();
            for (int i = 0; i < clicks.size(); i++) {
                Click c = clicks.get(i);
                String lead = clickLeads.get(i);
                check.accept(lead != null && !lead.isEmpty(), "seed " + seed + " click " + i + " has a lead");
                String known = leadIds.putIfAbsent(c.lead(), lead);
                check.accept(known == null || known.equals(lead), "seed " + seed + " the clicks of lead " + c.lead()
                        + " (email " + leads.get(c.lead()).email() + ", phones " + leads.get(c.lead()).phones() + ") reach one lead: "
                        + known + " vs " + lead);
                oracleClicks.add(new AttributionOracle.Click(clickIds.get(i), lead, instant(c.date()), c.source().organic(),
                        c.source().platform(), c.source().paid() ? (c.adId().isEmpty() ? c.source().adSourceId() : c.adId()) : "",
                        c.source().imported() ? "" : c.source().tag(), c.keywordId()));
            }
            List<JsonNode> apiSales = all(http, "/api/v1.0/sales?pageSize=250");
            Map<String, JsonNode> byOrder = new HashMap<>();
            Map<String, List<JsonNode>> salesOfOrder = new HashMap<>();
            for (JsonNode s : apiSales) {
                salesOfOrder.computeIfAbsent(s.get("orderId").asText(), k -> new ArrayList<>()).add(s);
            }
            Map<String, JsonNode> paths = new HashMap<>();
            for (JsonNode p : all(http, "/api/v1.0/conversion-paths?conversionType=SALE&pageSize=250")) {
                paths.put(p.get("id").asText(), p);
            }
            check.accept(paths.size() == apiSales.size(), "seed " + seed + ": " + apiSales.size() + " sales in GET /sales, "
                    + paths.size() + " in GET /conversion-paths (ClickHouse)");
            int expectedSales = 0;
            // the documented first-sale rule: the non-recurring sales of the lead's earliest order that has one
            Map<Integer, Order> firstOrder = new HashMap<>();
            for (Order o : orders) {
                expectedSales += o.items().size();
                if (o.items().stream().anyMatch(i -> !i.rebill())) {
                    firstOrder.merge(o.lead(), o, (a, b) -> instant(a.date()).isBefore(instant(b.date()))
                            || instant(a.date()).equals(instant(b.date())) && a.orderId().compareTo(b.orderId()) < 0 ? a : b);
                }
            }
            check.accept(expectedSales == apiSales.size(), "seed " + seed + ": " + expectedSales + " items written, "
                    + apiSales.size() + " sales in GET /sales");
            for (Order o : orders) {
                List<JsonNode> got = salesOfOrder.getOrDefault(o.orderId(), List.of());
                String label = "seed " + seed + " order " + o.orderId();
                check.accept(got.size() == o.items().size(), label + ": one sale per item, got " + got.size());
                long total = 0;
                long refunded = 0;
                long hard = 0;
                int rebills = 0;
                Instant at = instant(o.date());
                // excludeHardCosts: each class's deductions on its first sale (the class's sales share row and bucket)
                Set<Boolean> deducted = new HashSet<>();
                for (JsonNode s : got) {
                    long cents = cents(s.get("price").get("price"));
                    long refund = cents(s.get("price").get("refunded"));
                    long hardCents = cents(s.get("price").get("hardCost"));
                    boolean recurring = s.get("recurring").asBoolean();
                    boolean isRefunded = s.hasNonNull("refundDate");
                    String leadId = s.get("lead").get("id").asText();
                    String known = leadIds.putIfAbsent(o.lead(), leadId);
                    check.accept(known == null || known.equals(leadId), label + ": the sale's lead " + leadId + " is the lead of its clicks " + known);
                    JsonNode path = paths.get("sle-" + s.get("id").asText());
                    check.accept(path != null, label + ": sale " + s.get("id").asText() + " in GET /conversion-paths");
                    if (path == null) {
                        continue;
                    }
                    boolean first = path.get("firstSale").asBoolean();
                    check.accept(first == (!recurring && firstOrder.get(o.lead()) == o), label + ": firstSale " + first
                            + " (documented rule: the non-recurring sales of the lead's earliest order)");
                    check.accept(cents(path.get("price").get("refunded")) == refund, label + ": the refund reached ClickHouse");
                    Set<String> want = new LinkedHashSet<>();
                    // GET /conversion-paths shows the clicks that carry a source tag (the GOOGLE_V2 clicks carry none)
                    for (AttributionOracle.Click c : oracleClicks) {
                        if (c.leadId().equals(leadId) && !c.at().isAfter(at) && !c.tag().isEmpty()) {
                            want.add(c.id());
                        }
                    }
                    Set<String> touches = new LinkedHashSet<>();
                    path.get("path").forEach(t -> touches.add(t.get("clickId").asText()));
                    check.accept(want.equals(touches), label + ": the sale's touches in ClickHouse " + touches + ", written " + want);
                    total += cents;
                    refunded += refund;
                    hard += hardCents;
                    rebills += recurring ? 1 : 0;
                    long deductions = deducted.add(recurring) ? o.deductions(recurring) : 0;
                    sales.add(new AttributionOracle.Sale(s.get("id").asText(), leadId, at, cents, recurring, first, deductions, isRefunded, refund, hardCents));
                    check.accept(isRefunded == o.refund(), label + ": refunded " + isRefunded);
                }
                check.accept(total == o.total(), label + ": the sales add up to the order, " + total + " vs " + o.total());
                check.accept(hard == o.hardCents(), label + ": hard costs add up, " + hard + " vs " + o.hardCents());
                check.accept(rebills == o.items().stream().filter(Item::rebill).count(), label + ": one recurring sale per isRebill item");
                check.accept(refunded == (!o.refund() ? 0 : o.refundCents() == null ? o.total() : o.refundCents()),
                        label + ": refunded " + refunded);
            }
            leadIdOf.putAll(leadIds);
            // calls: at most one per lead in the plan, so matched by lead; GET /calls gives id, qualified flag and state
            List<JsonNode> apiCalls = all(http, "/api/v1.0/calls?pageSize=250");
            check.accept(apiCalls.size() == calls.size(), "seed " + seed + ": " + calls.size() + " calls written, " + apiCalls.size() + " in GET /calls");
            for (Call c : calls) {
                String lead = leadIds.get(c.lead());
                JsonNode got = apiCalls.stream().filter(x -> x.path("lead").path("id").asText().equals(lead)).findFirst().orElse(null);
                check.accept(got != null, "seed " + seed + ": the call of lead " + lead + " in GET /calls");
                if (got != null) {
                    check.accept(c.state().equals(got.path("state").asText()), "seed " + seed + ": call state " + got.path("state"));
                    oracleCalls.add(new AttributionOracle.Call(got.get("id").asText(), lead, instant(c.date()), got.path("qualified").asBoolean(),
                            got.path("state").asText()));
                }
            }
            int callPaths = all(http, "/api/v1.0/conversion-paths?conversionType=CALL&pageSize=250").size();
            check.accept(callPaths == calls.size(), "seed " + seed + ": " + callPaths + " calls in GET /conversion-paths (ClickHouse)");
            // every tagged click of every lead reached ClickHouse (a lead's path holds its clicks up to its creation: all of them)
            Map<String, JsonNode> leadPaths = new HashMap<>();
            for (JsonNode p : all(http, "/api/v1.0/conversion-paths?conversionType=LEAD&pageSize=250")) {
                leadPaths.put(p.get("leadId").asText(), p);
            }
            Set<String> planned = new LinkedHashSet<>(leadIds.values());
            check.accept(planned.equals(leadPaths.keySet()), "seed " + seed + ": leads in ClickHouse " + leadPaths.keySet() + ", written " + planned);
            for (String lead : planned) {
                Set<String> want = new LinkedHashSet<>();
                oracleClicks.stream().filter(c -> c.leadId().equals(lead) && !c.tag().isEmpty()).forEach(c -> want.add(c.id()));
                Set<String> got = new LinkedHashSet<>();
                JsonNode p = leadPaths.get(lead);
                if (p != null) {
                    p.get("path").forEach(t -> got.add(t.get("clickId").asText()));
                }
                check.accept(want.equals(got), "seed " + seed + " lead " + lead + ": clicks in ClickHouse " + got + ", written " + want);
            }
        }
    }

    private ApiWrittenDataGenerator() {
    }

    static final String[] OFFSETS = {"Z", "+02:00", "-05:00", ""};
    static final List<String> PRODUCTS = List.of("Product A", "Product B", "Product C", "Product D");
    /** Data lie in 2026-10-20 .. 2026-11-19 (UTC); the reports ask ranges inside and around it. */
    static final Instant BASE = Instant.parse("2026-10-20T00:00:00Z");
    static final int SPAN_DAYS = 31;

    /** The plan of one account from its seed. */
    static DataSet plan(int seed) {
        Random rnd = new Random(seed * 7919L + 17);
        DataSet d = new DataSet(seed);
        String p = "s" + seed;
        // FACEBOOK: one or two ad accounts, a campaign or two each, two or three ad sets each
        int fbAccounts = 1 + rnd.nextInt(2);
        int set = 0;
        for (int a = 0; a < fbAccounts; a++) {
            String acct = p + "-fbacct" + a;
            int campaigns = 1 + rnd.nextInt(2);
            for (int c = 0; c < campaigns; c++) {
                String camp = p + "-fbcamp" + a + c;
                int sets = 1 + rnd.nextInt(2);
                for (int s = 0; s < sets; s++, set++) {
                    String adSet = p + "-fbset" + set;
                    List<String> ads = new ArrayList<>();
                    for (int x = rnd.nextInt(3); x > 0; x--) {
                        ads.add(adSet + "-ad" + x);
                    }
                    d.sources.add(new Source(p + "-fb" + set, FACEBOOK, adSet, acct, camp, false, rnd.nextInt(4) == 0, ads));
                }
            }
        }
        if (rnd.nextBoolean()) {
            String adSet = p + "-fbghost";
            d.sources.add(new Source(p + "-ghost", FACEBOOK, adSet, "", "", false, false, rnd.nextBoolean() ? List.of(adSet + "-ad1") : List.of()));
        }
        // GOOGLE: one ad account (sometimes the id of a FACEBOOK one: GET /attribution/ad-account then covers both
        // platforms' ads, section "Options"), ad groups with and without a campaign
        String gAcct = rnd.nextInt(4) == 0 ? p + "-fbacct0" : p + "-gacct";
        int groups = 2 + rnd.nextInt(2);
        for (int g = 0; g < groups; g++) {
            String group = p + "-gadgroup" + g;
            String camp = rnd.nextInt(4) == 0 ? "" : p + "-gcamp" + rnd.nextInt(2);
            List<String> ads = new ArrayList<>();
            for (int x = rnd.nextInt(3); x > 0; x--) {
                ads.add(group + "-ad" + x);
            }
            d.sources.add(new Source(p + "-g" + g, GOOGLE, group, gAcct, camp, false, rnd.nextInt(4) == 0, ads));
        }
        int organic = 1 + rnd.nextInt(2);
        for (int o = 0; o < organic; o++) {
            d.sources.add(new Source(p + "-organic" + o, "", "", "", "", true, false, List.of()));
        }
        d.sources.add(new Source(p + "-hand", "", "", "", "", false, false, List.of()));

        int leads = 5 + rnd.nextInt(4);
        for (int l = 0; l < leads; l++) {
            int kind = rnd.nextInt(4);
            String email = kind == 0 ? null : "l" + l + "-" + p + "@api-oracle.test";
            List<String> phones = kind == 0 || kind == 1 ? List.of("+1 555 " + String.format("%03d", seed % 1000) + " " + String.format("%04d", l))
                    : List.of();
            d.leads.add(new Lead(email, phones));
        }
        for (int l = 0; l < leads; l++) {
            Lead lead = d.leads.get(l);
            int n = rnd.nextInt(6);
            Instant previous = null;
            for (int i = 0; i < n; i++) {
                Source s = pickSource(rnd, d.sources);
                String ad = s.adIds().isEmpty() || rnd.nextBoolean() ? "" : s.adIds().get(rnd.nextInt(s.adIds().size()));
                // sometimes the same second as the lead's previous click: the tie on click id
                Instant at = previous != null && rnd.nextInt(6) == 0 ? previous : BASE.plusSeconds(rnd.nextInt(SPAN_DAYS * 86400));
                previous = at;
                boolean byPhone = lead.email() == null || !lead.phones().isEmpty() && i > 0 && rnd.nextBoolean();
                d.clicks.add(new Click(l, s, ad, format(at, OFFSETS[rnd.nextInt(OFFSETS.length)], rnd), byPhone));
            }
            int m = rnd.nextInt(4);
            int lead0 = l;
            for (int i = 0; i < m; i++) {
                List<Item> items = new ArrayList<>();
                int k = 1 + rnd.nextInt(3);
                for (int j = 0; j < k; j++) {
                    items.add(new Item(PRODUCTS.get(rnd.nextInt(PRODUCTS.size())), 100 + rnd.nextInt(30000), rnd.nextInt(4) == 0 ? 2 : 1,
                            rnd.nextInt(4) == 0));
                }
                long hard = rnd.nextInt(3) == 0 ? 1 + rnd.nextInt(900) : 0;
                long shipping = rnd.nextInt(4) == 0 ? rnd.nextInt(1000) : 0;
                long taxes = rnd.nextInt(4) == 0 ? rnd.nextInt(2000) : 0;
                boolean refund = rnd.nextInt(4) == 0;
                // sometimes in the very second of one of the lead's clicks: "at or before" includes it
                List<Click> own = d.clicks.stream().filter(c -> c.lead() == lead0).toList();
                Instant when = !own.isEmpty() && rnd.nextInt(5) == 0 ? instant(own.get(rnd.nextInt(own.size())).date())
                        : BASE.plusSeconds(rnd.nextInt(SPAN_DAYS * 86400));
                Order o = new Order(l, p + "-o" + l + "-" + i, format(when, OFFSETS[rnd.nextInt(OFFSETS.length)], rnd),
                        items, hard, shipping, taxes, refund, null);
                if (refund && rnd.nextBoolean()) {
                    o = new Order(o.lead(), o.orderId(), o.date(), items, hard, shipping, taxes, true, 1 + (long) rnd.nextInt((int) o.total()));
                }
                d.orders.add(o);
            }
            if (lead.email() != null && n > 0 && rnd.nextInt(3) == 0) {
                d.calls.add(new Call(l, format(BASE.plusSeconds(rnd.nextInt(SPAN_DAYS * 86400)), "Z", rnd),
                        List.of("QUALIFIED", "UNQUALIFIED", "NO_SHOW").get(rnd.nextInt(3))));
            }
        }
        int costs = 2 + rnd.nextInt(3);
        for (int i = 0; i < costs; i++) {
            boolean daily = rnd.nextInt(3) != 0;
            LocalDate start = LocalDate.parse("2026-10-18").plusDays(rnd.nextInt(30));
            int days = rnd.nextInt(12);
            // the end's wall clock is never before the start's (the start's time is at most 23:15)
            String end = !daily ? null : rnd.nextInt(3) == 0 ? null : start.plusDays(days) + "T" + String.format("%02d", days == 0 ? 23 : rnd.nextInt(24))
                    + ":30:00" + OFFSETS[rnd.nextInt(OFFSETS.length)];
            List<String> tags = new ArrayList<>();
            int n = 1 + rnd.nextInt(3);
            while (tags.size() < n) {
                String tag = rnd.nextInt(10) == 0 ? "@" + p + "-nosuchsource" : d.sources.get(rnd.nextInt(d.sources.size())).tag();
                if (!tags.contains(tag)) {
                    tags.add(tag);
                }
            }
            String startText = rnd.nextInt(4) == 0 ? start.toString()
                    : start + "T" + String.format("%02d", rnd.nextInt(24)) + ":15:00" + OFFSETS[rnd.nextInt(OFFSETS.length)];
            d.costs.add(new Cost(daily, startText, end, 100 + rnd.nextInt(9000), tags));
        }
        if (rnd.nextInt(3) != 0) {
            List<Source> created = d.sources.stream().filter(x -> !x.ghost()).toList();
            d.deleted.add(created.get(rnd.nextInt(created.size())).tag());
        }
        extend(d, new Random(seed * 104729L + 3));
        return d;
    }

    /**
     * What the plan gained when AttributionPropertyTest's coverage moved here (issue 20), drawn from a Random of its
     * own so the rest of each plan stays as it was: lead stages (PUT /leads; lead_stage), items' cost of goods
     * (excludeHardCosts), a spend file (POST /ad-spend/import before or after everything else: cost, status) that
     * also registers keywords of the GOOGLE ad groups and of a GOOGLE_V2 ad group only clicks and the file name, and
     * clicks whose URL carries {@code targetid=kwd-…} (keyword levels).
     */
    private static void extend(DataSet d, Random x) {
        String p = "s" + d.seed;
        // only leads a click or an order created can be staged; the first two take Hot and Cold (lead_stage needs both)
        int staged = 0;
        for (int l = 0; l < d.leads.size(); l++) {
            int lead = l;
            boolean exists = d.clicks.stream().anyMatch(c -> c.lead() == lead) || d.orders.stream().anyMatch(o -> o.lead() == lead);
            String stage = List.of("Hot", "Cold", "").get(x.nextInt(3));
            d.stages.add(!exists ? "" : staged == 0 ? "Hot" : staged == 1 ? "Cold" : stage);
            staged += exists ? 1 : 0;
        }
        for (int i = 0; i < d.orders.size(); i++) {
            Order o = d.orders.get(i);
            List<Item> items = new ArrayList<>();
            for (Item it : o.items()) {
                items.add(new Item(it.name(), it.unitCents(), it.quantity(), it.rebill(), x.nextInt(3) == 0 ? 0 : x.nextInt((int) it.unitCents() / 2 + 1)));
            }
            d.orders.set(i, new Order(o.lead(), o.orderId(), o.date(), items, o.hardCents(), o.shippingCents(), o.taxCents(), o.refund(), o.refundCents()));
        }
        // GOOGLE_V2: one ad group under its own ad account, known from the spend file and the clicks only
        Source v2 = new Source(p + "-v2", GOOGLE_V2, p + "-v2group", p + "-v2acct", x.nextBoolean() ? p + "-v2camp" : "", false, false,
                List.of(p + "-v2group-ad1", p + "-v2group-ad2"), true);
        d.sources.add(v2);
        // TIKTOK (ad group) and SNAPCHAT (ad squad) sources: their clicks name no ad (adspendAdId is for GOOGLE,
        // GOOGLE_V2 and FACEBOOK only), so they credit the source entry; the spend file names ads of theirs
        List<Source> social = List.of(
                new Source(p + "-tt", TIKTOK, p + "-ttgroup", p + "-ttacct", p + "-ttcamp", false, false, List.of(p + "-ttgroup-ad1")),
                new Source(p + "-sc", SNAPCHAT, p + "-scsquad", p + "-scacct", "", false, false, List.of(p + "-scsquad-ad1", p + "-scsquad-ad2")));
        d.sources.addAll(social);
        d.importFirst = x.nextBoolean();
        int g = 0;
        for (Source s : d.sources) {
            if (!s.paid() || s.ghost()) {
                continue;
            }
            for (String ad : s.adIds()) {
                for (int day = 0; day < SPAN_DAYS; day++) {
                    if (x.nextInt(5) == 0) {
                        d.spend.add(new SpendLine(s, ad, BASE.atZone(ZoneOffset.UTC).toLocalDate().plusDays(day), x.nextInt(4) == 0 ? 0 : 1 + x.nextInt(20000), ""));
                    }
                }
            }
            if (!s.platform().equals(GOOGLE) && !s.platform().equals(GOOGLE_V2)) {
                continue;
            }
            // two keywords of the ad group, registered on lines of an ad of their own (an ad no click names)
            int k0 = 1000 * (++g);
            for (int k = 1; k <= 2; k++) {
                d.spend.add(new SpendLine(s, s.adSourceId() + "-kw", BASE.atZone(ZoneOffset.UTC).toLocalDate().plusDays(k * 3 + x.nextInt(3)),
                        x.nextInt(2000), Integer.toString(k0 + k)));
            }
            for (int i = 0; i < d.clicks.size(); i++) {
                Click c = d.clicks.get(i);
                if (c.source() == s && x.nextInt(5) != 0) {
                    String kw = x.nextInt(6) == 0 ? "9999" : Integer.toString(k0 + 1 + x.nextInt(2));
                    d.clicks.set(i, new Click(c.lead(), s, c.adId(), c.date(), c.byPhone(), kw));
                }
            }
        }
        for (Source s : social) {
            int n = 3 + x.nextInt(5);
            for (int i = 0; i < n; i++) {
                int lead = x.nextInt(d.leads.size());
                if (d.clicks.stream().noneMatch(c -> c.lead() == lead)) {
                    continue;
                }
                Instant at = BASE.plusSeconds(x.nextInt(SPAN_DAYS * 86400));
                d.clicks.add(new Click(lead, s, "", format(at, OFFSETS[x.nextInt(OFFSETS.length)], x), d.leads.get(lead).email() == null));
            }
        }
        LocalDate costStart = BASE.atZone(ZoneOffset.UTC).toLocalDate().plusDays(5 + x.nextInt(10));
        d.costs.add(new Cost(true, costStart.toString(), costStart.plusDays(x.nextInt(15)) + "T12:00:00", 100 + x.nextInt(5000),
                List.of(social.get(0).tag(), social.get(1).tag())));
        // the GOOGLE_V2 clicks (with an ad and without: the ad group's own entry), most with a keyword
        int n = 6 + x.nextInt(8);
        for (int i = 0; i < n; i++) {
            int lead = x.nextInt(d.leads.size());
            Lead l = d.leads.get(lead);
            boolean leadStarted = d.clicks.stream().anyMatch(c -> c.lead() == lead);
            if (!leadStarted) {
                continue; // a lead's first click stays the one of the plan (it gives the lead its phones)
            }
            String ad = x.nextInt(3) == 0 ? "" : v2.adIds().get(x.nextInt(2));
            String kw = x.nextInt(5) == 0 ? "" : x.nextInt(6) == 0 ? "9999" : Integer.toString(1000 * g + 1 + x.nextInt(2));
            Instant at = BASE.plusSeconds(x.nextInt(SPAN_DAYS * 86400));
            d.clicks.add(new Click(lead, v2, ad, format(at, OFFSETS[x.nextInt(OFFSETS.length)], x), l.email() == null, kw));
        }
    }

    private static Source pickSource(Random rnd, List<Source> sources) {
        int r = rnd.nextInt(10);
        List<Source> pool = sources.stream().filter(s -> r < 7 ? s.paid() : r < 9 ? s.organic() : !s.paid() && !s.organic()).toList();
        return pool.get(rnd.nextInt(pool.size()));
    }

    /**
     * An instant as a partner may send it: with {@code Z}, an offset (the same instant) or none (read as UTC);
     * sometimes with three-digit fractional seconds (accepted and dropped, spec 2.2.6) or without seconds
     * ({@code yyyy-MM-ddTHH:mm}, spec 4.11: then the instant is the minute's start).
     */
    static String format(Instant at, String offset, Random rnd) {
        int form = rnd.nextInt(12);
        LocalDateTime local = offset.isEmpty() || offset.equals("Z") ? LocalDateTime.ofInstant(at, ZoneOffset.UTC)
                : at.atOffset(ZoneOffset.of(offset)).toLocalDateTime();
        String minutes = local.toLocalDate() + "T" + String.format("%02d:%02d", local.getHour(), local.getMinute());
        String text = form == 0 ? minutes : minutes + String.format(":%02d", local.getSecond())
                + (form == 1 ? String.format(".%03d", rnd.nextInt(1000)) : "");
        return text + offset;
    }

    /** The instant a written date stands for (no offset: UTC; no time: midnight UTC). */
    static Instant instant(String date) {
        if (date.length() == 10) {
            return LocalDate.parse(date).atStartOfDay(ZoneOffset.UTC).toInstant();
        }
        Instant at = date.endsWith("Z") || date.matches(".*[+-]\\d\\d:\\d\\d$") ? OffsetDateTime.parse(date).toInstant()
                : LocalDateTime.parse(date).toInstant(ZoneOffset.UTC);
        return at.truncatedTo(java.time.temporal.ChronoUnit.SECONDS); // fractions are dropped
    }

    /** The wall-clock day of a custom cost date (spec 2.2.8: the offset is discarded, not converted). */
    static LocalDate wallDay(String date) {
        return LocalDate.parse(date.substring(0, 10));
    }

    static long cents(JsonNode amount) {
        return amount == null || amount.isNull() ? 0 : amount.decimalValue().movePointRight(2).longValueExact();
    }

    static String money(long cents) {
        return BigDecimal.valueOf(cents, 2).toPlainString();
    }

    /** Every page of a list endpoint ({@code nextPageId}). */
    static List<JsonNode> all(Http http, String path) {
        List<JsonNode> out = new ArrayList<>();
        String page = "";
        do {
            ApiTest.Response r = http.send("GET", path + page, null);
            if (r.status() != 200) {
                throw new AssertionError("GET " + path + page + ": " + r.status() + " " + r.raw());
            }
            r.body().get("result").forEach(out::add);
            JsonNode next = r.body().get("nextPageId");
            page = next == null || next.isNull() ? "" : "&pageId=" + next.asText();
        } while (!page.isEmpty());
        return out;
    }

    // ------------------------------------------------------------------ the writes, phase by phase

    /** A write to send and, once PROCESSED, what to do with its result. */
    record Write(DataSet set, String method, String path, String json, String eventType, java.util.function.Consumer<JsonNode> then) {
    }

    /**
     * The writes of the plans in dependency phases (each phase is sent for every account, then awaited): 1. the sources
     * not created late; 2. each lead's first click (the one that makes the lead and gives it its phones); 3. the other
     * clicks (some naming the lead by phone only); 4. the late sources, the orders and the calls; 5. the refunds,
     * the custom costs (on even seeds in phase 1) and the source deletions.
     */
    static List<List<Write>> phases(List<DataSet> sets) {
        List<List<Write>> phases = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            phases.add(new ArrayList<>());
        }
        for (DataSet d : sets) {
            // No POST /products: the orders name products the account does not have yet, several orders at once (the
            // race of ProductCatalog.forItem this found, fixed on main in b370a00, must not come back).
            for (Source s : d.sources.stream().filter(Source::written).toList()) {
                phases.get(s.late() ? 3 : 0).add(new Write(d, "POST", "/api/v1.0/sources", sourceJson(s), "CREATE_SOURCE_LINK", r -> {
                    if (r == null || !s.tag().equals(r.path("tag").asText())) {
                        throw new AssertionError("seed " + d.seed + " source " + s.name() + " got tag " + (r == null ? null : r.path("tag")));
                    }
                }));
            }
            Set<Integer> started = new LinkedHashSet<>();
            for (int i = 0; i < d.clicks.size(); i++) {
                d.clickIds.add(null);
                d.clickLeads.add(null);
                Click c = d.clicks.get(i);
                int index = i;
                boolean first = started.add(c.lead());
                phases.get(first ? 1 : 2).add(new Write(d, "POST", "/api/v1.0/clicks", clickJson(c, d.leads.get(c.lead()), first), "CREATE_CLICK", r -> {
                    d.clickIds.set(index, r.get("id").asText());
                    d.clickLeads.set(index, r.path("leadId").asText());
                }));
            }
            for (Order o : d.orders) {
                phases.get(3).add(new Write(d, "POST", "/api/v1.0/orders", orderJson(o, d.leads.get(o.lead())), "CREATE_ORDER", r -> {
                }));
                if (o.refund()) {
                    phases.get(4).add(new Write(d, "DELETE", "/api/v1.0/orders/" + o.orderId()
                            + (o.refundCents() == null ? "" : "?refundedAmount=" + money(o.refundCents())), null, "REFUND_ORDER", r -> {
                    }));
                }
            }
            for (Call c : d.calls) {
                phases.get(3).add(new Write(d, "POST", "/api/v1.0/calls", "{\"name\":\"Call " + c.lead() + "\",\"email\":\""
                        + d.leads.get(c.lead()).email() + "\",\"date\":\"" + c.date() + "\",\"state\":\"" + c.state() + "\"}", "CREATE_CALL", r -> {
                }));
            }
            for (int l = 0; l < d.leads.size(); l++) {
                if (d.stages.get(l).isEmpty()) {
                    continue;
                }
                Lead lead = d.leads.get(l);
                String select = lead.email() != null ? "email=" + java.net.URLEncoder.encode(lead.email(), java.nio.charset.StandardCharsets.UTF_8)
                        : "phone=" + java.net.URLEncoder.encode(lead.phones().get(0), java.nio.charset.StandardCharsets.UTF_8);
                phases.get(4).add(new Write(d, "PUT", "/api/v1.0/leads?" + select, "{\"leadStage\":{\"name\":\"" + d.stages.get(l) + "\"}}",
                        "UPDATE_LEAD", r -> {
                }));
            }
            for (String tag : d.deleted) {
                phases.get(4).add(new Write(d, "DELETE", "/api/v1.0/sources/" + tag.substring(1), null, "DELETE_SOURCE_LINK", r -> {
                }));
            }
            for (Cost c : d.costs) {
                // half the accounts write their custom costs first, before any source carries their tags: the cost is
                // allocated when a report is read, so the order must not matter
                phases.get(d.seed % 2 == 0 ? 0 : 4).add(new Write(d, "POST", "/api/v1.0/custom-costs", "{\"name\":\"Cost\",\"startDate\":\"" + c.start() + "\""
                        + (c.end() == null ? "" : ",\"endDate\":\"" + c.end() + "\"") + ",\"frequency\":\"" + (c.daily() ? "DAILY" : "ONE_TIME")
                        + "\",\"cost\":" + money(c.cents()) + ",\"tags\":[" + String.join(",", c.tags().stream().map(t -> "\"" + t + "\"").toList())
                        + "]}", "CREATE_CUSTOM_COST", r -> {
                }));
            }
        }
        return phases;
    }

    static String sourceJson(Source s) {
        StringBuilder b = new StringBuilder("{\"name\":\"").append(s.name()).append('"');
        if (s.organic()) {
            b.append(",\"isOrganic\":true");
        }
        if (s.paid()) {
            b.append(",\"integrationType\":\"").append(s.platform()).append("\",\"adSourceId\":\"").append(s.adSourceId())
                    .append("\",\"accountId\":\"").append(s.adAccountId()).append('"');
            if (!s.campaignId().isEmpty()) {
                b.append(",\"campaignId\":\"").append(s.campaignId()).append('"');
            }
            if (s.platform().equals(GOOGLE)) {
                b.append(",\"adspendSubType\":\"").append(s.adSourceId().hashCode() % 2 == 0 ? "DISPLAY" : "VIDEO").append('"');
            }
        }
        return b.append('}').toString();
    }

    static String clickJson(Click c, Lead lead, boolean first) {
        Source s = c.source();
        // Google's ValueTrack {targetid}: kwd-<id> alone or after an audience id
        String url = "https://shop.api-oracle.test/landing" + (c.keywordId().isEmpty() ? ""
                : "?gclid=x&targetid=" + (c.keywordId().hashCode() % 2 == 0 ? "kwd-" : "aud-7%3Akwd-") + c.keywordId());
        StringBuilder b = new StringBuilder("{\"referrerUrl\":\"").append(url).append('"');
        if (!s.imported()) {
            b.append(",\"sourceLinkTag\":\"").append(s.tag()).append('"');
        }
        b.append(",\"date\":\"").append(c.date()).append('"');
        if (s.organic()) {
            b.append(",\"isOrganic\":true");
        }
        if (s.paid()) {
            b.append(",\"integrationType\":\"").append(s.platform()).append("\",\"adSourceId\":\"").append(s.adSourceId()).append('"');
            if (!c.adId().isEmpty()) {
                b.append(",\"adspendAdId\":\"").append(c.adId()).append('"');
            }
        }
        if (!c.byPhone()) {
            b.append(",\"email\":\"").append(lead.email()).append('"');
        }
        if ((c.byPhone() || first) && !lead.phones().isEmpty()) {
            b.append(",\"phones\":[").append(String.join(",", lead.phones().stream().map(x -> "\"" + x + "\"").toList())).append(']');
        }
        return b.append('}').toString();
    }

    static String orderJson(Order o, Lead lead) {
        StringBuilder b = new StringBuilder("{\"orderId\":\"").append(o.orderId()).append("\",\"date\":\"").append(o.date()).append('"');
        if (lead.email() != null) {
            b.append(",\"email\":\"").append(lead.email()).append('"');
        } else {
            b.append(",\"phoneNumbers\":[\"").append(lead.phones().get(0)).append("\"]");
        }
        if (o.hardCents() > 0) {
            b.append(",\"hardCost\":").append(money(o.hardCents()));
        }
        if (o.shippingCents() > 0) {
            b.append(",\"shippingCost\":").append(money(o.shippingCents()));
        }
        if (o.taxCents() > 0) {
            b.append(",\"taxes\":").append(money(o.taxCents()));
        }
        b.append(",\"items\":[");
        for (int i = 0; i < o.items().size(); i++) {
            Item it = o.items().get(i);
            b.append(i == 0 ? "" : ",").append("{\"name\":\"").append(it.name()).append("\",\"price\":").append(money(it.unitCents()));
            if (it.quantity() != 1) {
                b.append(",\"quantity\":").append(it.quantity());
            }
            if (it.rebill()) {
                b.append(",\"isRebill\":true");
            }
            if (it.cogsCents() > 0) {
                b.append(",\"costOfGoods\":").append(money(it.cogsCents()));
            }
            b.append('}');
        }
        return b.append("]}").toString();
    }
}
