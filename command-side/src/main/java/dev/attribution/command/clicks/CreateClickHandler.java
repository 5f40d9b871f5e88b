package dev.attribution.command.clicks;

import dev.attribution.command.leads.LeadSettings;
import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.JsonBody;
import dev.attribution.api.RequestIds;
import dev.attribution.api.auth.Account;
import dev.attribution.command.adspend.AdHierarchy;
import dev.attribution.command.leads.LeadResolver;
import dev.attribution.command.leads.LeadsTable;
import dev.attribution.command.requests.GroupWriteHandler;
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
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Applies CREATE_CLICK (spec 4.11). The click is connected to a lead when it carries an email (the lead is created
 * if absent), a phone of a known lead, or an IP a lead has used; otherwise it stays unassigned until a lead with
 * that IP appears, and is deleted after 90 days (spec 8.2). A connected click's source link tag and {@code tag}
 * are applied to the lead, dated at the click.
 */
@Singleton
class CreateClickHandler implements GroupWriteHandler {

    private final LeadResolver leads;
    private final RecordViews views;
    private final String placeholderDomain;
    private final UrlRuleMatcher urlRules;
    private final AdHierarchy hierarchy;

    CreateClickHandler(LeadResolver leads, RecordViews views,
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
        Instant date = date(p, now);
        LeadResolver.purgeUnassignedClicks(c, account.id(), now);
        String leadId = lead(c, account, p, now).orElse(null);
        String id = RequestIds.next("clk_");
        try (PreparedStatement ps = c.prepareStatement(INSERT + ROW)) {
            bind(ps, 0, write, id, leadId);
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
        return render(c, account, id);
    }

    /**
     * Group apply (issue 23 point 3): a click that names its lead by email and carries no phones, tags or ad platform
     * (no events, no listeners, no ad hierarchy) is applied many at once.
     */
    @Override
    public boolean groupable(Write write) {
        JsonNode p = write.payload();
        return p.hasNonNull("email") && p.path("phones").isEmpty() && !p.hasNonNull("sourceLinkTag") && !p.hasNonNull("tag")
                && !p.hasNonNull("integrationType") && p.get("email").asText().chars().allMatch(ch -> ch < 128);
    }

    /**
     * {@link #apply} of each write, set-based: the unassigned-click purge once per account (at the group's first
     * write), the leads upserted in one statement, the clicks inserted in one (the conversion-touches trigger runs
     * once), the URL rules of accounts that have any, IPs and touches in two, then each click rendered.
     */
    @Override
    public List<JsonNode> applyGroup(Connection c, List<Write> writes) throws SQLException {
        Map<String, Account> accounts = new LinkedHashMap<>();
        writes.forEach(w -> accounts.putIfAbsent(w.account().id(), w.account()));
        for (String accountId : accounts.keySet()) {
            LeadResolver.purgeUnassignedClicks(c, accountId, writes.stream().filter(w -> w.account().id().equals(accountId))
                    .findFirst().orElseThrow().acceptedAt());
        }
        List<String> accountIds = writes.stream().map(w -> w.account().id()).toList();
        List<Instant> nows = writes.stream().map(Write::acceptedAt).toList();
        List<String> leadIds = leads.upsertBare(c, accountIds, writes.stream().map(w -> w.payload().get("email").asText()).toList(), nows);
        List<String> ids = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(INSERT + String.join(", ", Collections.nCopies(writes.size(), ROW)))) {
            for (int i = 0; i < writes.size(); i++) {
                ids.add(RequestIds.next("clk_"));
                bind(ps, i * COLUMNS, writes.get(i), ids.get(i), leadIds.get(i));
            }
            ps.executeUpdate();
        }
        for (Account account : accounts.values()) {
            if (urlRules.rules(c, account.id()).isEmpty()) {
                continue; // no rule can match: applying them would write nothing
            }
            for (int i = 0; i < writes.size(); i++) {
                if (accountIds.get(i).equals(account.id())) {
                    JsonNode p = writes.get(i).payload();
                    urlRules.apply(c, account.id(), leadIds.get(i), new UrlRuleEngine.Visit(text(p, "previousUrl"), p.get("referrerUrl").asText()),
                            date(p, nows.get(i)));
                }
            }
        }
        leads.addIpsAndTouchMany(c, accountIds, leadIds, writes.stream().map(w -> text(w.payload(), "ip")).toList(), nows);
        List<JsonNode> out = new ArrayList<>();
        for (int i = 0; i < writes.size(); i++) {
            out.add(render(c, writes.get(i).account(), ids.get(i)));
        }
        return out;
    }

    private JsonNode render(Connection c, Account account, String clickId) {
        return views.click(c, account.id(), account.timeZone(), clickId).map(v -> (JsonNode) JsonBody.mapper().valueToTree(v)).orElse(null);
    }

    private static Instant date(JsonNode p, Instant now) {
        return p.hasNonNull("date") ? Instant.parse(p.get("date").asText()) : now;
    }

    private static final String INSERT = """
            INSERT INTO clicks (account_id, id, lead_id, click_date, tracked_url, previous_url, session_id, ip, user_agent,
                source_link_tag, is_organic, integration_type, ad_source_id, adspend_ad_id, ad_source_click_id, created_at)
            VALUES """;
    private static final String ROW = "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    private static final int COLUMNS = 16;

    /** The click row of {@code w} at parameters {@code from + 1 ..}. */
    private static void bind(PreparedStatement ps, int from, Write w, String id, String leadId) throws SQLException {
        JsonNode p = w.payload();
        int i = from;
        ps.setString(++i, w.account().id());
        ps.setString(++i, id);
        ps.setString(++i, leadId);
        ps.setTimestamp(++i, Timestamp.from(date(p, w.acceptedAt())));
        ps.setString(++i, p.get("referrerUrl").asText());
        ps.setString(++i, text(p, "previousUrl"));
        ps.setString(++i, text(p, "sessionId"));
        ps.setString(++i, text(p, "ip"));
        ps.setString(++i, text(p, "userAgent"));
        ps.setString(++i, text(p, "sourceLinkTag"));
        ps.setBoolean(++i, p.path("isOrganic").asBoolean(false));
        ps.setString(++i, text(p, "integrationType"));
        ps.setString(++i, text(p, "adSourceId"));
        ps.setString(++i, text(p, "adspendAdId"));
        ps.setString(++i, text(p, "adSourceClickId"));
        ps.setTimestamp(++i, Timestamp.from(w.acceptedAt()));
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
            Optional<LeadsTable.Current> byPhone = leads.findByPhoneDigits(c, account.id(), phone);
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
