package dev.attribution.server.demo;

import dev.attribution.command.adspend.AdHierarchy;
import dev.attribution.command.adspend.SpendImport;
import dev.attribution.command.commerce.Categories;
import dev.attribution.command.leads.LeadStages;
import dev.attribution.command.orders.ExchangeRates;
import dev.attribution.command.products.ProductCatalog;
import dev.attribution.command.sources.SourcesTable;

import javax.sql.DataSource;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Connection;
import java.sql.SQLException;
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

import static dev.attribution.server.demo.DemoRandom.money;

/**
 * Demo data for one account ({@code scripts/admin demo seed}): an ad hierarchy on three platforms with daily spend
 * and a source link per ad set, leads that join through paid and organic clicks, tags and stages, calls, carts,
 * orders (with order bumps, repeat purchases, monthly rebills and refunds) and subscriptions, spread over the
 * months before {@code endDate}.
 * <p>
 * Rows go into the PostgreSQL tables the API writes, through each table's owner class ({@link DemoRows}: its
 * {@code insertBulk…}, one batch per table and flush), with the meaning the command side gives each column
 * (first-sale and last-purchase flags as {@code SalesTable.refreshFlags} sets them, {@code usd_price} through
 * {@link ExchangeRates}, {@code first_call} on a lead's first call, a click's source tag applied to its lead at the
 * click date, …), so CDC streams them to ClickHouse like any other write. Everything, ids included, is drawn from
 * one {@link DemoRandom} seeded with {@code seed}: the same options give the same rows. No domain events are recorded:
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

    /** A platform, its share of paid traffic, the daily spend range of one of its ads, its referrer and click id. */
    record Platform(String type, String slug, double share, int spendLow, int spendHigh, String referrer, String clickParam,
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

    static final String[][] ORGANIC = {{"@newsletter", "Newsletter"}, {"@youtube", "YouTube channel"},
            {"@organic-search", "Organic search"}, {"@instagram-bio", "Instagram bio link"}};

    // the people of DemoLeads: names, browsers, interests
    static final String[] FIRST = {"Emma", "Liam", "Olivia", "Noah", "Ava", "Elijah", "Sophia", "James", "Mia",
            "Lucas", "Amelia", "Mateo", "Harper", "Ethan", "Chloe", "Aiden", "Zoe", "Leo", "Nora", "Ivy"};
    static final String[] LAST = {"Smith", "Johnson", "Garcia", "Miller", "Davis", "Martinez", "Lopez", "Wilson",
            "Anderson", "Taylor", "Thomas", "Moore", "Jackson", "Martin", "Lee", "Walker", "Hall", "Young", "King", "Wright"};
    static final String[] AGENTS = {
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148",
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/124.0 Safari/537.36",
            "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/124.0 Mobile Safari/537.36",
            "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 Version/17.4 Safari/605.1.15"};
    static final String[] INTEREST_TAGS = {"!ebook-download", "!webinar-registered", "!quiz-completed", "!newsletter"};

    /** A product of the demo catalog. */
    record Product(String id, String name, String tag, String sku, BigDecimal price, boolean recurring, boolean callProduct,
                           String categoryId, String categoryName) {
    }

    record Ad(Platform platform, String adAccountId, String campaignId, String adSetId, String adId, String name,
                      String sourceTag, double quality, double weight) {
    }

    record Click(Instant at, Ad ad, String organicTag) {
    }

    record Sale(String orderId, Product product, int position, int quantity, BigDecimal unitPrice, BigDecimal discount,
                        boolean recurring, Instant at, boolean refunded, Instant refundAt) {
        BigDecimal price() {
            return unitPrice.multiply(BigDecimal.valueOf(quantity)).subtract(discount);
        }
    }

    private final DataSource dataSource;
    private DemoRandom rnd;

    public DemoSeed(DataSource dataSource) {
        this.dataSource = io.micronaut.data.connection.jdbc.advice.DelegatingDataSource.unwrapDataSource(dataSource);
    }

    /** Writes the demo data into {@code accountId} (which must exist) in one transaction. */
    public Summary seed(String accountId, ZoneId zone, String currency, Options o) throws SQLException {
        return seed(accountId, zone, currency, o, written -> { });
    }

    /** As {@link #seed(String, ZoneId, String, Options)}, telling {@code leadsWritten} the leads written so far. */
    public Summary seed(String accountId, ZoneId zone, String currency, Options o, java.util.function.LongConsumer leadsWritten)
            throws SQLException {
        long started = System.nanoTime();
        LocalDate lastDay = o.endDate();
        LocalDate firstDay = lastDay.minusMonths(o.months()).plusDays(1);
        Instant start = firstDay.atStartOfDay(zone).toInstant();
        Instant end = lastDay.plusDays(1).atStartOfDay(zone).toInstant().minusSeconds(60);
        rnd = new DemoRandom(o.seed(), start);
        int days = (int) Duration.between(start, end).toDays() + 1;
        Counts n = new Counts();
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            DemoRows b = new DemoRows();
            try {
                List<Ad> ads = hierarchy(b, accountId, start, n);
                List<Product> products = catalog(c, accountId, currency, start);
                spend(b, accountId, ads, firstDay, lastDay, currency, n);
                for (String stage : List.of("Lead", "MQL", "SQL", "Customer")) {
                    b.stages.add(new LeadStages.BulkStage(accountId, rnd.id("stg_", start), stage, start));
                }
                DemoLeads leads = new DemoLeads(b, c, rnd, accountId, currency, start, end, days, ads, products, n);
                leadsWritten.accept(0);
                for (int i = 0; i < o.leads(); i++) {
                    leads.write(i);
                    leadsWritten.accept(i + 1);
                    if (b.pending() > 5_000) {
                        b.flush(c);
                    }
                }
                b.flush(c);
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

    static final class Counts {
        int adAccounts, campaigns, adSets, sources, spend, paid, organic, tags, orders, sales, rebills, refunds, calls,
                carts, subscriptions, orderNumber = 100_000;
        final Map<String, Integer> clicksByAd = new java.util.HashMap<>();
    }

    // ---- ad hierarchy, sources, catalog, spend

    private List<Ad> hierarchy(DemoRows b, String accountId, Instant start, Counts n) throws SQLException {
        List<Ad> ads = new ArrayList<>();
        for (Platform p : PLATFORMS) {
            String adAccount = rnd.digits(p.type().equals("FACEBOOK") ? 15 : 10);
            b.hierarchy.add(new AdHierarchy.Bulk(accountId, p.type(), adAccount, null, null, null,
                    "Demo " + p.slug().toUpperCase(Locale.ROOT) + " account", false, start));
            n.adAccounts++;
            for (int ci = 0; ci < p.campaigns().length; ci++) {
                String campaign = rnd.digits(p.type().equals("GOOGLE") ? 11 : 17);
                b.hierarchy.add(new AdHierarchy.Bulk(accountId, p.type(), adAccount, campaign, null, null, p.campaigns()[ci], false, start));
                n.campaigns++;
                for (int si = 0; si < 2; si++) {
                    String adSetName = p.adSets()[ci * 2 + si];
                    String adSet = rnd.digits(p.type().equals("GOOGLE") ? 12 : 17);
                    b.hierarchy.add(new AdHierarchy.Bulk(accountId, p.type(), adAccount, campaign, adSet, null, adSetName, false, start));
                    n.adSets++;
                    String tag = "@" + p.slug() + "-" + adSetName.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-")
                            .replaceAll("(^-|-$)", "");
                    b.sources.add(new SourcesTable.Bulk(accountId, rnd.id("src_", start), tag, p.campaigns()[ci] + " / " + adSetName,
                            false, p.type(), adSet, adAccount, campaign, start, start));
                    // the row a source with an ad platform stands as in ads (docs/attribution-models.md, "The ad hierarchy the API writes")
                    b.hierarchy.add(new AdHierarchy.Bulk(accountId, p.type(), adAccount, campaign, adSet, adSet,
                            p.campaigns()[ci] + " / " + adSetName, true, start));
                    n.sources++;
                    for (int ai = 0; ai < 2; ai++) {
                        String adName = p.ads()[(si * 2 + ai + ci) % p.ads().length];
                        String ad = rnd.digits(p.type().equals("GOOGLE") ? 12 : 17);
                        b.hierarchy.add(new AdHierarchy.Bulk(accountId, p.type(), adAccount, campaign, adSet, ad, adName, false, start));
                        ads.add(new Ad(p, adAccount, campaign, adSet, ad, adName, tag, 0.5 + rnd.nextDouble(),
                                p.share() * (0.5 + rnd.nextDouble())));
                    }
                }
            }
        }
        for (String[] organic : ORGANIC) {
            b.sources.add(new SourcesTable.Bulk(accountId, rnd.id("src_", start), organic[0], organic[1], true, "", "", "", "", start,
                    start));
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
        List<ProductCatalog.Bulk> productRows = new ArrayList<>();
        for (Object[] r : rows) {
            String category = (String) r[6];
            String categoryId = categories.computeIfAbsent(category, k -> rnd.id("cat_", start));
            Product p = new Product(rnd.id("prd_", start), (String) r[0], (String) r[1], (String) r[2], new BigDecimal((String) r[3]),
                    (Boolean) r[4], (Boolean) r[5], categoryId, category);
            productRows.add(new ProductCatalog.Bulk(accountId, p.id(), p.name(), p.tag(), p.sku(), p.price(), p.recurring(),
                    p.callProduct(), categoryId, start, start));
            products.add(p);
        }
        List<Categories.Bulk> categoryRows = new ArrayList<>();
        categories.forEach((name, id) -> categoryRows.add(new Categories.Bulk(accountId, id, name, start)));
        Categories.insertBulk(c, categoryRows);
        ProductCatalog.insertBulk(c, productRows);
        return products;
    }

    private void spend(DemoRows b, String accountId, List<Ad> ads, LocalDate from, LocalDate to, String currency, Counts n)
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
                b.spend.add(new SpendImport.BulkDay(accountId, ad.platform().type(), ad.adId(), d, ad.adAccountId(), ad.campaignId(),
                        ad.adSetId(), spend, impressions, clicks, Math.round(impressions * 0.2 * rnd.nextDouble()), conversions,
                        conversions.multiply(new BigDecimal("92.50")).setScale(2, RoundingMode.HALF_UP), currency,
                        d.plusDays(1).atStartOfDay(ZoneId.of("UTC")).toInstant()));
                n.spend++;
            }
        }
    }
}
