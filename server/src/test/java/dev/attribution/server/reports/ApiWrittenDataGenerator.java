package dev.attribution.server.reports;

import dev.attribution.server.support.ApiTest;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static dev.attribution.server.reports.ApiWrittenDataSet.format;
import static dev.attribution.server.reports.ApiWrittenDataSet.instant;

/**
 * The seeded random accounts of {@link ApiWrittenAttributionTest}, planned from a seed and written only through the
 * public API, as an integration partner writes them: POST /sources (FACEBOOK ad sets, GOOGLE ad groups, organic and
 * hand-made sources), POST /clicks (email, phones only, with and without an ad id, dates with {@code Z},
 * {@code +02:00}, {@code -05:00} and no offset), POST /orders (several items, rebills, hard costs, shipping, taxes),
 * DELETE /orders/{id} (refunds, whole and partial), POST /calls and POST /custom-costs (DAILY with and without end,
 * ONE_TIME), PUT /leads (stages) and a spend file for POST /ad-spend/import ({@link #extend}: spend per ad and day,
 * keywords, a GOOGLE_V2 ad group). No SQL, no seed.
 *
 * <p>After the writes have reached ClickHouse, {@link ApiWrittenDataSet#readBack} reads what the API derived (sale ids, the money
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

    private ApiWrittenDataGenerator() {
    }

    static final String[] OFFSETS = {"Z", "+02:00", "-05:00", ""};
    static final List<String> PRODUCTS = List.of("Product A", "Product B", "Product C", "Product D");
    /** Data lie in 2026-10-20 .. 2026-11-19 (UTC); the reports ask ranges inside and around it. */
    static final Instant BASE = Instant.parse("2026-10-20T00:00:00Z");
    static final int SPAN_DAYS = 31;

    /** The plan of one account from its seed. */
    static ApiWrittenDataSet plan(int seed) {
        Random rnd = new Random(seed * 7919L + 17);
        ApiWrittenDataSet d = new ApiWrittenDataSet(seed);
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
    private static void extend(ApiWrittenDataSet d, Random x) {
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
}
