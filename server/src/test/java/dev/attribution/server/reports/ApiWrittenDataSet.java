package dev.attribution.server.reports;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.server.reports.ApiWrittenDataGenerator.Call;
import dev.attribution.server.reports.ApiWrittenDataGenerator.Click;
import dev.attribution.server.reports.ApiWrittenDataGenerator.Cost;
import dev.attribution.server.reports.ApiWrittenDataGenerator.Http;
import dev.attribution.server.reports.ApiWrittenDataGenerator.Item;
import dev.attribution.server.reports.ApiWrittenDataGenerator.Lead;
import dev.attribution.server.reports.ApiWrittenDataGenerator.Order;
import dev.attribution.server.reports.ApiWrittenDataGenerator.Source;
import dev.attribution.server.reports.ApiWrittenDataGenerator.SpendLine;
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

import static dev.attribution.server.reports.ApiWrittenDataGenerator.GOOGLE_V2;

/** One planned account, then its written ids, then (after {@link #readBack}) the oracle's input. */
final class ApiWrittenDataSet {
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

    ApiWrittenDataSet(int seed) {
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
}
