package dev.attribution.command.clicks;

import dev.attribution.command.leads.LeadSettings;
import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.JsonBody;
import dev.attribution.api.RequestIds;
import dev.attribution.api.auth.Account;
import dev.attribution.command.adspend.AdHierarchy;
import dev.attribution.command.leads.LeadStore;
import dev.attribution.command.requests.WriteHandler;
import dev.attribution.command.urlrules.UrlRuleEngine;
import dev.attribution.command.urlrules.UrlRuleMatcher;
import dev.attribution.views.RecordViews;
import jakarta.inject.Singleton;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Applies CREATE_CLICK (spec 4.11). The click is connected to a lead when it carries an email (the lead is created
 * if absent), a phone of a known lead, or an IP a lead has used; otherwise it stays unassigned until a lead with
 * that IP appears, and is deleted after 90 days (spec 8.2). A connected click's source link tag and {@code tag}
 * are applied to the lead, dated at the click.
 */
@Singleton
class CreateClickHandler implements WriteHandler {

    private final LeadStore leads;
    private final RecordViews views;
    private final String placeholderDomain;
    private final UrlRuleMatcher urlRules;
    private final AdHierarchy hierarchy;

    CreateClickHandler(LeadStore leads, RecordViews views,
                       LeadSettings settings,
                       UrlRuleMatcher urlRules, AdHierarchy hierarchy) {
        this.urlRules = urlRules;
        this.hierarchy = hierarchy;
        this.leads = leads;
        this.views = views;
        this.placeholderDomain = settings.getPlaceholderEmailDomain();
    }

    @Override
    public String eventType() {
        return "CREATE_CLICK";
    }

    @Override
    public JsonNode apply(Connection c, Write write) throws SQLException {
        JsonNode p = write.payload();
        Account account = write.account();
        Instant now = write.acceptedAt();
        Instant date = p.hasNonNull("date") ? Instant.parse(p.get("date").asText()) : now;
        LeadStore.purgeUnassignedClicks(c, account.id(), now);
        String leadId = lead(c, account, p, now).orElse(null);
        String id = RequestIds.next("clk_");
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO clicks (account_id, id, lead_id, click_date, tracked_url, previous_url, session_id, ip, user_agent,
                    source_link_tag, is_organic, integration_type, ad_source_id, adspend_ad_id, ad_source_click_id, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""")) {
            ps.setString(1, account.id());
            ps.setString(2, id);
            ps.setString(3, leadId);
            ps.setTimestamp(4, Timestamp.from(date));
            ps.setString(5, p.get("referrerUrl").asText());
            ps.setString(6, text(p, "previousUrl"));
            ps.setString(7, text(p, "sessionId"));
            ps.setString(8, text(p, "ip"));
            ps.setString(9, text(p, "userAgent"));
            ps.setString(10, text(p, "sourceLinkTag"));
            ps.setBoolean(11, p.path("isOrganic").asBoolean(false));
            ps.setString(12, text(p, "integrationType"));
            ps.setString(13, text(p, "adSourceId"));
            ps.setString(14, text(p, "adspendAdId"));
            ps.setString(15, text(p, "adSourceClickId"));
            ps.setTimestamp(16, Timestamp.from(now));
            ps.executeUpdate();
        }
        if (leadId != null) {
            List<String> tags = new ArrayList<>();
            if (p.hasNonNull("sourceLinkTag")) {
                tags.add(p.get("sourceLinkTag").asText());
            }
            if (p.hasNonNull("tag")) {
                tags.add(p.get("tag").asText());
            }
            leads.addTagsReturningNew(c, account, leadId, tags, date);
            // the account's enabled URL rules (marketing) tag or stage the lead from the visited URLs
            urlRules.apply(c, account.id(), leadId, new UrlRuleEngine.Visit(text(p, "previousUrl"), p.get("referrerUrl").asText()), date);
            if (p.hasNonNull("ip")) {
                leads.addIps(c, account.id(), leadId, List.of(p.get("ip").asText()));
            }
            leads.touch(c, account.id(), leadId, now);
        }
        // last, so that the hierarchy's lock is held only until the commit that follows
        hierarchy.registerClick(c, account.id(), text(p, "integrationType"), text(p, "adSourceId"), text(p, "adspendAdId"));
        return views.click(c, account.id(), account.timeZone(), id)
                .map(v -> (JsonNode) JsonBody.mapper().valueToTree(v)).orElse(null);
    }

    /** The lead the click belongs to: by email (created if absent), by phone, then by IP. */
    private Optional<String> lead(Connection c, Account account, JsonNode p, Instant now) throws SQLException {
        List<String> phones = new ArrayList<>();
        p.path("phones").forEach(n -> phones.add(n.asText()));
        if (p.hasNonNull("email")) {
            String id = leads.upsertWithEvents(c, account, p.get("email").asText(), null, null, null, now).id();
            leads.addPhones(c, account.id(), id, phones);
            return Optional.of(id);
        }
        for (String phone : phones) {
            Optional<LeadStore.Current> byPhone = leads.findByPhoneDigits(c, account.id(), phone);
            if (byPhone.isPresent()) {
                return Optional.of(byPhone.get().id());
            }
        }
        if (!phones.isEmpty()) {
            String email = phones.get(0).replaceAll("[^0-9]", "") + "@" + placeholderDomain;
            String id = leads.upsertWithEvents(c, account, email, null, null, null, now).id();
            leads.addPhones(c, account.id(), id, phones);
            return Optional.of(id);
        }
        if (p.hasNonNull("ip")) {
            try (PreparedStatement ps = c.prepareStatement("""
                    SELECT l.id FROM lead_ips i JOIN leads l ON l.account_id = i.account_id AND l.id = i.lead_id
                    WHERE i.account_id = ? AND i.ip = ? AND NOT l.erased ORDER BY l.created_at DESC LIMIT 1""")) {
                ps.setString(1, account.id());
                ps.setString(2, p.get("ip").asText());
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        return Optional.of(rs.getString(1));
                    }
                }
            }
        }
        return Optional.empty();
    }

    private static String text(JsonNode p, String field) {
        return p.hasNonNull(field) ? p.get(field).asText() : null;
    }
}
