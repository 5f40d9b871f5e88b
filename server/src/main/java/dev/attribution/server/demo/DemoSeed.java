package dev.attribution.server.demo;

import dev.attribution.command.orders.ExchangeRates;

import javax.sql.DataSource;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * Demo data for one account ({@code scripts/admin demo seed}): an ad hierarchy on three platforms with daily spend
 * and a source link per ad set, leads that join through paid and organic clicks, tags and stages, calls, carts,
 * orders (with order bumps, repeat purchases, monthly rebills and refunds) and subscriptions, spread over the
 * months before {@code endDate}.
 * <p>
 * Rows go into the PostgreSQL tables the API writes, with the meaning the command side gives each column
 * (first-sale and last-purchase flags as {@code SaleStore.refreshFlags} sets them, {@code usd_price} through
 * {@link ExchangeRates}, {@code first_call} on a lead's first call, a click's source tag applied to its lead at the
 * click date, …), so CDC streams them to ClickHouse like any other write. Everything, ids included, is drawn from
 * one {@link Random} seeded with {@code seed}: the same options give the same rows. No domain events are recorded:
 * demo data fires no webhooks.
 */
public final class DemoSeed {

    /** What to generate: {@code leads} leads joining over {@code months} months that end on {@code endDate}. */
    public record Options(int leads, int months, long seed, LocalDate endDate) {
        public Options {
            if (leads < 1 || leads > 5_000_000) {
                throw new IllegalArgumentException("--leads must be between 1 and 5000000");
            }
            if (months < 1 || months > 36) {
                throw new IllegalArgumentException("--months must be between 1 and 36");
            }
        }
    }

    /** Counts of what was written, and one well-fed ad to try a report on. */
    public record Summary(String accountId, LocalDate firstDay, LocalDate lastDay, int adAccounts, int campaigns, int adSets,
                          int ads, int sourceLinks, int spendRows, int leads, int clicks, int paidClicks, int organicClicks,
                          int leadTags, int orders, int sales, int rebillSales, int refundedOrders, int calls, int carts,
                          int subscriptions, String sampleLevel, String sampleAdId, long millis) {
    }

    private static final String[] FIRST = {"Emma", "Liam", "Olivia", "Noah", "Ava", "Elijah", "Sophia", "James", "Mia",
            "Lucas", "Amelia", "Mateo", "Harper", "Ethan", "Chloe", "Aiden", "Zoe", "Leo", "Nora", "Ivy"};
    private static final String[] LAST = {"Smith", "Johnson", "Garcia", "Miller", "Davis", "Martinez", "Lopez", "Wilson",
            "Anderson", "Taylor", "Thomas", "Moore", "Jackson", "Martin", "Lee", "Walker", "Hall", "Young", "King", "Wright"};
    private static final String[] AGENTS = {
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148",
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/124.0 Safari/537.36",
            "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/124.0 Mobile Safari/537.36",
            "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 Version/17.4 Safari/605.1.15"};
    private static final String[] INTEREST_TAGS = {"!ebook-download", "!webinar-registered", "!quiz-completed", "!newsletter"};

    /** A platform, its share of paid traffic, the daily spend range of one of its ads, its referrer and click id. */
    private record Platform(String type, String slug, double share, int spendLow, int spendHigh, String referrer, String clickParam,
                            String[] campaigns, String[] adSets, String[] ads) {
    }

    private static final List<Platform> PLATFORMS = List.of(
            new Platform("FACEBOOK", "fb", 0.5, 40, 120, "https://www.facebook.com/", "fbclid",
                    new String[]{"Prospecting - Broad", "Retargeting - 30 days"},
                    new String[]{"Lookalike 1%", "Interests: Home cooking", "Site visitors", "Video viewers 50%"},
                    new String[]{"Video - Testimonial", "Carousel - Recipes", "Static - Offer", "Reel - Founder story"}),
            new Platform("GOOGLE", "gg", 0.35, 30, 90, "https://www.google.com/", "gclid",
                    new String[]{"Search - Brand", "Search - Generic"},
                    new String[]{"Brand exact", "Brand phrase", "Meal prep course", "Healthy recipes"},
                    new String[]{"RSA - Learn to cook", "RSA - 30 day plan", "RSA - Free ebook", "RSA - Start today"}),
            new Platform("TIKTOK", "tt", 0.15, 20, 60, "https://www.tiktok.com/", "ttclid",
                    new String[]{"Spark ads", "In-feed"},
                    new String[]{"Creators 18-34", "Foodies", "Broad US", "Lookalike buyers"},
                    new String[]{"UGC - 15s", "UGC - 30s", "Green screen", "Duet - Chef"}));

    private static final String[][] ORGANIC = {{"@newsletter", "Newsletter"}, {"@youtube", "YouTube channel"},
            {"@organic-search", "Organic search"}, {"@instagram-bio", "Instagram bio link"}};

    /** A product of the demo catalog. */
    private record Product(String id, String name, String tag, String sku, BigDecimal price, boolean recurring, boolean callProduct,
                           String categoryId, String categoryName) {
    }

    private record Ad(Platform platform, String adAccountId, String campaignId, String adSetId, String adId, String name,
                      String sourceTag, double quality, double weight) {
    }

    private record Click(Instant at, Ad ad, String organicTag) {
    }

    private record Sale(String orderId, Product product, int position, int quantity, BigDecimal unitPrice, BigDecimal discount,
                        boolean recurring, Instant at, boolean refunded, Instant refundAt) {
        BigDecimal price() {
            return unitPrice.multiply(BigDecimal.valueOf(quantity)).subtract(discount);
        }
    }

    private final DataSource dataSource;
    private Random rnd;
    private Instant epochFloor;

    public DemoSeed(DataSource dataSource) {
        this.dataSource = io.micronaut.data.connection.jdbc.advice.DelegatingDataSource.unwrapDataSource(dataSource);
    }

    /** Writes the demo data into {@code accountId} (which must exist) in one transaction. */
    public Summary seed(String accountId, ZoneId zone, String currency, Options o) throws SQLException {
        long started = System.nanoTime();
        rnd = new Random(o.seed());
        LocalDate lastDay = o.endDate();
        LocalDate firstDay = lastDay.minusMonths(o.months()).plusDays(1);
        Instant start = firstDay.atStartOfDay(zone).toInstant();
        Instant end = lastDay.plusDays(1).atStartOfDay(zone).toInstant().minusSeconds(60);
        epochFloor = start;
        int days = (int) Duration.between(start, end).toDays() + 1;
        Counts n = new Counts();
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try (Batches b = new Batches(c)) {
                List<Ad> ads = hierarchy(b, accountId, start, n);
                List<Product> products = catalog(c, accountId, currency, start);
                spend(b, accountId, ads, firstDay, lastDay, currency, n);
                for (String stage : List.of("Lead", "MQL", "SQL", "Customer")) {
                    b.add("lead_stages", accountId, id("stg_", start), stage, ts(start));
                }
                double total = 0;
                for (Ad ad : ads) {
                    total += ad.weight();
                }
                for (int i = 0; i < o.leads(); i++) {
                    lead(b, c, accountId, currency, i, start, end, days, ads, total, products, n);
                    if (b.pending() > 5_000) {
                        b.flush();
                    }
                }
                b.flush();
                c.commit();
                Ad sample = ads.stream().max(Comparator.comparingInt((Ad a) -> n.clicksByAd.getOrDefault(a.adId(), 0))
                        .thenComparing(Ad::adId, Comparator.reverseOrder())).orElseThrow();
                return new Summary(accountId, firstDay, lastDay, n.adAccounts, n.campaigns, n.adSets, ads.size(), n.sources,
                        n.spend, o.leads(), n.paid + n.organic, n.paid, n.organic, n.tags, n.orders, n.sales, n.rebills,
                        n.refunds, n.calls, n.carts, n.subscriptions,
                        sample.platform().type().toLowerCase(Locale.ROOT) + "_ad", sample.adId(),
                        (System.nanoTime() - started) / 1_000_000);
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        }
    }

    private static final class Counts {
        int adAccounts, campaigns, adSets, sources, spend, paid, organic, tags, orders, sales, rebills, refunds, calls,
                carts, subscriptions, orderNumber = 100_000;
        final Map<String, Integer> clicksByAd = new java.util.HashMap<>();
    }

    // ---- ad hierarchy, sources, catalog, spend

    private List<Ad> hierarchy(Batches b, String accountId, Instant start, Counts n) throws SQLException {
        List<Ad> ads = new ArrayList<>();
        for (Platform p : PLATFORMS) {
            String adAccount = digits(p.type().equals("FACEBOOK") ? 15 : 10);
            b.add("ad_accounts", accountId, p.type(), adAccount, "Demo " + p.slug().toUpperCase(Locale.ROOT) + " account", ts(start));
            n.adAccounts++;
            for (int ci = 0; ci < p.campaigns().length; ci++) {
                String campaign = digits(p.type().equals("GOOGLE") ? 11 : 17);
                b.add("ad_campaigns", accountId, p.type(), campaign, adAccount, p.campaigns()[ci], ts(start));
                n.campaigns++;
                for (int si = 0; si < 2; si++) {
                    String adSetName = p.adSets()[ci * 2 + si];
                    String adSet = digits(p.type().equals("GOOGLE") ? 12 : 17);
                    b.add("ad_sets", accountId, p.type(), adSet, adAccount, campaign, adSetName, ts(start));
                    n.adSets++;
                    String tag = "@" + p.slug() + "-" + adSetName.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-")
                            .replaceAll("(^-|-$)", "");
                    b.add("source_links", accountId, id("src_", start), tag, p.campaigns()[ci] + " / " + adSetName, false,
                            p.type(), adSet, adAccount, campaign, ts(start), ts(start));
                    n.sources++;
                    for (int ai = 0; ai < 2; ai++) {
                        String adName = p.ads()[(si * 2 + ai + ci) % p.ads().length];
                        String ad = digits(p.type().equals("GOOGLE") ? 12 : 17);
                        b.add("ads", accountId, p.type(), ad, adAccount, campaign, adSet, adName, ts(start));
                        ads.add(new Ad(p, adAccount, campaign, adSet, ad, adName, tag, 0.5 + rnd.nextDouble(),
                                p.share() * (0.5 + rnd.nextDouble())));
                    }
                }
            }
        }
        for (String[] organic : ORGANIC) {
            b.add("source_links", accountId, id("src_", start), organic[0], organic[1], true, "", "", "", "", ts(start), ts(start));
            n.sources++;
        }
        return ads;
    }

    private List<Product> catalog(Connection c, String accountId, String currency, Instant start) throws SQLException {
        Object[][] rows = {
                {"Starter Course", "$starter-course", "COURSE-1", "97.00", false, false, "Courses"},
                {"Pro Membership", "$pro-membership", "MEMBER-PRO", "49.00", true, false, "Memberships"},
                {"1:1 Coaching", "$1-1-coaching", "COACH-1", "497.00", false, true, "Coaching"},
                {"Recipe Ebook", "$recipe-ebook", "EBOOK-1", "19.00", false, false, "Books"}};
        Map<String, String> categories = new LinkedHashMap<>();
        List<Product> products = new ArrayList<>();
        try (PreparedStatement cat = c.prepareStatement(
                "INSERT INTO sale_categories (account_id, id, name, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING");
             PreparedStatement prd = c.prepareStatement("""
                     INSERT INTO products (account_id, id, name, tag, sku, price, recurring, call_product, category_id,
                         created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""")) {
            for (Object[] r : rows) {
                String category = (String) r[6];
                String categoryId = categories.computeIfAbsent(category, k -> id("cat_", start));
                cat.setString(1, accountId);
                cat.setString(2, categoryId);
                cat.setString(3, category);
                cat.setTimestamp(4, ts(start));
                cat.executeUpdate();
                Product p = new Product(id("prd_", start), (String) r[0], (String) r[1], (String) r[2], new BigDecimal((String) r[3]),
                        (Boolean) r[4], (Boolean) r[5], categoryId, category);
                prd.setString(1, accountId);
                prd.setString(2, p.id());
                prd.setString(3, p.name());
                prd.setString(4, p.tag());
                prd.setString(5, p.sku());
                prd.setBigDecimal(6, p.price());
                prd.setBoolean(7, p.recurring());
                prd.setBoolean(8, p.callProduct());
                prd.setString(9, categoryId);
                prd.setTimestamp(10, ts(start));
                prd.setTimestamp(11, ts(start));
                prd.executeUpdate();
                products.add(p);
            }
        }
        return products;
    }

    private void spend(Batches b, String accountId, List<Ad> ads, LocalDate from, LocalDate to, String currency, Counts n)
            throws SQLException {
        long total = java.time.temporal.ChronoUnit.DAYS.between(from, to) + 1;
        for (Ad ad : ads) {
            double base = ad.platform().spendLow() + rnd.nextDouble() * (ad.platform().spendHigh() - ad.platform().spendLow());
            double cpm = 8 + rnd.nextDouble() * 8;
            double ctr = 0.008 + rnd.nextDouble() * 0.015;
            int i = 0;
            for (LocalDate d = from; !d.isAfter(to); d = d.plusDays(1), i++) {
                double weekday = d.getDayOfWeek() == DayOfWeek.SATURDAY || d.getDayOfWeek() == DayOfWeek.SUNDAY ? 0.8 : 1.0;
                double growth = 0.8 + 0.4 * i / total;
                BigDecimal spend = money(base * weekday * growth * (0.7 + 0.6 * rnd.nextDouble()));
                long impressions = Math.round(spend.doubleValue() / cpm * 1000);
                long clicks = Math.round(impressions * ctr);
                BigDecimal conversions = BigDecimal.valueOf(Math.round(clicks * 0.03 * ad.quality()));
                b.add("ad_spend_daily", accountId, ad.platform().type(), ad.adId(), java.sql.Date.valueOf(d), ad.adAccountId(),
                        ad.campaignId(), ad.adSetId(), spend, impressions, clicks, Math.round(impressions * 0.2 * rnd.nextDouble()),
                        conversions, conversions.multiply(new BigDecimal("92.50")).setScale(2, RoundingMode.HALF_UP), currency,
                        ts(d.plusDays(1).atStartOfDay(ZoneId.of("UTC")).toInstant()));
                n.spend++;
            }
        }
    }

    // ---- one lead and everything it does

    private void lead(Batches b, Connection c, String accountId, String currency, int index, Instant start, Instant end, int days,
                      List<Ad> ads, double totalWeight, List<Product> products, Counts n)
            throws SQLException {
        Instant joined = joinTime(start, end, days);
        String leadId = id("ld_", joined);
        String first = FIRST[rnd.nextInt(FIRST.length)];
        String last = LAST[rnd.nextInt(LAST.length)];
        String email = (first + "." + last + "." + (index + 1) + "@example.com").toLowerCase(Locale.ROOT);
        String ip = "10." + rnd.nextInt(256) + "." + rnd.nextInt(256) + "." + (1 + rnd.nextInt(254));
        String agent = AGENTS[rnd.nextInt(AGENTS.length)];

        // clicks: the joining one, then a few more over the following weeks; paid clicks lean to one ad (retargeting)
        Ad affinity = rnd.nextDouble() < 0.72 ? pickAd(ads, totalWeight) : null;
        List<Click> clicks = new ArrayList<>();
        clicks.add(touch(joined, affinity, ads, totalWeight, true));
        int more = rnd.nextDouble() < 0.3 ? 0 : 1 + (int) Math.floor(-Math.log(1 - rnd.nextDouble()) * 3.5);
        for (int k = 0; k < more; k++) {
            Instant at = joined.plusSeconds((long) (rnd.nextDouble() * 45 * 86400));
            if (at.isBefore(end)) {
                clicks.add(touch(at, affinity, ads, totalWeight, false));
            }
        }
        clicks.sort(Comparator.comparing(Click::at));

        // what the lead does: calls, purchases (a repeat purchase, a membership with rebills), refunds, carts
        double quality = affinity == null ? 1.0 : affinity.quality();
        List<Instant[]> calls = new ArrayList<>();
        List<String> callStates = new ArrayList<>();
        if (rnd.nextDouble() < 0.12 * quality) {
            Instant at = joined.plusSeconds(3600 + (long) (rnd.nextDouble() * 14 * 86400));
            if (at.isBefore(end)) {
                double r = rnd.nextDouble();
                String state = r < 0.55 ? "QUALIFIED" : r < 0.75 ? "UNQUALIFIED" : r < 0.9 ? "NO_SHOW" : "CANCELLED";
                calls.add(new Instant[]{at});
                callStates.add(state);
                Instant follow = at.plusSeconds(86400 * (2 + rnd.nextInt(6)));
                if (state.equals("QUALIFIED") && rnd.nextDouble() < 0.4 && follow.isBefore(end)) {
                    calls.add(new Instant[]{follow});
                    callStates.add("QUALIFIED");
                }
            }
        }
        boolean qualifiedCall = callStates.contains("QUALIFIED");
        List<List<Sale>> orders = new ArrayList<>();
        List<Object[]> subscriptions = new ArrayList<>();
        if (rnd.nextDouble() < 0.2 * quality || (qualifiedCall && rnd.nextDouble() < 0.5)) {
            Instant at = qualifiedCall ? calls.get(calls.size() - 1)[0].plusSeconds(1800)
                    : joined.plusSeconds(600 + (long) (rnd.nextDouble() * 20 * 86400 * rnd.nextDouble()));
            Product product = qualifiedCall ? products.get(2) : rnd.nextDouble() < 0.6 ? products.get(0) : products.get(1);
            purchase(at, end, product, products, orders, subscriptions, n);
            if (rnd.nextDouble() < 0.15) {
                Instant again = at.plusSeconds((long) (86400 * (7 + rnd.nextDouble() * 40)));
                Product other = products.get(rnd.nextInt(products.size()));
                purchase(again, end, other, products, orders, subscriptions, n);
            }
        }

        // the lead row and its stages: Lead at joining, MQL after engaging, SQL at a qualified call, Customer at the first order
        List<Object[]> stages = new ArrayList<>();
        stages.add(new Object[]{"Lead", joined});
        if (clicks.size() > 2 || rnd.nextDouble() < 0.25) {
            stages.add(new Object[]{"MQL", clicks.size() > 2 ? clicks.get(2).at() : joined.plusSeconds(3600)});
        }
        for (int k = 0; k < calls.size(); k++) {
            if (callStates.get(k).equals("QUALIFIED")) {
                stages.add(new Object[]{"SQL", calls.get(k)[0]});
                break;
            }
        }
        if (!orders.isEmpty()) {
            stages.add(new Object[]{"Customer", orders.get(0).get(0).at()});
        }
        stages.sort(Comparator.comparing(s -> (Instant) s[1]));
        Object[] current = stages.get(stages.size() - 1);
        Instant updated = joined;
        for (Click click : clicks) {
            updated = max(updated, click.at());
        }
        for (List<Sale> order : orders) {
            updated = max(updated, order.get(0).at());
        }
        for (Instant[] call : calls) {
            updated = max(updated, call[0]);
        }
        updated = min(updated, end);
        String consent = rnd.nextDouble() < 0.6 ? "GRANTED" : "UNSPECIFIED";
        b.add("leads", accountId, leadId, email, first, last, consent, current[0], ts((Instant) current[1]), ts(joined), ts(updated),
                consent.equals("GRANTED") ? ts(joined) : null);
        for (Object[] stage : stages) {
            b.add("lead_stage_history", accountId, leadId, stage[0], ts((Instant) stage[1]));
        }
        b.add("lead_ips", accountId, leadId, ip);
        if (rnd.nextDouble() < 0.4) {
            b.add("lead_phones", accountId, leadId, "+1 (" + (200 + rnd.nextInt(700)) + ") 555-" + String.format("%04d", rnd.nextInt(10000)));
        }

        // tags: each source's tag at its first click (as a click applies it), plus the interests the lead showed
        Map<String, Instant> tags = new LinkedHashMap<>();
        for (Click click : clicks) {
            tags.putIfAbsent(click.ad() != null ? click.ad().sourceTag() : click.organicTag(), click.at());
        }
        for (String interest : INTEREST_TAGS) {
            if (rnd.nextDouble() < 0.18) {
                tags.putIfAbsent(interest, joined.plusSeconds(rnd.nextInt(3600)));
            }
        }
        for (Map.Entry<String, Instant> t : tags.entrySet()) {
            b.add("lead_tags", accountId, leadId, t.getKey(), ts(t.getValue()));
            n.tags++;
        }

        String session = id("ses_", joined);
        for (Click click : clicks) {
            Ad ad = click.ad();
            String landing = "https://shop.example.com/" + (ad == null ? "free-recipes" : "cook-at-home");
            if (ad != null) {
                String clickId = Long.toHexString(rnd.nextLong()) + Long.toHexString(rnd.nextLong());
                b.add("clicks", accountId, id("clk_", click.at()), leadId, ts(click.at()),
                        landing + "?" + ad.platform().clickParam() + "=" + clickId + "&utm_source=" + ad.platform().slug(),
                        ad.platform().referrer(), session, ip, agent, ad.sourceTag(), false, ad.platform().type(), ad.adSetId(),
                        ad.adId(), clickId, ts(click.at().plusSeconds(2)));
                n.paid++;
                n.clicksByAd.merge(ad.adId(), 1, Integer::sum);
            } else {
                b.add("clicks", accountId, id("clk_", click.at()), leadId, ts(click.at()), landing + "?utm_source="
                        + click.organicTag().substring(1), null, session, ip, agent, click.organicTag(), true, null, null,
                        null, null, ts(click.at().plusSeconds(2)));
                n.organic++;
            }
        }

        for (int k = 0; k < calls.size(); k++) {
            String state = callStates.get(k);
            b.add("calls", accountId, id("cll_", calls.get(k)[0]), "cal-" + Long.toHexString(rnd.nextLong()),
                    k == 0 ? "Discovery call" : "Strategy session", leadId, state.equals("QUALIFIED"), state, k == 0,
                    ts(calls.get(k)[0]), ts(calls.get(k)[0].plusSeconds(5)), ts(calls.get(k)[0].plusSeconds(5)));
            n.calls++;
        }

        // orders: flags as SaleStore.refreshFlags leaves them after the lead's last order
        String firstOrder = null;
        String lastOrder = null;
        Instant lastAt = null;
        for (List<Sale> order : orders) {
            Sale head = order.get(0);
            boolean oneTime = order.stream().anyMatch(s -> !s.recurring());
            if (firstOrder == null && oneTime) {
                firstOrder = head.orderId();
            }
            if (lastAt == null || !head.at().isBefore(lastAt)) {
                lastAt = head.at();
                lastOrder = head.orderId();
            }
        }
        Map<String, String> carts = new LinkedHashMap<>();
        for (List<Sale> order : orders) {
            Sale head = order.get(0);
            if (!head.recurring() && rnd.nextDouble() < 0.8) {
                String cartId = "cart-" + Long.toHexString(rnd.nextLong());
                carts.put(head.orderId(), cartId);
                cart(b, accountId, cartId, leadId, currency, head.at().minusSeconds(60 + rnd.nextInt(3000)), order, head.orderId(), n);
            }
        }
        if (orders.isEmpty() && rnd.nextDouble() < 0.12) {
            Product p = products.get(rnd.nextInt(products.size()));
            Instant at = joined.plusSeconds(300 + rnd.nextInt(86400 * 3));
            if (at.isBefore(end)) {
                cart(b, accountId, "cart-" + Long.toHexString(rnd.nextLong()), leadId, currency, at,
                        List.of(new Sale(null, p, 0, 1, p.price(), BigDecimal.ZERO.setScale(2), false, at, false, null)), null, n);
            }
        }
        for (List<Sale> order : orders) {
            Sale head = order.get(0);
            Instant refundedAt = head.refunded() ? head.refundAt() : null;
            String subscription = order.stream().anyMatch(s -> s.product().recurring()) ? subscriptionOf(subscriptions, head) : null;
            b.add("orders", accountId, head.orderId(), leadId, carts.get(head.orderId()), subscription, currency, ts(head.at()),
                    ts(refundedAt), ts(head.at().plusSeconds(3)), ts(refundedAt != null ? refundedAt : head.at().plusSeconds(3)));
            n.orders++;
            if (head.refunded()) {
                n.refunds++;
            }
            for (Sale s : order) {
                BigDecimal price = s.price();
                b.add("sales", accountId, id("sle_", s.at()), s.orderId(), leadId, leadId, s.product().id(), s.product().name(),
                        s.product().tag(), s.product().sku(), s.product().categoryId(), s.product().categoryName(), s.position(),
                        s.quantity(), s.unitPrice(), price, s.discount(), currency, ExchangeRates.toUsd(c, price, currency, s.at()),
                        s.recurring(), !s.recurring() && s.orderId().equals(firstOrder), s.orderId().equals(lastOrder),
                        s.refunded(), ts(s.refunded() ? s.refundAt() : null), s.refunded() ? price : BigDecimal.ZERO.setScale(2),
                        ts(s.at()), ts(s.at().plusSeconds(3)), ts(s.refunded() ? s.refundAt() : s.at().plusSeconds(3)));
                n.sales++;
                if (s.recurring()) {
                    n.rebills++;
                }
            }
        }
        for (Object[] sub : subscriptions) {
            b.add("subscriptions", accountId, sub[1], sub[2], leadId, sub[3], sub[4], sub[5], "MONTH", sub[6], sub[7], ts((Instant) sub[8]),
                    ts((Instant) sub[9]), ts((Instant) sub[9]), sub[10], sub[11], ts((Instant) sub[8]), ts((Instant) sub[12]));
            n.subscriptions++;
        }
    }

    /** One purchase at {@code at}: the product, maybe an ebook bump; a membership also opens a subscription billed monthly. */
    private void purchase(Instant at, Instant end, Product product, List<Product> products, List<List<Sale>> orders,
                          List<Object[]> subscriptions, Counts n) {
        if (!at.isBefore(end)) {
            return;
        }
        String orderId = "DEMO-" + (++n.orderNumber);
        boolean refunded = !product.recurring() && rnd.nextDouble() < 0.08;
        Instant refundAt = refunded ? min(at.plusSeconds(86400L * (1 + rnd.nextInt(14))), end) : null;
        List<Sale> order = new ArrayList<>();
        BigDecimal discount = product.name().equals("Starter Course") && rnd.nextDouble() < 0.25
                ? product.price().multiply(new BigDecimal("0.10")).setScale(2, RoundingMode.HALF_UP) : BigDecimal.ZERO.setScale(2);
        order.add(new Sale(orderId, product, 0, 1, product.price(), discount, false, at, refunded, refundAt));
        Product ebook = products.get(3);
        if (product != ebook && rnd.nextDouble() < 0.2) {
            order.add(new Sale(orderId, ebook, 1, 1, ebook.price(), BigDecimal.ZERO.setScale(2), false, at, refunded, refundAt));
        }
        orders.add(order);
        if (product.recurring()) {
            String external = "sub_stripe_" + Long.toHexString(rnd.nextLong());
            Instant cancelAt = null;
            Instant bill = at;
            int months = 0;
            while (true) {
                bill = bill.plus(Duration.ofDays(30));
                if (!bill.isBefore(end)) {
                    break;
                }
                if (rnd.nextDouble() < 0.15) {
                    cancelAt = bill;
                    break;
                }
                months++;
                orders.add(List.of(new Sale("DEMO-" + (++n.orderNumber), product, 0, 1, product.price(), BigDecimal.ZERO.setScale(2),
                        true, bill, false, null)));
            }
            // account (filled by the caller), id, external id, plan, name, tag, price, status, start, end, category id/name, updated
            subscriptions.add(new Object[]{null, id("sub_", at), external, "plan_pro_monthly", product.name(), product.tag(),
                    product.price(), cancelAt == null ? "ACTIVE" : "CANCELED", at, cancelAt, product.categoryId(),
                    product.categoryName(), cancelAt != null ? cancelAt : at.plus(Duration.ofDays(30L * months))});
        }
    }

    private static String subscriptionOf(List<Object[]> subscriptions, Sale head) {
        Object[] best = null;
        for (Object[] s : subscriptions) {
            if (!((Instant) s[8]).isAfter(head.at())) {
                best = s;
            }
        }
        return best == null ? null : (String) best[2];
    }

    private void cart(Batches b, String accountId, String cartId, String leadId, String currency, Instant at, List<Sale> items,
                      String orderId, Counts n) throws SQLException {
        BigDecimal total = BigDecimal.ZERO.setScale(2);
        for (Sale s : items) {
            total = total.add(s.unitPrice().multiply(BigDecimal.valueOf(s.quantity())));
        }
        int events = 1 + rnd.nextInt(3);
        b.add("carts", accountId, cartId, leadId, currency, total, events, orderId, ts(at), ts(at),
                ts(orderId != null ? items.get(0).at() : at));
        for (Sale s : items) {
            b.add("cart_items", accountId, cartId, s.position(), s.product().name(), s.unitPrice(), s.quantity(), s.product().sku(),
                    s.recurring(), s.product().id());
        }
        n.carts++;
    }

    private Click touch(Instant at, Ad affinity, List<Ad> ads, double totalWeight, boolean joining) {
        boolean paid = affinity != null ? rnd.nextDouble() < (joining ? 1.0 : 0.75) : rnd.nextDouble() < 0.3;
        if (!paid) {
            return new Click(at, null, ORGANIC[rnd.nextInt(ORGANIC.length)][0]);
        }
        Ad ad = affinity != null && rnd.nextDouble() < 0.6 ? affinity : pickAd(ads, totalWeight);
        return new Click(at, ad, null);
    }

    private Ad pickAd(List<Ad> ads, double totalWeight) {
        double r = rnd.nextDouble() * totalWeight;
        for (Ad ad : ads) {
            r -= ad.weight();
            if (r <= 0) {
                return ad;
            }
        }
        return ads.get(ads.size() - 1);
    }

    /** A join time: more leads in later days (growth), fewer at weekends and at night. */
    private Instant joinTime(Instant start, Instant end, int days) {
        while (true) {
            double u = rnd.nextDouble();
            double dayFraction = Math.sqrt(0.3 * 0.3 + u * (1 - 0.09)) ;
            int day = Math.min(days - 1, (int) ((dayFraction - 0.3) / 0.7 * days));
            Instant at = start.plusSeconds(day * 86400L + 7 * 3600 + (long) (rnd.nextDouble() * 16 * 3600));
            DayOfWeek dow = at.atZone(ZoneId.of("UTC")).getDayOfWeek();
            boolean weekend = dow == DayOfWeek.SATURDAY || dow == DayOfWeek.SUNDAY;
            if (at.isBefore(end) && (!weekend || rnd.nextDouble() < 0.75)) {
                return at;
            }
        }
    }

    // ---- small helpers

    /** An id in the shape of {@code RequestIds}: the creation time in hex, then 64 seeded random bits. */
    private String id(String prefix, Instant created) {
        return prefix + Long.toHexString(max(created, epochFloor).toEpochMilli()) + "-" + String.format("%016x", rnd.nextLong());
    }

    private String digits(int length) {
        StringBuilder s = new StringBuilder().append(1 + rnd.nextInt(9));
        while (s.length() < length) {
            s.append(rnd.nextInt(10));
        }
        return s.toString();
    }

    private static BigDecimal money(double v) {
        return BigDecimal.valueOf(v).setScale(2, RoundingMode.HALF_UP);
    }

    private static Timestamp ts(Instant at) {
        return at == null ? null : Timestamp.from(at);
    }

    private static Instant max(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }

    private static Instant min(Instant a, Instant b) {
        return a.isBefore(b) ? a : b;
    }
}
