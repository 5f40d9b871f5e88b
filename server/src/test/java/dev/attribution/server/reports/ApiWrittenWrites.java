package dev.attribution.server.reports;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.server.reports.ApiWrittenDataGenerator.Call;
import dev.attribution.server.reports.ApiWrittenDataGenerator.Click;
import dev.attribution.server.reports.ApiWrittenDataGenerator.Cost;
import dev.attribution.server.reports.ApiWrittenDataGenerator.Item;
import dev.attribution.server.reports.ApiWrittenDataGenerator.Lead;
import dev.attribution.server.reports.ApiWrittenDataGenerator.Order;
import dev.attribution.server.reports.ApiWrittenDataGenerator.Source;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import static dev.attribution.server.reports.ApiWrittenDataGenerator.GOOGLE;
import static dev.attribution.server.reports.ApiWrittenDataSet.cents;
import static dev.attribution.server.reports.ApiWrittenDataSet.money;

/** The writes of {@link ApiWrittenAttributionTest}'s planned accounts ({@link ApiWrittenDataGenerator#plan}), phase by phase. */
final class ApiWrittenWrites {

    private ApiWrittenWrites() {
    }

    /** A write to send and, once PROCESSED, what to do with its result. */
    record Write(ApiWrittenDataSet set, String method, String path, String json, String eventType, java.util.function.Consumer<JsonNode> then) {
    }

    /**
     * The writes of the plans in dependency phases (each phase is sent for every account, then awaited): 1. the sources
     * not created late; 2. each lead's first click (the one that makes the lead and gives it its phones); 3. the other
     * clicks (some naming the lead by phone only); 4. the late sources, the orders and the calls; 5. the refunds,
     * the custom costs (on even seeds in phase 1) and the source deletions.
     */
    static List<List<Write>> phases(List<ApiWrittenDataSet> sets) {
        List<List<Write>> phases = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            phases.add(new ArrayList<>());
        }
        for (ApiWrittenDataSet d : sets) {
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
