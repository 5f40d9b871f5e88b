package dev.attribution.server.demo;

import dev.attribution.command.calls.CallsTable;
import dev.attribution.command.carts.CartsTable;
import dev.attribution.command.clicks.ClicksTable;
import dev.attribution.command.leads.LeadIps;
import dev.attribution.command.leads.LeadPhones;
import dev.attribution.command.leads.LeadStages;
import dev.attribution.command.leads.LeadTags;
import dev.attribution.command.leads.LeadsTable;
import dev.attribution.command.orders.ExchangeRates;
import dev.attribution.command.orders.OrdersTable;
import dev.attribution.command.sales.SalesTable;
import dev.attribution.command.subscriptions.SubscriptionsTable;
import dev.attribution.server.demo.DemoSeed.Ad;
import dev.attribution.server.demo.DemoSeed.Click;
import dev.attribution.server.demo.DemoSeed.Counts;
import dev.attribution.server.demo.DemoSeed.Product;
import dev.attribution.server.demo.DemoSeed.Sale;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static dev.attribution.server.demo.DemoRandom.max;
import static dev.attribution.server.demo.DemoRandom.min;

/**
 * The lead side of the demo account ({@link DemoSeed}): each lead joins at a time weighted to later days and weekdays,
 * clicks paid ads (leaning to one ad) and organic sources, and may call, buy (order bumps, repeat purchases, monthly
 * rebills, refunds), leave carts and subscribe. Every draw comes from the seed's one {@link DemoRandom}, in the order
 * the rows are written, so the same seed gives the same rows.
 */
final class DemoLeads {

    private final DemoRows b;
    private final Connection c;
    private final DemoRandom rnd;
    private final String accountId;
    private final String currency;
    private final Instant start;
    private final Instant end;
    private final int days;
    private final List<Ad> ads;
    private final double totalWeight;
    private final List<Product> products;
    private final Counts n;

    DemoLeads(DemoRows b, Connection c, DemoRandom rnd, String accountId, String currency, Instant start, Instant end, int days,
              List<Ad> ads, List<Product> products, Counts n) {
        this.b = b;
        this.c = c;
        this.rnd = rnd;
        this.accountId = accountId;
        this.currency = currency;
        this.start = start;
        this.end = end;
        this.days = days;
        this.ads = ads;
        double total = 0;
        for (Ad ad : ads) {   // summed in this order: pickAd's draws depend on it
            total += ad.weight();
        }
        this.totalWeight = total;
        this.products = products;
        this.n = n;
    }

    /** Lead {@code index}: who they are, their clicks, calls, orders, carts and subscriptions, written in that order. */
    void write(int index) throws SQLException {
        Instant joined = joinTime();
        String leadId = rnd.id("ld_", joined);
        String first = DemoSeed.FIRST[rnd.nextInt(DemoSeed.FIRST.length)];
        String last = DemoSeed.LAST[rnd.nextInt(DemoSeed.LAST.length)];
        String email = (first + "." + last + "." + (index + 1) + "@example.com").toLowerCase(Locale.ROOT);
        String ip = "10." + rnd.nextInt(256) + "." + rnd.nextInt(256) + "." + (1 + rnd.nextInt(254));
        String agent = DemoSeed.AGENTS[rnd.nextInt(DemoSeed.AGENTS.length)];

        // clicks: the joining one, then a few more over the following weeks; paid clicks lean to one ad (retargeting)
        Ad affinity = rnd.nextDouble() < 0.72 ? pickAd() : null;
        List<Click> clicks = new ArrayList<>();
        clicks.add(touch(joined, affinity, true));
        int more = rnd.nextDouble() < 0.3 ? 0 : 1 + (int) Math.floor(-Math.log(1 - rnd.nextDouble()) * 3.5);
        for (int k = 0; k < more; k++) {
            Instant at = joined.plusSeconds((long) (rnd.nextDouble() * 45 * 86400));
            if (at.isBefore(end)) {
                clicks.add(touch(at, affinity, false));
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
            purchase(at, product, orders, subscriptions);
            if (rnd.nextDouble() < 0.15) {
                Instant again = at.plusSeconds((long) (86400 * (7 + rnd.nextDouble() * 40)));
                Product other = products.get(rnd.nextInt(products.size()));
                purchase(again, other, orders, subscriptions);
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
        b.leads.add(new LeadsTable.Bulk(accountId, leadId, email, first, last, consent, (String) current[0], (Instant) current[1],
                joined, updated, consent.equals("GRANTED") ? joined : null));
        for (Object[] stage : stages) {
            b.stageEntries.add(new LeadStages.BulkEntry(accountId, leadId, (String) stage[0], (Instant) stage[1]));
        }
        b.ips.add(new LeadIps.Bulk(accountId, leadId, ip));
        if (rnd.nextDouble() < 0.4) {
            b.phones.add(new LeadPhones.Bulk(accountId, leadId,
                    "+1 (" + (200 + rnd.nextInt(700)) + ") 555-" + String.format("%04d", rnd.nextInt(10000))));
        }

        writeTags(leadId, clicks, joined);
        writeClicks(leadId, clicks, joined, ip, agent);
        writeCalls(leadId, calls, callStates);
        writeOrders(leadId, joined, orders, subscriptions);
    }

    /** Tags: each source's tag at its first click (as a click applies it), plus the interests the lead showed. */
    private void writeTags(String leadId, List<Click> clicks, Instant joined) throws SQLException {
        Map<String, Instant> tags = new LinkedHashMap<>();
        for (Click click : clicks) {
            tags.putIfAbsent(click.ad() != null ? click.ad().sourceTag() : click.organicTag(), click.at());
        }
        for (String interest : DemoSeed.INTEREST_TAGS) {
            if (rnd.nextDouble() < 0.18) {
                tags.putIfAbsent(interest, joined.plusSeconds(rnd.nextInt(3600)));
            }
        }
        for (Map.Entry<String, Instant> t : tags.entrySet()) {
            b.tags.add(new LeadTags.Bulk(accountId, leadId, t.getKey(), t.getValue()));
            n.tags++;
        }
    }

    private void writeClicks(String leadId, List<Click> clicks, Instant joined, String ip, String agent) throws SQLException {
        String session = rnd.id("ses_", joined);
        for (Click click : clicks) {
            Ad ad = click.ad();
            String landing = "https://shop.example.com/" + (ad == null ? "free-recipes" : "cook-at-home");
            if (ad != null) {
                String clickId = Long.toHexString(rnd.nextLong()) + Long.toHexString(rnd.nextLong());
                b.clicks.add(new ClicksTable.Bulk(accountId, rnd.id("clk_", click.at()), leadId, click.at(),
                        landing + "?" + ad.platform().clickParam() + "=" + clickId + "&utm_source=" + ad.platform().slug(),
                        ad.platform().referrer(), session, ip, agent, ad.sourceTag(), false, ad.platform().type(), ad.adSetId(),
                        ad.adId(), clickId, click.at().plusSeconds(2)));
                n.paid++;
                n.clicksByAd.merge(ad.adId(), 1, Integer::sum);
            } else {
                b.clicks.add(new ClicksTable.Bulk(accountId, rnd.id("clk_", click.at()), leadId, click.at(), landing + "?utm_source="
                        + click.organicTag().substring(1), null, session, ip, agent, click.organicTag(), true, null, null,
                        null, null, click.at().plusSeconds(2)));
                n.organic++;
            }
        }
    }

    private void writeCalls(String leadId, List<Instant[]> calls, List<String> callStates) throws SQLException {
        for (int k = 0; k < calls.size(); k++) {
            String state = callStates.get(k);
            b.calls.add(new CallsTable.Bulk(accountId, rnd.id("cll_", calls.get(k)[0]), "cal-" + Long.toHexString(rnd.nextLong()),
                    k == 0 ? "Discovery call" : "Strategy session", leadId, state.equals("QUALIFIED"), state, k == 0,
                    calls.get(k)[0], calls.get(k)[0].plusSeconds(5), calls.get(k)[0].plusSeconds(5)));
            n.calls++;
        }
    }

    /** Orders and their sales (flags as SalesTable.refreshFlags leaves them after the lead's last order), carts, subscriptions. */
    private void writeOrders(String leadId, Instant joined, List<List<Sale>> orders, List<Object[]> subscriptions) throws SQLException {
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
                cart(cartId, leadId, head.at().minusSeconds(60 + rnd.nextInt(3000)), order, head.orderId());
            }
        }
        if (orders.isEmpty() && rnd.nextDouble() < 0.12) {
            Product p = products.get(rnd.nextInt(products.size()));
            Instant at = joined.plusSeconds(300 + rnd.nextInt(86400 * 3));
            if (at.isBefore(end)) {
                cart("cart-" + Long.toHexString(rnd.nextLong()), leadId, at,
                        List.of(new Sale(null, p, 0, 1, p.price(), BigDecimal.ZERO.setScale(2), false, at, false, null)), null);
            }
        }
        for (List<Sale> order : orders) {
            Sale head = order.get(0);
            Instant refundedAt = head.refunded() ? head.refundAt() : null;
            String subscription = order.stream().anyMatch(s -> s.product().recurring()) ? subscriptionOf(subscriptions, head) : null;
            b.orders.add(new OrdersTable.Bulk(accountId, head.orderId(), leadId, carts.get(head.orderId()), subscription, currency,
                    head.at(), refundedAt, head.at().plusSeconds(3), refundedAt != null ? refundedAt : head.at().plusSeconds(3)));
            n.orders++;
            if (head.refunded()) {
                n.refunds++;
            }
            for (Sale s : order) {
                BigDecimal price = s.price();
                b.sales.add(new SalesTable.Bulk(accountId, rnd.id("sle_", s.at()), s.orderId(), leadId, leadId, s.product().id(),
                        s.product().name(), s.product().tag(), s.product().sku(), s.product().categoryId(),
                        s.product().categoryName(), s.position(), s.quantity(), s.unitPrice(), price, s.discount(), currency,
                        ExchangeRates.toUsd(c, price, currency, s.at()), s.recurring(),
                        !s.recurring() && s.orderId().equals(firstOrder), s.orderId().equals(lastOrder), s.refunded(),
                        s.refunded() ? s.refundAt() : null, s.refunded() ? price : BigDecimal.ZERO.setScale(2), s.at(),
                        s.at().plusSeconds(3), s.refunded() ? s.refundAt() : s.at().plusSeconds(3)));
                n.sales++;
                if (s.recurring()) {
                    n.rebills++;
                }
            }
        }
        for (Object[] sub : subscriptions) {
            b.subscriptions.add(new SubscriptionsTable.Bulk(accountId, (String) sub[1], (String) sub[2], leadId, (String) sub[3],
                    (String) sub[4], (String) sub[5], "MONTH", (BigDecimal) sub[6], (String) sub[7], (Instant) sub[8],
                    (Instant) sub[9], (Instant) sub[9], (String) sub[10], (String) sub[11], (Instant) sub[8], (Instant) sub[12]));
            n.subscriptions++;
        }
    }

    /** One purchase at {@code at}: the product, maybe an ebook bump; a membership also opens a subscription billed monthly. */
    private void purchase(Instant at, Product product, List<List<Sale>> orders, List<Object[]> subscriptions) {
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
            subscriptions.add(new Object[]{null, rnd.id("sub_", at), external, "plan_pro_monthly", product.name(), product.tag(),
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

    private void cart(String cartId, String leadId, Instant at, List<Sale> items, String orderId) throws SQLException {
        BigDecimal total = BigDecimal.ZERO.setScale(2);
        for (Sale s : items) {
            total = total.add(s.unitPrice().multiply(BigDecimal.valueOf(s.quantity())));
        }
        int events = 1 + rnd.nextInt(3);
        b.carts.add(new CartsTable.BulkCart(accountId, cartId, leadId, currency, total, events, orderId, at, at,
                orderId != null ? items.get(0).at() : at));
        for (Sale s : items) {
            b.cartItems.add(new CartsTable.BulkItem(accountId, cartId, s.position(), s.product().name(), s.unitPrice(), s.quantity(),
                    s.product().sku(), s.recurring(), s.product().id()));
        }
        n.carts++;
    }

    private Click touch(Instant at, Ad affinity, boolean joining) {
        boolean paid = affinity != null ? rnd.nextDouble() < (joining ? 1.0 : 0.75) : rnd.nextDouble() < 0.3;
        if (!paid) {
            return new Click(at, null, DemoSeed.ORGANIC[rnd.nextInt(DemoSeed.ORGANIC.length)][0]);
        }
        Ad ad = affinity != null && rnd.nextDouble() < 0.6 ? affinity : pickAd();
        return new Click(at, ad, null);
    }

    private Ad pickAd() {
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
    private Instant joinTime() {
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

}
