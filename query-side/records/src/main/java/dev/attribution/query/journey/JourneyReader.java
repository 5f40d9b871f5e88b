package dev.attribution.query.journey;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.attribution.api.AdSourceLevel;
import dev.attribution.api.ApiDates;
import dev.attribution.api.JsonBody;
import dev.attribution.query.calls.CallReader;
import dev.attribution.query.carts.CartReader;
import dev.attribution.views.CartView;
import dev.attribution.query.emailevents.EmailEventReader;
import dev.attribution.query.leads.LeadReader;
import dev.attribution.views.LeadView;
import dev.attribution.views.ProductView;
import dev.attribution.query.sales.SaleReader;
import dev.attribution.query.subscriptions.SubscriptionReader;
import io.micronaut.data.jdbc.runtime.JdbcOperations;
import io.micronaut.transaction.annotation.Transactional;
import jakarta.inject.Singleton;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Currency;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * {@code GET /leads/journey} (spec 2.17, 4.1): per lead, the LeadWithStage (with {@code isOriginLead}), the linked
 * leads (merged into it, or its origin) and, when asked, the chronological journey of the events this service
 * holds for leads: {@code sl} (source-link clicks), {@code lead-stage}, {@code action} ({@code !} and unprefixed tags)
 * {@code opt-in}, {@code sale}, {@code call}, {@code cart}, {@code subscription-started}, {@code subscription-ended},
 * and {@code email} / {@code email-open} (imported email events, docs/email-events.md). The lead's sales, calls, carts
 * (journey variant of 2.10) and subscriptions come from the commerce readers, so they have the shapes of their own
 * GETs. {@code emailSource} is true on email events and on {@code sl} events whose source is an email link (its
 * category or traffic source is named Email), false on other {@code sl} events, absent on the other types.
 */
@Singleton
public class JourneyReader {

    public static final List<String> FIELDS = List.of("lead", "sales", "calls", "carts", "subscriptions", "linkedLeads", "journey");

    private final JdbcOperations jdbc;
    private final LeadReader leads;
    private final SaleReader sales;
    private final CallReader calls;
    private final CartReader carts;
    private final SubscriptionReader subscriptions;
    private final EmailEventReader emailEvents;

    public JourneyReader(JdbcOperations jdbc, LeadReader leads, SaleReader sales, CallReader calls, CartReader carts,
                         SubscriptionReader subscriptions, EmailEventReader emailEvents) {
        this.jdbc = jdbc;
        this.leads = leads;
        this.sales = sales;
        this.calls = calls;
        this.carts = carts;
        this.subscriptions = subscriptions;
        this.emailEvents = emailEvents;
    }

    @Transactional(readOnly = true)
    public List<ObjectNode> journeys(String accountId, ZoneId zone, List<String> ids, List<String> emails, Set<String> fields) {
        Connection c = jdbc.getConnection();
        try {
            List<String> matched = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("""
                    SELECT id FROM leads WHERE account_id = ? AND NOT erased AND (id = ANY(?) OR lower(email) = ANY(?))
                    ORDER BY created_at, id""")) {
                ps.setString(1, accountId);
                ps.setArray(2, c.createArrayOf("text", ids.toArray()));
                ps.setArray(3, c.createArrayOf("text", emails.stream().map(e -> e.toLowerCase(Locale.ROOT)).toArray()));
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        matched.add(rs.getString(1));
                    }
                }
            }
            List<ObjectNode> out = new ArrayList<>();
            for (LeadView lead : leads.byIds(c, accountId, zone, matched)) {
                out.add(journey(c, accountId, zone, lead, fields));
            }
            return out;
        } catch (SQLException e) {
            throw new IllegalStateException("journey query failed: " + e.getMessage(), e);
        }
    }

    private ObjectNode journey(Connection c, String accountId, ZoneId zone, LeadView lead, Set<String> fields) throws SQLException {
        ObjectNode j = JsonBody.mapper().createObjectNode();
        List<String> linkedIds = new ArrayList<>();
        String originId = null;
        boolean isOrigin = false;
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT id, 'child' FROM leads WHERE account_id = ? AND origin_lead_id = ? AND NOT erased
                UNION ALL SELECT origin_lead_id, 'origin' FROM leads WHERE account_id = ? AND id = ? AND origin_lead_id IS NOT NULL""")) {
            ps.setString(1, accountId);
            ps.setString(2, lead.id());
            ps.setString(3, accountId);
            ps.setString(4, lead.id());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    linkedIds.add(rs.getString(1));
                    isOrigin |= rs.getString(2).equals("child");
                    if (rs.getString(2).equals("origin")) {
                        originId = rs.getString(1);
                    }
                }
            }
        }
        ObjectNode leadNode = JsonBody.mapper().valueToTree(lead);
        leadNode.put("isOriginLead", isOrigin);
        j.set("lead", leadNode);
        if (fields.contains("sales")) {
            j.set("sales", JsonBody.mapper().valueToTree(sales.byLead(c, accountId, zone, lead.id())));
        }
        if (fields.contains("calls")) {
            j.set("calls", JsonBody.mapper().valueToTree(calls.byLead(c, accountId, zone, lead.id())));
        }
        if (fields.contains("carts")) {
            ArrayNode list = j.putArray("carts");
            carts.byLead(c, accountId, zone, lead.id()).forEach(cart -> list.add(journeyCart(cart, zone)));
        }
        if (fields.contains("subscriptions")) {
            j.set("subscriptions", JsonBody.mapper().valueToTree(subscriptions.byLead(c, accountId, zone, lead.id())));
        }
        if (fields.contains("linkedLeads")) {
            // spec 2.5/2.17: each linked lead says whether it is this lead's origin (true) or a lead merged into it (false)
            String origin = originId;
            j.set("linkedLeads", JsonBody.mapper().valueToTree(leads.byIds(c, accountId, zone, linkedIds).stream()
                    .map(l -> l.withIsOriginLead(l.id().equals(origin))).toList()));
        }
        if (fields.contains("journey")) {
            j.set("journey", events(c, accountId, zone, lead.id()));
        }
        return j;
    }

    private record Event(Instant at, ObjectNode node) {
    }

    private ArrayNode events(Connection c, String accountId, ZoneId zone, String leadId) throws SQLException {
        List<Event> events = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(SOURCE_CLICKS)) {
            bind(ps, accountId, leadId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Instant at = rs.getTimestamp("click_date").toInstant();
                    events.add(new Event(at, sourceLinkEvent(rs, at, zone)));
                }
            }
        }
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT h.entered_at, s.name FROM lead_stage_history h JOIN lead_stages s ON s.account_id = h.account_id AND s.id = h.stage_id
                WHERE h.account_id = ? AND h.lead_id = ?""")) {
            bind(ps, accountId, leadId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Instant at = rs.getTimestamp(1).toInstant();
                    events.add(new Event(at, event("lead-stage", at, zone).put("name", rs.getString(2))));
                }
            }
        }
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT assigned_at, tag FROM lead_tags WHERE account_id = ? AND lead_id = ?
                  AND (tag LIKE '!%' OR left(tag, 1) NOT IN ('@', '$', '#'))""")) {
            bind(ps, accountId, leadId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Instant at = rs.getTimestamp(1).toInstant();
                    events.add(new Event(at, event("action", at, zone).put("tag", rs.getString(2))));
                }
            }
        }
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT occurred_at FROM domain_events WHERE account_id = ? AND subject_id = ? AND event_type = 'lead.opted.in'")) {
            bind(ps, accountId, leadId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Instant at = rs.getTimestamp(1).toInstant();
                    events.add(new Event(at, event("opt-in", at, zone)));
                }
            }
        }
        commerceEvents(c, accountId, zone, leadId, events);
        for (EmailEventReader.EmailEvent email : emailEvents.byLead(c, accountId, leadId)) {
            ObjectNode e = event(email.type(), email.at(), zone).put("id", email.messageId());
            putIfPresent(e, "name", email.name().isEmpty() ? null : email.name());
            putIfPresent(e, "integrationProvider", email.provider().isEmpty() ? null : email.provider());
            events.add(new Event(email.at(), e.put("emailSource", true)));
        }
        events.sort(Comparator.comparing(Event::at));
        ArrayNode out = JsonBody.mapper().createArrayNode();
        events.forEach(e -> out.add(e.node()));
        return out;
    }

    /**
     * The lead's clicks with what an {@code sl} event shows of their source (spec 2.17): the source link of the tag
     * (name, category, traffic source; organic when the source or the click says so) and the ad hierarchy above the
     * click's {@code adSourceId} — a campaign-level source's campaign ({@link AdSourceLevel}), else the ad set and the
     * campaign above it when the platform has one — its ad account, and the ad when the click names one.
     */
    private static final String SOURCE_CLICKS = """
            SELECT ck.click_date, ck.source_link_tag, ck.is_organic OR coalesce(sl.organic, false) AS organic,
                   ck.integration_type, ck.ad_source_id, ck.adspend_ad_id, ck.tracked_url, sl.name AS source_name,
                   cat.id AS category_id, cat.name AS category_name, ts.id AS traffic_source_id, ts.name AS traffic_source_name,
                   st.ad_set_id IS NOT NULL AS known_ad_set, cp.campaign_id IS NOT NULL AS known_campaign,
                   st.name AS ad_set_name, coalesce(st.campaign_id, '') AS set_campaign_id,
                   coalesce(cp.name, spc.name) AS campaign_name,
                   coalesce(nullif(st.ad_account_id, ''), nullif(cp.ad_account_id, ''), nullif(ad.ad_account_id, '')) AS ad_account_id,
                   acct.name AS ad_account_name,
                   ad.name AS ad_name
            FROM clicks ck
            LEFT JOIN LATERAL (SELECT * FROM source_links s WHERE s.account_id = ck.account_id AND lower(s.tag) = lower(ck.source_link_tag)
                               ORDER BY s.deleted_at IS NULL DESC, s.created_at DESC LIMIT 1) sl ON true
            LEFT JOIN source_categories cat ON cat.account_id = ck.account_id AND cat.id = sl.category_id
            LEFT JOIN traffic_sources ts ON ts.account_id = ck.account_id AND ts.id = sl.traffic_source_id
            LEFT JOIN ad_sets st ON st.account_id = ck.account_id AND st.platform = ck.integration_type AND st.ad_set_id = ck.ad_source_id
            LEFT JOIN ad_campaigns cp ON cp.account_id = ck.account_id AND cp.platform = ck.integration_type AND cp.campaign_id = ck.ad_source_id
            LEFT JOIN ad_campaigns spc ON spc.account_id = ck.account_id AND spc.platform = ck.integration_type AND spc.campaign_id = st.campaign_id
            LEFT JOIN ads ad ON ad.account_id = ck.account_id AND ad.platform = ck.integration_type AND ad.ad_id = ck.adspend_ad_id
            LEFT JOIN ad_accounts acct ON acct.account_id = ck.account_id AND acct.platform = ck.integration_type
                 AND acct.ad_account_id = coalesce(nullif(st.ad_account_id, ''), nullif(cp.ad_account_id, ''), nullif(ad.ad_account_id, ''))
            WHERE ck.account_id = ? AND ck.lead_id = ?""";

    private static ObjectNode sourceLinkEvent(ResultSet rs, Instant at, ZoneId zone) throws SQLException {
        ObjectNode e = event("sl", at, zone);
        String tag = rs.getString("source_link_tag");
        if (tag != null) {
            String name = rs.getString("source_name");
            e.put("tag", tag).put("name", name != null ? name : tag.substring(1));
        }
        e.put("extra", rs.getString("tracked_url"));
        e.put("emailSource", isEmail(rs.getString("category_name")) || isEmail(rs.getString("traffic_source_name")));
        if (rs.getString("category_name") != null) {
            e.putObject("category").put("id", rs.getString("category_id")).put("name", rs.getString("category_name"));
        }
        if (rs.getString("traffic_source_name") != null) {
            e.putObject("trafficSource").put("id", rs.getString("traffic_source_id")).put("name", rs.getString("traffic_source_name"));
        }
        String platform = rs.getString("integration_type");
        if (platform == null || rs.getBoolean("organic")) {
            return e; // organic sources and email links: trafficSource and category only
        }
        e.put("integrationProvider", platform);
        hierarchyLevel(e, "adAccount", rs.getString("ad_account_id"), rs.getString("ad_account_name"));
        if (AdSourceLevel.isCampaign(platform, rs.getBoolean("known_ad_set"), rs.getBoolean("known_campaign"))) {
            hierarchyLevel(e, "campaign", rs.getString("ad_source_id"), rs.getString("campaign_name"));
        } else {
            String campaignId = rs.getString("set_campaign_id");
            if (!campaignId.isEmpty()) {
                hierarchyLevel(e, "campaign", campaignId, rs.getString("campaign_name"));
            }
            hierarchyLevel(e, "adSet", rs.getString("ad_source_id"), rs.getString("ad_set_name"));
        }
        hierarchyLevel(e, "ad", rs.getString("adspend_ad_id"), rs.getString("ad_name"));
        return e;
    }

    /** An email link's category or traffic source: named Email, in any case, with or without a hyphen or space. */
    private static boolean isEmail(String name) {
        return name != null && name.replaceAll("[^A-Za-z]", "").equalsIgnoreCase("email");
    }

    /** An AdHierarchyLevel (spec 2.6) {@code {name, adSourceId}}; absent without an id, {@code name} absent when unknown. */
    private static void hierarchyLevel(ObjectNode event, String field, String adSourceId, String name) {
        if (adSourceId == null || adSourceId.isEmpty()) {
            return;
        }
        ObjectNode level = event.putObject(field);
        if (name != null && !name.isEmpty()) {
            level.put("name", name);
        }
        level.put("adSourceId", adSourceId);
    }

    /** Sales, calls, carts and subscription starts and ends of the lead as journey events. */
    private static void commerceEvents(Connection c, String accountId, ZoneId zone, String leadId, List<Event> events) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT id, sale_date, product_name, product_tag, currency, price FROM sales
                WHERE account_id = ? AND lead_id = ? AND NOT deleted""")) {
            bind(ps, accountId, leadId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Instant at = rs.getTimestamp(2).toInstant();
                    events.add(new Event(at, event("sale", at, zone).put("id", rs.getString(1)).put("name", rs.getString(3))
                            .put("tag", rs.getString(4)).put("currencySymbol", symbol(rs.getString(5)))
                            .put("extra", rs.getBigDecimal(6).toPlainString())));
                }
            }
        }
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT id, call_date, name, tag FROM calls WHERE account_id = ? AND lead_id = ? AND NOT deleted")) {
            bind(ps, accountId, leadId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Instant at = rs.getTimestamp(2).toInstant();
                    events.add(new Event(at, event("call", at, zone).put("id", rs.getString(1)).put("name", rs.getString(3))
                            .put("tag", rs.getString(4))));
                }
            }
        }
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT c.cart_date, array_agg(i.name ORDER BY i.position) FROM carts c
                JOIN cart_items i ON i.account_id = c.account_id AND i.cart_id = c.id
                WHERE c.account_id = ? AND c.lead_id = ? GROUP BY c.id, c.cart_date""")) {
            bind(ps, accountId, leadId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Instant at = rs.getTimestamp(1).toInstant();
                    ObjectNode e = event("cart", at, zone);
                    ArrayNode names = e.putArray("subNames");
                    for (String name : (String[]) rs.getArray(2).getArray()) {
                        names.add(name);
                    }
                    events.add(new Event(at, e));
                }
            }
        }
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT id, start_date, end_date, name, tag FROM subscriptions WHERE account_id = ? AND lead_id = ?")) {
            bind(ps, accountId, leadId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Instant start = rs.getTimestamp(2).toInstant();
                    events.add(new Event(start, event("subscription-started", start, zone).put("id", rs.getString(1))
                            .put("name", rs.getString(4)).put("tag", rs.getString(5))));
                    Timestamp end = rs.getTimestamp(3);
                    if (end != null && !end.toInstant().isAfter(Instant.now())) {
                        events.add(new Event(end.toInstant(), event("subscription-ended", end.toInstant(), zone)
                                .put("id", rs.getString(1)).put("name", rs.getString(4)).put("tag", rs.getString(5))));
                    }
                }
            }
        }
    }

    /** A cart inside a journey (spec 2.10): no {@code lead}, legacy {@code creationDate}, products as SaleProduct. */
    private static ObjectNode journeyCart(CartView cart, ZoneId zone) {
        ObjectNode node = JsonBody.mapper().valueToTree(cart);
        node.remove("lead");
        node.put("creationDate", ApiDates.formatLegacy(OffsetDateTime.parse(cart.creationDate()).toInstant(), zone));
        ArrayNode products = node.putArray("products");
        for (ProductView p : cart.products()) {
            ObjectNode item = products.addObject();
            putIfPresent(item, "id", p.id());
            item.put("name", p.name());
            putIfPresent(item, "tag", p.tag());
            putIfPresent(item, "sku", p.sku());
            if (p.category() != null) {
                item.putObject("category").put("name", p.category());
            }
        }
        return node;
    }

    private static void putIfPresent(ObjectNode node, String field, String value) {
        if (value != null) {
            node.put(field, value);
        }
    }

    private static String symbol(String currency) {
        try {
            return Currency.getInstance(currency).getSymbol(Locale.US);
        } catch (IllegalArgumentException | NullPointerException e) {
            return currency;
        }
    }

    private static ObjectNode event(String type, Instant at, ZoneId zone) {
        return JsonBody.mapper().createObjectNode().put("type", type).put("date", ApiDates.format(at, zone));
    }

    private static void bind(PreparedStatement ps, String accountId, String leadId) throws SQLException {
        ps.setString(1, accountId);
        ps.setString(2, leadId);
    }

    static Timestamp ts(Instant i) {
        return Timestamp.from(i);
    }
}
