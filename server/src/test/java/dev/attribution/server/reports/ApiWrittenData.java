package dev.attribution.server.reports;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * A data set an integration partner writes through the API alone ({@link ApiWrittenRoasTest}): ad-platform sources,
 * an organic source, clicks, multi-item orders with rebills, a refund, calls and custom costs, generated from a seed
 * around {@code today}. Everything here is what the test sends; what the server derives (lead and sale ids, sale
 * amounts, refunds) is read back through the API into the {@code *Read} maps.
 */
final class ApiWrittenData {

    /** A source as written; {@code platform} null for the organic one. {@code ads}: the real ad ids its clicks name. */
    record Source(String key, String name, String platform, String adSourceId, String adAccountId, String campaignId,
                  String subType, List<String> ads) {
        boolean paid() {
            return platform != null;
        }

        /**
         * Created after its clicks (which then carry no source tag: it does not exist yet): the hierarchy must come out
         * the same whatever the order of writes (design-hierarchy.md).
         */
        boolean late() {
            return key.equals("fb3");
        }

        /** LinkedIn sources sit at campaign level: adSourceId is a campaign, there is no ad set (design-hierarchy.md). */
        boolean campaignLevel() {
            return "LINKEDIN".equals(platform);
        }
    }

    /**
     * A click as written. {@code email} null: sent without email ({@code ip} then connects it to the lead that used the
     * ip, or nothing: unassigned). {@code leadEmail}: the lead it belongs to once applied (null = unassigned).
     */
    record Click(String email, String leadEmail, String ip, Instant at, Source source, String adId) {
        /** The ad the click's credit goes to: the ad id when sent, else the source's own entry (design-hierarchy.md). */
        String creditedAd() {
            return adId.isEmpty() ? source.adSourceId() : adId;
        }

        boolean organic() {
            return !source.paid();
        }

        /** Whether the click carries a source tag (conversion paths and source-tag aggregation see only those). */
        boolean tagged() {
            return !source.late();
        }
    }

    record Item(String name, long unitCents, int quantity, boolean rebill) {
    }

    record Order(String id, String email, Instant at, List<Item> items, String ip) {
    }

    record Call(String email, Instant at, String name, String state) {
    }

    /** A custom cost as written: wall-clock start / end (null = open), tags by source key. */
    record Cost(String name, String frequency, LocalDateTime start, LocalDateTime end, long cents, List<String> sourceKeys,
                String offset) {
    }

    record Refund(String orderId, long cents) {
    }

    final int seed;
    final ZoneId zone;
    final LocalDate today;
    final List<Source> sources = new ArrayList<>();
    final List<String> leads = new ArrayList<>();
    final List<Click> clicks = new ArrayList<>();
    final List<Order> orders = new ArrayList<>();
    final List<Call> calls = new ArrayList<>();
    final List<Cost> costs = new ArrayList<>();
    final List<Refund> refunds = new ArrayList<>();
    /** An ad only unassigned clicks name: it exists (the click registers it) but has no row in any range. */
    String lonelyAd;

    /** Filled from the API after the writes: source key → tag; email → lead id. */
    final Map<String, String> tags = new LinkedHashMap<>();
    final Map<String, String> leadIds = new LinkedHashMap<>();

    ApiWrittenData(int seed, ZoneId zone, LocalDate today) {
        this.seed = seed;
        this.zone = zone;
        this.today = today;
        generate(new Random(7700 + seed));
    }

    Source source(String key) {
        return sources.stream().filter(s -> s.key().equals(key)).findFirst().orElseThrow();
    }

    private Instant at(Random rnd, int fromDaysAgo, int toDaysAgo) {
        Instant start = today.minusDays(fromDaysAgo).atStartOfDay(zone).toInstant();
        Instant end = today.minusDays(toDaysAgo).atStartOfDay(zone).toInstant();
        return start.plusSeconds(rnd.nextInt((int) (end.getEpochSecond() - start.getEpochSecond())));
    }

    private void generate(Random rnd) {
        String s = Integer.toString(seed);
        // Facebook: adSourceId = ad set id; both sets in one ad account, campaigns shared or not
        String fbAccount = "act_90" + s + "0001";
        String camp1 = "2384" + s + "000001";
        String camp2 = rnd.nextBoolean() ? camp1 : "2384" + s + "000002";
        sources.add(new Source("fb1", "FB Prospecting " + s, "FACEBOOK", "2385" + s + "000001", fbAccount, camp1, null,
                List.of("2386" + s + "000011", "2386" + s + "000012")));
        sources.add(new Source("fb2", "FB Retargeting " + s, "FACEBOOK", "2385" + s + "000002", fbAccount, camp2, null,
                List.of("2386" + s + "000021")));
        // Google: adSourceId = ad group id, no campaign on the source
        sources.add(new Source("g1", "Google Search " + s, "GOOGLE", "13" + s + "0000031", "55" + s + "-000-0031", null,
                rnd.nextBoolean() ? "DISPLAY" : "VIDEO", List.of("6" + s + "00000311", "6" + s + "00000312")));
        sources.add(new Source("org", "Newsletter " + s, null, null, null, null, null, List.of()));
        // LinkedIn: adSourceId = campaign id (no ad set, no ad ids on clicks)
        sources.add(new Source("li1", "LinkedIn Sponsored " + s, "LINKEDIN", "50" + s + "0000041", "508" + s + "0041", null, null,
                List.of()));
        sources.add(new Source("fb3", "FB Late " + s, "FACEBOOK", "2385" + s + "000003", fbAccount, "2384" + s + "000003", null,
                List.of("2386" + s + "000031")));
        lonelyAd = "2386" + s + "000013";

        int n = 10 + rnd.nextInt(7);
        for (int l = 0; l < n; l++) {
            String email = "lead" + l + ".s" + s + "@example.com";
            leads.add(email);
            Set<Long> seconds = new HashSet<>();
            int k = 1 + rnd.nextInt(4);
            for (int i = 0; i < k; i++) {
                clicks.add(click(rnd, email, email, null, seconds));
            }
            // a lead whose order carries an ip gets a click sent without email from that ip (written after the order)
            String ip = null;
            if (rnd.nextInt(4) == 0) {
                ip = "10." + s + "." + l + ".7";
                clicks.add(click(rnd, null, email, ip, seconds));
            }
            int m = rnd.nextInt(4);
            List<Instant> times = new ArrayList<>();
            for (int i = 0; i < m; i++) {
                Instant t;
                do {
                    t = at(rnd, 48, 4);
                } while (!seconds.add(t.getEpochSecond()));
                times.add(t);
            }
            times.sort(null);
            for (int i = 0; i < m; i++) {
                List<Item> items = new ArrayList<>();
                int itemsN = 1 + rnd.nextInt(3);
                boolean rebillOrder = i > 0 && rnd.nextInt(3) == 0;
                for (int j = 0; j < itemsN; j++) {
                    boolean rebill = rebillOrder || rnd.nextInt(6) == 0;
                    // one product per item: concurrent orders naming the same new product race (see ApiWrittenRoasTest)
                    items.add(new Item("Plan " + (char) ('A' + rnd.nextInt(5)) + " " + s + "-" + l + "-" + i + "-" + j, 500 + rnd.nextInt(29500),
                            1 + (rnd.nextInt(4) == 0 ? 1 : 0), rebill));
                }
                orders.add(new Order("o" + s + "-" + l + "-" + i, email, times.get(i), items, i == 0 ? ip : null));
            }
            if (m == 0 && ip != null) {
                // the ip must reach the lead: an order of one item carries it
                Instant t = at(rnd, 40, 4);
                orders.add(new Order("o" + s + "-" + l + "-ip", email, t, List.of(new Item("Plan Z " + s + "-" + l, 1999, 1, false)), ip));
            }
            int c = rnd.nextInt(3);
            for (int i = 0; i < c; i++) {
                Instant t;
                do {
                    t = at(rnd, 48, 4);
                } while (!seconds.add(t.getEpochSecond()));
                String[] states = {"QUALIFIED", "UNQUALIFIED", null};
                calls.add(new Call(email, t, "Call " + l + "-" + i, states[rnd.nextInt(3)]));
            }
        }
        // unassigned clicks: no email, no phone, an ip nobody used
        Set<Long> none = new HashSet<>();
        for (int i = 0; i < 2; i++) {
            Instant t = at(rnd, 45, 10);
            clicks.add(new Click(null, null, "192.0.2." + (10 + i), t, source("fb1"), i == 0 ? lonelyAd : ""));
            none.add(t.getEpochSecond());
        }
        // custom costs on the source tags: DAILY with and without end, ONE_TIME; the organic tag's share goes nowhere
        List<String> keys = List.of("fb1", "fb2", "g1", "org");
        costs.add(new Cost("Agency fee " + s, "DAILY", today.minusDays(45 + rnd.nextInt(5)).atTime(rnd.nextInt(24), 0),
                today.minusDays(15 + rnd.nextInt(10)).atTime(23, 59), 500 + rnd.nextInt(7000), List.of("fb1"), offset(rnd)));
        costs.add(new Cost("Creative " + s, "DAILY", today.minusDays(35 + rnd.nextInt(5)).atTime(8, 30), null,
                300 + rnd.nextInt(4000), shuffled(rnd, List.of("g1", "fb2", "li1")), offset(rnd)));
        costs.add(new Cost("Launch " + s, "ONE_TIME", today.minusDays(20 + rnd.nextInt(10)).atTime(23, 0), null,
                10_001 + rnd.nextInt(50_000), shuffled(rnd, List.of("fb1", "org", "g1")), offset(rnd)));
        costs.add(new Cost("Late source " + s, "DAILY", today.minusDays(38 + rnd.nextInt(5)).atTime(12, 0),
                today.minusDays(18).atTime(12, 0), 200 + rnd.nextInt(3000), shuffled(rnd, List.of("fb3", "fb1")), offset(rnd)));
        costs.add(new Cost("Sponsor " + s, "DAILY", today.minusDays(30).atStartOfDay(), today.minusDays(25).atStartOfDay(),
                1000 + rnd.nextInt(1000), List.of("org"), null));
        int extra = rnd.nextInt(3);
        for (int i = 0; i < extra; i++) {
            List<String> t = new ArrayList<>(shuffled(rnd, keys).subList(0, 1 + rnd.nextInt(4)));
            boolean daily = rnd.nextBoolean();
            LocalDateTime start = today.minusDays(10 + rnd.nextInt(45)).atTime(rnd.nextInt(24), rnd.nextInt(60));
            costs.add(new Cost("Extra " + s + "-" + i, daily ? "DAILY" : "ONE_TIME", start,
                    daily && rnd.nextBoolean() ? start.plusDays(rnd.nextInt(12)) : null, 1 + rnd.nextInt(9000), t, offset(rnd)));
        }
        // one or two refunds (amounts read back through GET /sales)
        List<Order> refundable = new ArrayList<>(orders);
        for (int i = 0; i < 1 + rnd.nextInt(2) && !refundable.isEmpty(); i++) {
            Order o = refundable.remove(rnd.nextInt(refundable.size()));
            long total = o.items().stream().mapToLong(it -> it.unitCents() * it.quantity()).sum();
            refunds.add(new Refund(o.id(), 1 + rnd.nextInt((int) total)));
        }
    }

    private Click click(Random rnd, String email, String leadEmail, String ip, Set<Long> seconds) {
        Instant t;
        do {
            t = at(rnd, 50, 10);
        } while (!seconds.add(t.getEpochSecond()));
        int kind = rnd.nextInt(11);
        if (kind < 2) {
            return new Click(email, leadEmail, ip, t, source("org"), "");
        }
        Source src = source(kind < 4 ? "fb1" : kind < 6 ? "fb2" : kind < 8 ? "g1" : kind < 9 ? "fb3" : "li1");
        String ad = rnd.nextInt(5) < 2 || src.ads().isEmpty() ? "" : src.ads().get(rnd.nextInt(src.ads().size()));
        return new Click(email, leadEmail, ip, t, src, ad);
    }

    private static String offset(Random rnd) {
        String[] o = {null, "Z", "-05:00", "+09:30"};
        return o[rnd.nextInt(o.length)];
    }

    private static List<String> shuffled(Random rnd, List<String> in) {
        List<String> out = new ArrayList<>(in);
        java.util.Collections.shuffle(out, rnd);
        return out;
    }
}
