package dev.attribution.command.clicks;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.JsonBody;
import dev.attribution.api.auth.Account;
import dev.attribution.command.adspend.AdHierarchy;
import dev.attribution.command.leads.LeadSettings;
import dev.attribution.command.leads.LeadResolver;
import dev.attribution.command.leads.LeadsTable;
import dev.attribution.command.requests.CommandHandler;
import dev.attribution.command.requests.GroupWriteHandler;
import dev.attribution.command.urlrules.UrlRuleEngine;
import dev.attribution.command.urlrules.UrlRuleMatcher;
import dev.attribution.views.ClickView;
import dev.attribution.views.RecordViews;
import jakarta.inject.Singleton;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
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
class ClickHandler implements CommandHandler<CreateClick>, GroupWriteHandler {

    private final ClicksTable clicks;
    private final LeadResolver leads;
    private final RecordViews views;
    private final String placeholderDomain;
    private final UrlRuleMatcher urlRules;
    private final AdHierarchy hierarchy;

    ClickHandler(ClicksTable clicks, LeadResolver leads, RecordViews views, LeadSettings settings, UrlRuleMatcher urlRules,
                 AdHierarchy hierarchy) {
        this.clicks = clicks;
        this.leads = leads;
        this.views = views;
        this.placeholderDomain = settings.getPlaceholderEmailDomain();
        this.urlRules = urlRules;
        this.hierarchy = hierarchy;
    }

    @Override
    public Class<CreateClick> commandType() {
        return CreateClick.class;
    }

    @Override
    public JsonNode handle(Connection c, Applying w, CreateClick p) throws SQLException {
        Account account = w.account();
        Instant now = w.acceptedAt();
        Instant date = date(p, now);
        ClicksTable.purgeUnassigned(c, account.id(), now);
        String leadId = lead(c, account, p, now).orElse(null);
        String id = clicks.insert(c, List.of(new ClicksTable.NewClick(account.id(), leadId, date, now, p))).get(0);
        if (leadId != null) {
            List<String> tags = new ArrayList<>();
            if (p.sourceLinkTag() != null) {
                tags.add(p.sourceLinkTag());
            }
            if (p.tag() != null) {
                tags.add(p.tag());
            }
            leads.addTagsReturningNew(c, account, leadId, tags, date);
            // the account's enabled URL rules (marketing) tag or stage the lead from the visited URLs
            urlRules.apply(c, account.id(), leadId, new UrlRuleEngine.Visit(p.previousUrl(), p.referrerUrl()), date);
            if (p.ip() != null) {
                leads.addIps(c, account.id(), leadId, List.of(p.ip()));
            }
            leads.touch(c, account.id(), leadId, now);
        }
        // last, so that the hierarchy's lock is held only until the commit that follows
        hierarchy.registerClick(c, account.id(), p.platformName(), p.adSourceId(), p.adspendAdId());
        return render(c, account, id);
    }

    /** The locks of the leads the clicks name by email ({@link LeadResolver#lockName}). */
    @Override
    public List<String> advisoryLocks(Connection c, List<Write> writes) {
        return LeadResolver.lockNames(writes, w -> java.util.Collections.singletonList(w.command(CreateClick.class).email()));
    }

    /**
     * Group apply (issue 23 point 3): a click that names its lead by email and carries no phones, tags or ad platform
     * (no events, no listeners, no ad hierarchy) is applied many at once.
     */
    @Override
    public boolean groupable(Write write) {
        CreateClick p = write.command(CreateClick.class);
        return p.email() != null && p.phoneList().isEmpty() && p.sourceLinkTag() == null && p.tag() == null
                && p.integrationType() == null && p.email().chars().allMatch(ch -> ch < 128);
    }

    /**
     * {@link #handle} of each write, set-based: the unassigned-click purge once per account (at the group's first
     * write), the leads upserted in one statement, the clicks inserted in one (the conversion-touches trigger runs
     * once), the URL rules of accounts that have any, IPs and touches in two, then each click rendered.
     */
    @Override
    public List<JsonNode> applyGroup(Connection c, List<Write> writes) throws SQLException {
        List<CreateClick> commands = new ArrayList<>(writes.size());
        Map<String, Account> accounts = new LinkedHashMap<>();
        Map<String, Instant> firstAccepted = new LinkedHashMap<>();
        for (Write w : writes) {
            commands.add(w.command(CreateClick.class));
            accounts.putIfAbsent(w.account().id(), w.account());
            firstAccepted.putIfAbsent(w.account().id(), w.acceptedAt());
        }
        for (Map.Entry<String, Instant> first : firstAccepted.entrySet()) {
            ClicksTable.purgeUnassigned(c, first.getKey(), first.getValue());
        }
        List<String> accountIds = writes.stream().map(w -> w.account().id()).toList();
        List<Instant> nows = writes.stream().map(Write::acceptedAt).toList();
        List<String> leadIds = leads.upsertBare(c, accountIds, commands.stream().map(CreateClick::email).toList(), nows);
        List<ClicksTable.NewClick> rows = new ArrayList<>(writes.size());
        for (int i = 0; i < writes.size(); i++) {
            rows.add(new ClicksTable.NewClick(accountIds.get(i), leadIds.get(i), date(commands.get(i), nows.get(i)), nows.get(i),
                    commands.get(i)));
        }
        List<String> ids = clicks.insert(c, rows);
        for (Account account : accounts.values()) {
            if (urlRules.rules(c, account.id()).isEmpty()) {
                continue; // no rule can match: applying them would write nothing
            }
            for (int i = 0; i < writes.size(); i++) {
                if (accountIds.get(i).equals(account.id())) {
                    CreateClick p = commands.get(i);
                    urlRules.apply(c, account.id(), leadIds.get(i), new UrlRuleEngine.Visit(p.previousUrl(), p.referrerUrl()),
                            date(p, nows.get(i)));
                }
            }
        }
        leads.addIpsAndTouchMany(c, accountIds, leadIds, commands.stream().map(CreateClick::ip).toList(), nows);
        Map<String, Map<String, ClickView>> rendered = new HashMap<>(); // per account, one read of its clicks
        for (Account account : accounts.values()) {
            List<String> ofAccount = new ArrayList<>();
            for (int i = 0; i < writes.size(); i++) {
                if (accountIds.get(i).equals(account.id())) {
                    ofAccount.add(ids.get(i));
                }
            }
            rendered.put(account.id(), views.clicks(c, account.id(), account.timeZone(), ofAccount));
        }
        List<JsonNode> out = new ArrayList<>();
        for (int i = 0; i < writes.size(); i++) {
            ClickView view = rendered.get(accountIds.get(i)).get(ids.get(i));
            out.add(view == null ? null : (JsonNode) JsonBody.mapper().valueToTree(view));
        }
        return out;
    }

    private JsonNode render(Connection c, Account account, String clickId) {
        return views.click(c, account.id(), account.timeZone(), clickId).map(v -> (JsonNode) JsonBody.mapper().valueToTree(v)).orElse(null);
    }

    private static Instant date(CreateClick p, Instant now) {
        return p.date() != null ? Instant.parse(p.date()) : now;
    }

    /** The lead the click belongs to: by email (created if absent), by phone, then by IP. */
    private Optional<String> lead(Connection c, Account account, CreateClick p, Instant now) throws SQLException {
        List<String> phones = p.phoneList();
        if (p.email() != null) {
            String id = leads.upsertWithEvents(c, account, p.email(), null, null, null, now).id();
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
        if (p.ip() != null) {
            try (PreparedStatement ps = c.prepareStatement("""
                    SELECT l.id FROM lead_ips i JOIN leads l ON l.account_id = i.account_id AND l.id = i.lead_id
                    WHERE i.account_id = ? AND i.ip = ? AND NOT l.erased ORDER BY l.created_at DESC LIMIT 1""")) {
                ps.setString(1, account.id());
                ps.setString(2, p.ip());
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        return Optional.of(rs.getString(1));
                    }
                }
            }
        }
        return Optional.empty();
    }
}
