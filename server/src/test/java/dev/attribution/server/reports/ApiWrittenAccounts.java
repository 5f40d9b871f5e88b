package dev.attribution.server.reports;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.attribution.api.JsonBody;
import dev.attribution.api.auth.Roles;
import dev.attribution.server.reports.ApiWrittenData.Click;
import dev.attribution.server.reports.ApiWrittenData.Cost;
import dev.attribution.server.reports.ApiWrittenData.Item;
import dev.attribution.server.reports.ApiWrittenData.Order;
import dev.attribution.server.reports.ApiWrittenData.Source;
import dev.attribution.server.support.ApiTest;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The accounts of {@link ApiWrittenRoasTest}, written only through HTTP as an integration partner writes them (the
 * data of {@link ApiWrittenData}), and what the server derived from them read back through GET /leads and GET /sales.
 */
final class ApiWrittenAccounts {

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

    private static List<Written> shared;

    private final ApiTest api;

    ApiWrittenAccounts(ApiTest api) {
        this.api = api;
    }

    // ---------------------------------------------------------------- writing, as a partner does

    /**
     * The accounts of seeds 1..{@code seeds} (zones alternate New York / UTC), written once per test JVM — the tests
     * that use them only read — then read back once CDC has caught up.
     */
    static synchronized List<Written> shared(ApiTest api, int seeds) {
        if (shared == null) {
            ApiWrittenAccounts writer = new ApiWrittenAccounts(api);
            List<Written> written = new ArrayList<>();
            for (int seed = 1; seed <= seeds; seed++) {
                ZoneId zone = ZoneId.of(seed % 2 == 0 ? "UTC" : "America/New_York");
                ApiWrittenData data = new ApiWrittenData(seed, zone, LocalDate.now(zone));
                written.add(writer.write(data, api.newUnthrottledAccount(zone.getId(), Roles.ALL)));
            }
            api.awaitCdcCaughtUp();
            written.forEach(writer::readBack);
            shared = List.copyOf(written);
        }
        return shared;
    }

    /** Writes {@code data} into the account of {@code key}, phase by phase as each depends on the one before. */
    Written write(ApiWrittenData data, String key) {
        Written w = new Written(data, key);
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
        return w;
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
        JsonNode source = api.processed(w.key, "POST", "/api/v1.0/sources", body.toString(), "CREATE_SOURCE_LINK");
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

    static String wall(java.time.LocalDateTime t, String offset) {
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
        return api.sendWrite(key, method, path, json);
    }

    private void awaitProcessed(String key, List<String> requestIds) {
        api.awaitAllProcessed(key, requestIds);
    }

    // ---------------------------------------------------------------- reading back what the server derived

    /** Reads back what the server derived: lead ids, the ads, the sales with their amounts and refunds. */
    void readBack(Written w) {
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

    /** Every page of a listing. */
    List<JsonNode> pages(String key, String pathAndQuery) {
        List<JsonNode> out = new ArrayList<>();
        String next = null;
        for (int page = 0; page < 50; page++) {
            ApiTest.Response r = api.get(key, pathAndQuery + (next == null ? "" : "&pageId=" + ApiTest.enc(next)));
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
}
