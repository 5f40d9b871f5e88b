package dev.attribution.command.leads;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.JsonBody;
import dev.attribution.api.auth.Account;
import dev.attribution.command.blacklist.Blacklist;
import dev.attribution.command.clicks.ClicksTable;
import dev.attribution.views.RecordViews;
import jakarta.inject.Singleton;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Writes to the lead tables (V3, V30), on the worker's connection and transaction. The methods that change tags,
 * stage, consent or origin also record the matching domain event (spec 6) in that transaction, so every writer —
 * lead, order, call or click handlers — emits the same events for the same change.
 */
@Singleton
public class LeadStore {

    /** The lead written and whether it was new. */
    public record Upsert(String id, boolean created) {
    }

    /**
     * The tags a write added, and the lead as it stands after them when the last tag event's render is still
     * current (empty when no tag was new or something was written after that render).
     */
    public record TagsAdded(List<String> tags, Optional<JsonNode> lead) {
    }

    /** The stored state of a lead that writes compare against. */
    public record Current(String id, String email, String consent, String stageName) {
    }

    private final LeadEvents events;
    private final LeadTags tags;
    private final LeadStages stages;
    private final LeadEraser eraser;

    LeadStore(RecordViews views, List<LeadTagListener> tagListeners, List<LeadErasure> erasures) {
        this.events = new LeadEvents(views);
        this.tags = new LeadTags(events, tagListeners);
        this.stages = new LeadStages(events);
        this.eraser = new LeadEraser(erasures);
    }

    public Optional<String> findByPhone(Connection c, String accountId, String phone) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT l.email FROM lead_phones p JOIN leads l ON l.account_id = p.account_id AND l.id = p.lead_id
                WHERE p.account_id = ? AND p.phone = ? AND NOT l.erased ORDER BY l.created_at LIMIT 1""")) {
            ps.setString(1, accountId);
            ps.setString(2, phone);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
            }
        }
    }

    /** The oldest live lead holding a phone with the same digits as {@code phone}. */
    public Optional<Current> findByPhoneDigits(Connection c, String accountId, String phone) throws SQLException {
        String digits = Blacklist.digits(phone);
        if (digits.isEmpty()) {
            return Optional.empty();
        }
        return one(c, """
                SELECT l.id, l.email, l.ad_consent, l.stage_name FROM lead_phones p
                JOIN leads l ON l.account_id = p.account_id AND l.id = p.lead_id
                WHERE p.account_id = ? AND regexp_replace(p.phone, '[^0-9]', '', 'g') = ? AND NOT l.erased
                ORDER BY l.created_at LIMIT 1""", accountId, digits);
    }

    public Optional<Current> findByEmail(Connection c, String accountId, String email) throws SQLException {
        return one(c, "SELECT id, email, ad_consent, stage_name FROM leads WHERE account_id = ? AND lower(email) = lower(?) AND NOT erased",
                accountId, email);
    }

    public Optional<Current> findById(Connection c, String accountId, String id) throws SQLException {
        return current(c, accountId, id);
    }

    /** The live lead {@code id}: {@link #findById}, for the parts of the store (stages, erasure). */
    static Optional<Current> current(Connection c, String accountId, String id) throws SQLException {
        return one(c, "SELECT id, email, ad_consent, stage_name FROM leads WHERE account_id = ? AND id = ? AND NOT erased",
                accountId, id);
    }

    private static Optional<Current> one(Connection c, String sql, String accountId, String value) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, accountId);
            ps.setString(2, value);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(new Current(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4)))
                        : Optional.empty();
            }
        }
    }

    /**
     * Creates the lead or updates names on the existing one. Consent: a new lead without one is UNSPECIFIED, an
     * existing lead keeps its value unless one is sent (spec 3.2).
     */
    public Upsert upsertByEmail(Connection c, String accountId, String email, String firstName, String lastName,
                         String consent, Instant now) throws SQLException {
        return LeadUpserts.one(c, new LeadUpserts.Row(accountId, email, firstName, lastName, consent, now));
    }

    /**
     * {@link #upsertByEmail} for many leads in one statement (group apply); their (account, email) must be distinct
     * and no consent GRANTED (its events are {@link #upsertWithEvents}'). Returns the upserts in the order of the rows.
     */
    List<Upsert> upsertMany(Connection c, List<LeadUpserts.Row> rows) throws SQLException {
        return LeadUpserts.many(c, rows);
    }

    /**
     * {@link #upsertWithEvents} without names or consent (no event then) for many leads in one statement: the lead of
     * each (account, email, now), created bare when absent; the pairs must be distinct. Returns their ids in order.
     */
    public List<String> upsertBare(Connection c, List<String> accountIds, List<String> emails, List<Instant> nows) throws SQLException {
        List<LeadUpserts.Row> rows = new ArrayList<>();
        for (int i = 0; i < emails.size(); i++) {
            rows.add(new LeadUpserts.Row(accountIds.get(i), emails.get(i), null, null, null, nows.get(i)));
        }
        return LeadUpserts.many(c, rows).stream().map(Upsert::id).toList();
    }

    /** {@link #addIps} and then {@link #touch} of many (account, lead) pairs: one IP each (null: none), in two statements. */
    public void addIpsAndTouchMany(Connection c, List<String> accountIds, List<String> leadIds, List<String> ips, List<Instant> nows)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO lead_ips (account_id, lead_id, ip)
                SELECT a, l, i FROM unnest(?::text[], ?::text[], ?::text[]) WITH ORDINALITY AS u(a, l, i, o) WHERE i IS NOT NULL ORDER BY o
                ON CONFLICT DO NOTHING""")) {
            ps.setArray(1, c.createArrayOf("text", accountIds.toArray()));
            ps.setArray(2, c.createArrayOf("text", leadIds.toArray()));
            ps.setArray(3, c.createArrayOf("text", ips.toArray()));
            ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE leads l SET updated_at = GREATEST(l.updated_at, u.t)
                FROM (SELECT a, i, max(t::timestamptz) AS t FROM unnest(?::text[], ?::text[], ?::text[]) AS x(a, i, t) GROUP BY a, i) u
                WHERE l.account_id = u.a AND l.id = u.i""")) {
            ps.setArray(1, c.createArrayOf("text", accountIds.toArray()));
            ps.setArray(2, c.createArrayOf("text", leadIds.toArray()));
            ps.setArray(3, c.createArrayOf("text", nows.stream().map(Instant::toString).toArray()));
            ps.executeUpdate();
        }
    }

    /**
     * {@link #upsertByEmail} plus the consent events: {@code lead.opted.in} when consent becomes GRANTED, and
     * {@code lead.opted.in.first.time} the first time it ever does.
     */
    public Upsert upsertWithEvents(Connection c, Account account, String email, String firstName, String lastName,
                                   String consent, Instant now) throws SQLException {
        // the consent before matters only when GRANTED is sent (consentChanged): otherwise no read
        String before = "GRANTED".equals(consent) ? findByEmail(c, account.id(), email).map(Current::consent).orElse(null) : null;
        Upsert upsert = upsertByEmail(c, account.id(), email, firstName, lastName, consent, now);
        consentChanged(c, account, upsert.id(), before, consent, now);
        return upsert;
    }

    /** Records the opt-in events when {@code after} is GRANTED and {@code before} was not. */
    public void consentChanged(Connection c, Account account, String leadId, String before, String after, Instant now) throws SQLException {
        if (!"GRANTED".equals(after) || "GRANTED".equals(before)) {
            return;
        }
        events.record(c, account, leadId, "lead.opted.in", null, now);
        try (PreparedStatement ps = c.prepareStatement(
                "UPDATE leads SET first_opted_in_at = ? WHERE account_id = ? AND id = ? AND first_opted_in_at IS NULL")) {
            ps.setTimestamp(1, Timestamp.from(now));
            ps.setString(2, account.id());
            ps.setString(3, leadId);
            if (ps.executeUpdate() == 1) {
                events.record(c, account, leadId, "lead.opted.in.first.time", null, now);
            }
        }
    }

    /** Sets names, a new email and consent of an existing lead (PUT /leads); nulls leave a field unchanged. */
    public void updateFields(Connection c, String accountId, String leadId, String email, String firstName, String lastName,
                      String consent, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE leads SET email = COALESCE(?, email), first_name = COALESCE(?, first_name),
                       last_name = COALESCE(?, last_name), ad_consent = COALESCE(?, ad_consent), updated_at = ?
                WHERE account_id = ? AND id = ?""")) {
            ps.setString(1, email);
            ps.setString(2, firstName);
            ps.setString(3, lastName);
            ps.setString(4, consent);
            ps.setTimestamp(5, Timestamp.from(now));
            ps.setString(6, accountId);
            ps.setString(7, leadId);
            ps.executeUpdate();
        }
    }

    /** Marks the lead as changed now (its {@code lastUpdatedDate}). */
    public void touch(Connection c, String accountId, String leadId, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE leads SET updated_at = GREATEST(updated_at, ?) WHERE account_id = ? AND id = ?")) {
            ps.setTimestamp(1, Timestamp.from(now));
            ps.setString(2, accountId);
            ps.setString(3, leadId);
            ps.executeUpdate();
        }
    }

    /** {@code POST /leads}: the numbers sent replace the stored ones; none sent deletes them. */
    public void replacePhones(Connection c, String accountId, String leadId, List<String> phones) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM lead_phones WHERE account_id = ? AND lead_id = ? AND NOT (phone = ANY(?))")) {
            ps.setString(1, accountId);
            ps.setString(2, leadId);
            ps.setArray(3, c.createArrayOf("text", phones.toArray()));
            ps.executeUpdate();
        }
        addPhones(c, accountId, leadId, phones);
    }

    /** {@code PUT /leads}, orders, calls: numbers are added, stored ones kept. */
    public void addPhones(Connection c, String accountId, String leadId, List<String> phones) throws SQLException {
        insertAll(c, "INSERT INTO lead_phones (account_id, lead_id, phone) VALUES (?, ?, ?) ON CONFLICT DO NOTHING", accountId, leadId, phones);
    }

    public void addIps(Connection c, String accountId, String leadId, List<String> ips) throws SQLException {
        insertAll(c, "INSERT INTO lead_ips (account_id, lead_id, ip) VALUES (?, ?, ?) ON CONFLICT DO NOTHING", accountId, leadId, ips);
    }

    /** Adds IPs and connects the account's unassigned recent clicks from those IPs to the lead. */
    public void addIpsAndConnectClicks(Connection c, Account account, String leadId, List<String> ips, Instant now) throws SQLException {
        if (ips.isEmpty()) {
            return;
        }
        addIps(c, account.id(), leadId, ips);
        for (ClicksTable.Connected click : ClicksTable.connectUnassigned(c, account.id(), leadId, ips, now)) {
            addTagsReturningNew(c, account, leadId, List.of(click.sourceLinkTag()), click.date());
        }
    }

    /** Adds tags; a tag already held keeps its assignment date. */
    public void addTags(Connection c, String accountId, String leadId, List<String> tags, Instant assignedAt) throws SQLException {
        LeadTags.insertTags(c, accountId, leadId, tags, assignedAt);
    }

    /**
     * Adds tags not yet held, dated {@code assignedAt}; tags already held keep their date (spec 3.2). Records
     * {@code lead.tag.added} for each new tag and tells the {@link LeadTagListener}s (a {@code $} tag matching a
     * product makes a sale). Returns the tags that were new.
     */
    public List<String> addTagsReturningNew(Connection c, Account account, String leadId, List<String> tags, Instant assignedAt)
            throws SQLException {
        return this.tags.addTagsReturningNew(c, account, leadId, tags, assignedAt);
    }

    /** {@link #addTagsReturningNew}, with the lead as it stands after them when that costs no further read. */
    public TagsAdded addTagsRendered(Connection c, Account account, String leadId, List<String> tags, Instant assignedAt)
            throws SQLException {
        return this.tags.addTags(c, account, leadId, tags, assignedAt);
    }

    /** Re-dates tags the lead already holds (action tags of {@code POST /leads/tags}). */
    public void redateTags(Connection c, String accountId, String leadId, List<String> tags, Instant assignedAt) throws SQLException {
        this.tags.redateTags(c, accountId, leadId, tags, assignedAt);
    }

    /** Removes tags; records {@code lead.tag.removed} for each one the lead held. */
    public List<String> removeTags(Connection c, Account account, String leadId, List<String> tags, Instant now) throws SQLException {
        return this.tags.removeTags(c, account, leadId, tags, now);
    }

    public void setStage(Connection c, String accountId, String leadId, String stage, Instant date) throws SQLException {
        stages.setStage(c, accountId, leadId, stage, date);
    }

    /**
     * Applies a stage (spec 3.2): the account learns the name, the lead's current stage becomes it, the history
     * gains an entry, and {@code lead.stage.changed} is recorded when the current stage changed.
     */
    public void applyStage(Connection c, Account account, String leadId, String stage, Instant date) throws SQLException {
        stages.applyStage(c, account, leadId, stage, date);
    }

    /** Removes the named stages from the lead: its current stage is cleared when it is one of them. */
    public void removeStages(Connection c, Account account, String leadId, List<String> names, Instant now) throws SQLException {
        stages.removeStages(c, account, leadId, names, now);
    }

    /** The names of {@code names} the account does not know (case-insensitive). */
    public static List<String> unknownStages(Connection c, String accountId, Collection<String> names) throws SQLException {
        return LeadStages.unknownStages(c, accountId, names);
    }

    /**
     * Makes {@code originId} the origin lead of {@code leadId} (orders with {@code parentEmail}) and records
     * {@code lead.origin.assigned} when it changed.
     */
    public void assignOrigin(Connection c, Account account, String leadId, String originId, Instant now) throws SQLException {
        if (leadId.equals(originId)) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE leads SET origin_lead_id = ?, origin_assigned_at = ?, updated_at = ?
                WHERE account_id = ? AND id = ? AND origin_lead_id IS DISTINCT FROM ?""")) {
            ps.setString(1, originId);
            ps.setTimestamp(2, Timestamp.from(now));
            ps.setTimestamp(3, Timestamp.from(now));
            ps.setString(4, account.id());
            ps.setString(5, leadId);
            ps.setString(6, originId);
            if (ps.executeUpdate() == 1) {
                events.recordDetail(c, account, leadId, "lead.origin.assigned",
                        JsonBody.mapper().createObjectNode().put("originLeadId", originId), now);
            }
        }
    }

    /**
     * Erases a lead (spec 3.2, DELETE /leads): contacts blacklisted, personal data redacted, phones, IPs, tags,
     * stage history and clicks deleted, and every {@link LeadErasure} (sales, subscriptions) run. The row stays,
     * marked erased, so ids held elsewhere still resolve to nothing personal.
     */
    public void erase(Connection c, Account account, String leadId, String placeholderDomain, Instant now, String requestId)
            throws SQLException {
        eraser.erase(c, account, leadId, placeholderDomain, now, requestId);
    }

    /** The lead as {@code GET /leads} shows it, read on this connection (null when erased or missing). */
    public JsonNode render(Connection c, Account account, String leadId) {
        return events.render(c, account, leadId);
    }

    /** {@link #render} of many leads of one account in one read, by id (erased or missing ones left out). */
    Map<String, JsonNode> renderAll(Connection c, Account account, List<String> leadIds) {
        return events.renderAll(c, account, leadIds);
    }

    private static void insertAll(Connection c, String sql, String accountId, String leadId, List<String> values) throws SQLException {
        if (values.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (String v : values) {
                ps.setString(1, accountId);
                ps.setString(2, leadId);
                ps.setString(3, v);
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }
}
