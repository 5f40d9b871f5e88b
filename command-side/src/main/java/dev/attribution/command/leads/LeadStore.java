package dev.attribution.command.leads;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.attribution.api.JsonBody;
import dev.attribution.api.RequestIds;
import dev.attribution.api.auth.Account;
import dev.attribution.command.blacklist.Blacklist;
import dev.attribution.command.events.DomainEvents;
import dev.attribution.query.leads.LeadReader;
import jakarta.inject.Singleton;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Writes to the lead tables (V3, V30), on the worker's connection and transaction. The methods that change tags,
 * stage, consent or origin also record the matching domain event (spec 6) in that transaction, so every writer —
 * lead, order, call or click handlers — emits the same events for the same change.
 */
@Singleton
public class LeadStore {

    /** Unassigned clicks older than this are deleted, and leads connect to unassigned clicks this recent (spec 8.2). */
    static final Duration CLICK_RETENTION = Duration.ofDays(90);

    /** The lead written and whether it was new. */
    public record Upsert(String id, boolean created) {
    }

    /** The stored state of a lead that writes compare against. */
    public record Current(String id, String email, String consent, String stageName) {
    }

    private final LeadReader reader;
    private final List<LeadTagListener> tagListeners;
    private final List<LeadErasure> erasures;

    LeadStore(LeadReader reader, List<LeadTagListener> tagListeners, List<LeadErasure> erasures) {
        this.reader = reader;
        this.tagListeners = tagListeners;
        this.erasures = erasures;
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
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE leads SET first_name = COALESCE(?, first_name), last_name = COALESCE(?, last_name),
                       ad_consent = COALESCE(?, ad_consent), updated_at = ?
                WHERE account_id = ? AND lower(email) = lower(?) AND NOT erased RETURNING id""")) {
            ps.setString(1, firstName);
            ps.setString(2, lastName);
            ps.setString(3, consent);
            ps.setTimestamp(4, Timestamp.from(now));
            ps.setString(5, accountId);
            ps.setString(6, email);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    return new Upsert(rs.getString(1), false);
                }
            }
        }
        String id = RequestIds.next("ld_");
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO leads (account_id, id, email, first_name, last_name, ad_consent, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, COALESCE(?, 'UNSPECIFIED'), ?, ?)""")) {
            ps.setString(1, accountId);
            ps.setString(2, id);
            ps.setString(3, email);
            ps.setString(4, firstName);
            ps.setString(5, lastName);
            ps.setString(6, consent);
            ps.setTimestamp(7, Timestamp.from(now));
            ps.setTimestamp(8, Timestamp.from(now));
            ps.executeUpdate();
        }
        return new Upsert(id, true);
    }

    /**
     * {@link #upsertByEmail} plus the consent events: {@code lead.opted.in} when consent becomes GRANTED, and
     * {@code lead.opted.in.first.time} the first time it ever does.
     */
    public Upsert upsertWithEvents(Connection c, Account account, String email, String firstName, String lastName,
                                   String consent, Instant now) throws SQLException {
        String before = findByEmail(c, account.id(), email).map(Current::consent).orElse(null);
        Upsert upsert = upsertByEmail(c, account.id(), email, firstName, lastName, consent, now);
        consentChanged(c, account, upsert.id(), before, consent, now);
        return upsert;
    }

    /** Records the opt-in events when {@code after} is GRANTED and {@code before} was not. */
    public void consentChanged(Connection c, Account account, String leadId, String before, String after, Instant now) throws SQLException {
        if (!"GRANTED".equals(after) || "GRANTED".equals(before)) {
            return;
        }
        record(c, account, leadId, "lead.opted.in", null, now);
        try (PreparedStatement ps = c.prepareStatement(
                "UPDATE leads SET first_opted_in_at = ? WHERE account_id = ? AND id = ? AND first_opted_in_at IS NULL")) {
            ps.setTimestamp(1, Timestamp.from(now));
            ps.setString(2, account.id());
            ps.setString(3, leadId);
            if (ps.executeUpdate() == 1) {
                record(c, account, leadId, "lead.opted.in.first.time", null, now);
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
        List<String[]> sources = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE clicks SET lead_id = ? WHERE account_id = ? AND lead_id IS NULL AND ip = ANY(?) AND click_date >= ?
                RETURNING source_link_tag, click_date""")) {
            ps.setString(1, leadId);
            ps.setString(2, account.id());
            ps.setArray(3, c.createArrayOf("text", ips.toArray()));
            ps.setTimestamp(4, Timestamp.from(now.minus(CLICK_RETENTION)));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (rs.getString(1) != null) {
                        sources.add(new String[]{rs.getString(1), rs.getTimestamp(2).toInstant().toString()});
                    }
                }
            }
        }
        for (String[] s : sources) {
            addTagsReturningNew(c, account, leadId, List.of(s[0]), Instant.parse(s[1]));
        }
    }

    /** Adds tags; a tag already held keeps its assignment date. */
    public void addTags(Connection c, String accountId, String leadId, List<String> tags, Instant assignedAt) throws SQLException {
        insertTags(c, accountId, leadId, tags, assignedAt);
    }

    /**
     * Adds tags not yet held, dated {@code assignedAt}; tags already held keep their date (spec 3.2). Records
     * {@code lead.tag.added} for each new tag and tells the {@link LeadTagListener}s (a {@code $} tag matching a
     * product makes a sale). Returns the tags that were new.
     */
    public List<String> addTagsReturningNew(Connection c, Account account, String leadId, List<String> tags, Instant assignedAt)
            throws SQLException {
        List<String> added = insertTags(c, account.id(), leadId, tags, assignedAt);
        for (String tag : added) {
            record(c, account, leadId, "lead.tag.added", tag, assignedAt);
            for (LeadTagListener listener : tagListeners) {
                listener.tagAdded(c, account, leadId, tag, assignedAt);
            }
        }
        return added;
    }

    private static List<String> insertTags(Connection c, String accountId, String leadId, List<String> tags, Instant assignedAt)
            throws SQLException {
        List<String> added = new ArrayList<>();
        if (tags.isEmpty()) {
            return added;
        }
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO lead_tags (account_id, lead_id, tag, assigned_at)
                SELECT ?, ?, t, ? FROM unnest(?::text[]) AS t ON CONFLICT DO NOTHING RETURNING tag""")) {
            ps.setString(1, accountId);
            ps.setString(2, leadId);
            ps.setTimestamp(3, Timestamp.from(assignedAt));
            ps.setArray(4, c.createArrayOf("text", tags.stream().distinct().toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    added.add(rs.getString(1));
                }
            }
        }
        return added;
    }

    /** Re-dates tags the lead already holds (action tags of {@code POST /leads/tags}). */
    public void redateTags(Connection c, String accountId, String leadId, List<String> tags, Instant assignedAt) throws SQLException {
        if (tags.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement(
                "UPDATE lead_tags SET assigned_at = ? WHERE account_id = ? AND lead_id = ? AND tag = ANY(?) AND assigned_at <> ?")) {
            ps.setTimestamp(1, Timestamp.from(assignedAt));
            ps.setString(2, accountId);
            ps.setString(3, leadId);
            ps.setArray(4, c.createArrayOf("text", tags.toArray()));
            ps.setTimestamp(5, Timestamp.from(assignedAt));
            ps.executeUpdate();
        }
    }

    /** Removes tags; records {@code lead.tag.removed} for each one the lead held. */
    public List<String> removeTags(Connection c, Account account, String leadId, List<String> tags, Instant now) throws SQLException {
        List<String> removed = new ArrayList<>();
        if (tags.isEmpty()) {
            return removed;
        }
        try (PreparedStatement ps = c.prepareStatement(
                "DELETE FROM lead_tags WHERE account_id = ? AND lead_id = ? AND tag = ANY(?) RETURNING tag")) {
            ps.setString(1, account.id());
            ps.setString(2, leadId);
            ps.setArray(3, c.createArrayOf("text", tags.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    removed.add(rs.getString(1));
                }
            }
        }
        for (String tag : removed) {
            record(c, account, leadId, "lead.tag.removed", tag, now);
        }
        return removed;
    }

    public void setStage(Connection c, String accountId, String leadId, String stage, Instant date) throws SQLException {
        String[] idAndName = ensureStage(c, accountId, stage, date);
        updateStage(c, accountId, leadId, idAndName[1], date);
        addHistory(c, accountId, leadId, idAndName[0], date);
    }

    private static void addHistory(Connection c, String accountId, String leadId, String stageId, Instant date) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO lead_stage_history (account_id, lead_id, stage_id, entered_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING")) {
            ps.setString(1, accountId);
            ps.setString(2, leadId);
            ps.setString(3, stageId);
            ps.setTimestamp(4, Timestamp.from(date));
            ps.executeUpdate();
        }
    }

    /**
     * Applies a stage (spec 3.2): the account learns the name, the lead's current stage becomes it, the history
     * gains an entry, and {@code lead.stage.changed} is recorded when the current stage changed.
     */
    public void applyStage(Connection c, Account account, String leadId, String stage, Instant date) throws SQLException {
        String[] idAndName = ensureStage(c, account.id(), stage, date);
        String before = findById(c, account.id(), leadId).map(Current::stageName).orElse(null);
        updateStage(c, account.id(), leadId, idAndName[1], date);
        addHistory(c, account.id(), leadId, idAndName[0], date);
        if (before == null || !before.equalsIgnoreCase(idAndName[1])) {
            ObjectNode detail = JsonBody.mapper().createObjectNode().put("stage", idAndName[1]);
            if (before != null) {
                detail.put("previousStage", before);
            }
            recordDetail(c, account, leadId, "lead.stage.changed", detail, date);
        }
    }

    /** Removes the named stages from the lead: its current stage is cleared when it is one of them. */
    public void removeStages(Connection c, Account account, String leadId, List<String> names, Instant now) throws SQLException {
        String before = findById(c, account.id(), leadId).map(Current::stageName).orElse(null);
        if (before == null || names.stream().noneMatch(before::equalsIgnoreCase)) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement(
                "UPDATE leads SET stage_name = NULL, stage_date = NULL, updated_at = ? WHERE account_id = ? AND id = ?")) {
            ps.setTimestamp(1, Timestamp.from(now));
            ps.setString(2, account.id());
            ps.setString(3, leadId);
            ps.executeUpdate();
        }
        recordDetail(c, account, leadId, "lead.stage.changed",
                JsonBody.mapper().createObjectNode().putNull("stage").put("previousStage", before), now);
    }

    /** The names of {@code names} the account does not know (case-insensitive). */
    public static List<String> unknownStages(Connection c, String accountId, Collection<String> names) throws SQLException {
        List<String> known = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT lower(name) FROM lead_stages WHERE account_id = ? AND lower(name) = ANY(?)")) {
            ps.setString(1, accountId);
            ps.setArray(2, c.createArrayOf("text", names.stream().map(n -> n.toLowerCase(Locale.ROOT)).toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    known.add(rs.getString(1));
                }
            }
        }
        return names.stream().filter(n -> !known.contains(n.toLowerCase(Locale.ROOT))).toList();
    }

    /** The stage's id and canonical name, creating it when the account does not know the name yet. */
    private static String[] ensureStage(Connection c, String accountId, String name, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO lead_stages (account_id, id, name, created_at) VALUES (?, ?, ?, ?)
                ON CONFLICT (account_id, lower(name)) DO NOTHING""")) {
            ps.setString(1, accountId);
            ps.setString(2, RequestIds.next("stg_"));
            ps.setString(3, name);
            ps.setTimestamp(4, Timestamp.from(now));
            ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT id, name FROM lead_stages WHERE account_id = ? AND lower(name) = lower(?)")) {
            ps.setString(1, accountId);
            ps.setString(2, name);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new String[]{rs.getString(1), rs.getString(2)};
            }
        }
    }

    private static void updateStage(Connection c, String accountId, String leadId, String stage, Instant date) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE leads SET stage_name = ?, stage_date = ? WHERE account_id = ? AND id = ?")) {
            ps.setString(1, stage);
            ps.setTimestamp(2, Timestamp.from(date));
            ps.setString(3, accountId);
            ps.setString(4, leadId);
            ps.executeUpdate();
        }
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
                recordDetail(c, account, leadId, "lead.origin.assigned",
                        JsonBody.mapper().createObjectNode().put("originLeadId", originId), now);
            }
        }
    }

    /**
     * Erases a lead (spec 3.2, DELETE /leads): contacts blacklisted, personal data redacted, phones, IPs, tags,
     * stage history and clicks deleted, and every {@link LeadErasure} (sales, subscriptions) run. The row stays,
     * marked erased, so ids held elsewhere still resolve to nothing personal.
     */
    public void erase(Connection c, Account account, String leadId, String placeholderDomain, Instant now) throws SQLException {
        Current lead = findById(c, account.id(), leadId).orElse(null);
        if (lead == null) {
            return;
        }
        List<String> phones = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT phone FROM lead_phones WHERE account_id = ? AND lead_id = ?")) {
            ps.setString(1, account.id());
            ps.setString(2, leadId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    phones.add(rs.getString(1));
                }
            }
        }
        Blacklist.add(c, account.id(), lead.email(), phones);
        for (LeadErasure erasure : erasures) {
            erasure.erase(c, account, leadId, now);
        }
        for (String table : List.of("lead_phones", "lead_ips", "lead_tags", "lead_stage_history", "clicks")) {
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM " + table + " WHERE account_id = ? AND lead_id = ?")) {
                ps.setString(1, account.id());
                ps.setString(2, leadId);
                ps.executeUpdate();
            }
        }
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE leads SET email = ?, first_name = NULL, last_name = NULL, stage_name = NULL, stage_date = NULL,
                       erased = true, updated_at = ? WHERE account_id = ? AND id = ?""")) {
            ps.setString(1, "erased-" + leadId.toLowerCase(Locale.ROOT) + "@" + placeholderDomain);
            ps.setTimestamp(2, Timestamp.from(now));
            ps.setString(3, account.id());
            ps.setString(4, leadId);
            ps.executeUpdate();
        }
        // ClickHouse still holds the lead's old versions: the CDC bridge's ErasureSweep removes them once this commits
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO clickhouse_erasures (account_id, lead_id, requested_at) VALUES (?, ?, ?)
                ON CONFLICT (account_id, lead_id) DO UPDATE SET requested_at = EXCLUDED.requested_at, done_at = NULL""")) {
            ps.setString(1, account.id());
            ps.setString(2, leadId);
            ps.setTimestamp(3, Timestamp.from(now));
            ps.executeUpdate();
        }
    }

    /** The lead as {@code GET /leads} shows it, read on this connection (null when erased or missing). */
    public JsonNode render(Connection c, Account account, String leadId) {
        return reader.byIds(c, account.id(), account.timeZone(), List.of(leadId)).stream().findFirst()
                .map(v -> (JsonNode) JsonBody.mapper().valueToTree(v)).orElse(null);
    }

    private void record(Connection c, Account account, String leadId, String type, String tag, Instant at) throws SQLException {
        ObjectNode detail = JsonBody.mapper().createObjectNode();
        if (tag != null) {
            detail.put("tag", tag);
        }
        recordDetail(c, account, leadId, type, detail, at);
    }

    /** One outbox row: {@code {lead: <GET /leads item>, ...detail}}, in this transaction. */
    private void recordDetail(Connection c, Account account, String leadId, String type, ObjectNode detail, Instant at)
            throws SQLException {
        ObjectNode payload = JsonBody.mapper().createObjectNode();
        payload.set("lead", render(c, account, leadId));
        payload.setAll(detail);
        DomainEvents.record(c, account.id(), type, leadId, payload, at);
    }

    /** Deletes the account's clicks never connected to a lead within the retention (spec 8.2). */
    public static void purgeUnassignedClicks(Connection c, String accountId, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM clicks WHERE account_id = ? AND lead_id IS NULL AND click_date < ?")) {
            ps.setString(1, accountId);
            ps.setTimestamp(2, Timestamp.from(now.minus(CLICK_RETENTION).atOffset(ZoneOffset.UTC).toInstant()));
            ps.executeUpdate();
        }
    }

    private static void insertAll(Connection c, String sql, String accountId, String leadId, List<String> values) throws SQLException {
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
