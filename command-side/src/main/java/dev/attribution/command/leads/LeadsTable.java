package dev.attribution.command.leads;

import dev.attribution.api.JsonBody;
import dev.attribution.api.RequestIds;
import dev.attribution.api.auth.Account;
import dev.attribution.command.blacklist.Blacklist;
import dev.attribution.command.imports.BatchInsert;
import jakarta.inject.Singleton;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The only writer of the {@code leads} table (every INSERT and UPDATE of it: upserts by email, one or many at once,
 * changed fields, stage columns, origin, opt-in, erasure's redaction), and the lookups lead writes make, at accept
 * time and when applied. Changes that are domain events (consent, origin) are recorded here with them (spec 6).
 * Consent: a new lead without one is UNSPECIFIED, an existing lead keeps its value unless one is sent (spec 3.2).
 */
@Singleton
public class LeadsTable {

    /** The stored state of a lead that writes compare against. */
    public record Current(String id, String email, String consent, String stageName) {
    }

    /** The lead written and whether it was new. */
    public record Upsert(String id, boolean created) {
    }

    /** One lead to upsert by email; {@code consent} null: none sent. */
    record Row(String accountId, String email, String firstName, String lastName, String consent, Instant now) {
        String identity() {
            return accountId + '\u0000' + email.toLowerCase(Locale.ROOT);
        }
    }

    private final LeadEvents events;

    LeadsTable(LeadEvents events) {
        this.events = events;
    }

    /** The email of the oldest live lead holding exactly this phone number. */
    Optional<String> emailByPhone(Connection c, String accountId, String phone) throws SQLException {
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
    Optional<Current> findByPhoneDigits(Connection c, String accountId, String phone) throws SQLException {
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

    Optional<Current> findByEmail(Connection c, String accountId, String email) throws SQLException {
        return one(c, "SELECT id, email, ad_consent, stage_name FROM leads WHERE account_id = ? AND lower(email) = lower(?) AND NOT erased",
                accountId, email);
    }

    Optional<Current> findById(Connection c, String accountId, String id) throws SQLException {
        return one(c, "SELECT id, email, ad_consent, stage_name FROM leads WHERE account_id = ? AND id = ? AND NOT erased",
                accountId, id);
    }

    /** The live leads named by id or by email (case-insensitive), oldest first ({@code POST /leads/tags}). */
    List<String> findLiveIds(Connection c, String accountId, List<String> ids, List<String> emails) throws SQLException {
        List<String> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT id FROM leads WHERE account_id = ? AND NOT erased AND (id = ANY(?) OR lower(email) = ANY(?))
                ORDER BY created_at, id""")) {
            ps.setString(1, accountId);
            ps.setArray(2, c.createArrayOf("text", ids.toArray()));
            ps.setArray(3, c.createArrayOf("text", emails.stream().map(e -> e.toLowerCase(Locale.ROOT)).toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
        }
        return out;
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

    /** Creates the lead or updates names (and consent, when sent) on the existing one. */
    Upsert upsert(Connection c, Row r) throws SQLException {
        // one statement in the usual case; (xmax = 0) tells a row this statement inserted from one it updated
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO leads AS l (account_id, id, email, first_name, last_name, ad_consent, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, COALESCE(?, 'UNSPECIFIED'), ?, ?)
                ON CONFLICT (account_id, lower(email)) DO UPDATE SET first_name = COALESCE(?, l.first_name),
                       last_name = COALESCE(?, l.last_name), ad_consent = COALESCE(?, l.ad_consent), updated_at = ?
                WHERE NOT l.erased
                RETURNING l.id, (l.xmax = 0) AS created""")) {
            ps.setString(1, r.accountId());
            ps.setString(2, RequestIds.next("ld_"));
            ps.setString(3, r.email());
            ps.setString(4, r.firstName());
            ps.setString(5, r.lastName());
            ps.setString(6, r.consent());
            ps.setTimestamp(7, Timestamp.from(r.now()));
            ps.setTimestamp(8, Timestamp.from(r.now()));
            ps.setString(9, r.firstName());
            ps.setString(10, r.lastName());
            ps.setString(11, r.consent());
            ps.setTimestamp(12, Timestamp.from(r.now()));
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    return new Upsert(rs.getString(1), rs.getBoolean(2));
                }
            }
        }
        throw erased();
    }

    /**
     * {@link #upsert} for each row, in one statement per kind (consent sent or not), rows in (account, email) order so
     * that two transactions lock leads in the same order (group apply, issue 23 point 3). The rows' (account,
     * lower(email)) must be distinct and no consent GRANTED (its events are {@link #upsertWithEvents}'). Returns the
     * upserts in the order of {@code rows}.
     */
    List<Upsert> upsertMany(Connection c, List<Row> rows) throws SQLException {
        Map<String, Upsert> done = new HashMap<>();
        for (boolean consentSent : new boolean[]{false, true}) {
            List<Row> kind = rows.stream().filter(r -> (r.consent() != null) == consentSent)
                    .sorted(Comparator.comparing(Row::identity)).toList();
            if (kind.isEmpty()) {
                continue;
            }
            try (PreparedStatement ps = c.prepareStatement("""
                    INSERT INTO leads AS l (account_id, id, email, first_name, last_name, ad_consent, created_at, updated_at)
                    SELECT a, i, e, f, n, COALESCE(k, 'UNSPECIFIED'), t::timestamptz, t::timestamptz
                    FROM unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[])
                         WITH ORDINALITY AS u(a, i, e, f, n, k, t, o) ORDER BY o
                    ON CONFLICT (account_id, lower(email)) DO UPDATE SET first_name = COALESCE(excluded.first_name, l.first_name),
                           last_name = COALESCE(excluded.last_name, l.last_name), ad_consent = %s, updated_at = excluded.updated_at
                    WHERE NOT l.erased
                    RETURNING l.account_id, lower(l.email), l.id, (l.xmax = 0) AS created"""
                    .formatted(consentSent ? "excluded.ad_consent" : "l.ad_consent"))) {
                ps.setArray(1, c.createArrayOf("text", kind.stream().map(Row::accountId).toArray()));
                ps.setArray(2, c.createArrayOf("text", kind.stream().map(r -> RequestIds.next("ld_")).toArray()));
                ps.setArray(3, c.createArrayOf("text", kind.stream().map(Row::email).toArray()));
                ps.setArray(4, c.createArrayOf("text", kind.stream().map(Row::firstName).toArray()));
                ps.setArray(5, c.createArrayOf("text", kind.stream().map(Row::lastName).toArray()));
                ps.setArray(6, c.createArrayOf("text", kind.stream().map(Row::consent).toArray()));
                ps.setArray(7, c.createArrayOf("text", kind.stream().map(r -> r.now().toString()).toArray()));
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        done.put(rs.getString(1) + '\u0000' + rs.getString(2), new Upsert(rs.getString(3), rs.getBoolean(4)));
                    }
                }
            }
        }
        List<Upsert> out = new ArrayList<>(rows.size());
        for (Row r : rows) {
            Upsert u = done.get(r.identity());
            if (u == null) {
                throw erased();
            }
            out.add(u);
        }
        return out;
    }

    private static SQLException erased() {
        // the address is an erased lead's redacted one: the conflicting row may not be updated (it failed before too)
        return new SQLException("the email of lead write matches an erased lead's redacted address");
    }

    /**
     * {@link #upsert} plus the consent events: {@code lead.opted.in} when consent becomes GRANTED, and
     * {@code lead.opted.in.first.time} the first time it ever does.
     */
    Upsert upsertWithEvents(Connection c, Account account, String email, String firstName, String lastName, String consent,
                            Instant now) throws SQLException {
        // the consent before matters only when GRANTED is sent (consentChanged): otherwise no read
        String before = "GRANTED".equals(consent) ? findByEmail(c, account.id(), email).map(Current::consent).orElse(null) : null;
        Upsert upsert = upsert(c, new Row(account.id(), email, firstName, lastName, consent, now));
        consentChanged(c, account, upsert.id(), before, consent, now);
        return upsert;
    }

    /** Records the opt-in events when {@code after} is GRANTED and {@code before} was not. */
    void consentChanged(Connection c, Account account, String leadId, String before, String after, Instant now) throws SQLException {
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
    void updateFields(Connection c, String accountId, String leadId, String email, String firstName, String lastName,
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
    void touch(Connection c, String accountId, String leadId, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE leads SET updated_at = GREATEST(updated_at, ?) WHERE account_id = ? AND id = ?")) {
            ps.setTimestamp(1, Timestamp.from(now));
            ps.setString(2, accountId);
            ps.setString(3, leadId);
            ps.executeUpdate();
        }
    }

    /** {@link #touch} of many (account, lead, now) in one statement. */
    void touchMany(Connection c, List<String> accountIds, List<String> leadIds, List<Instant> nows) throws SQLException {
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

    /** The lead's current stage and its date; {@code updatedAt} null leaves {@code lastUpdatedDate} as it is. */
    public void setStage(Connection c, String accountId, String leadId, String stage, Instant date, Instant updatedAt) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "UPDATE leads SET stage_name = ?, stage_date = ?, updated_at = COALESCE(?, updated_at) WHERE account_id = ? AND id = ?")) {
            ps.setString(1, stage);
            ps.setTimestamp(2, stage == null ? null : Timestamp.from(date));
            ps.setTimestamp(3, updatedAt == null ? null : Timestamp.from(updatedAt));
            ps.setString(4, accountId);
            ps.setString(5, leadId);
            ps.executeUpdate();
        }
    }

    /**
     * Makes {@code originId} the origin lead of {@code leadId} (orders with {@code parentEmail}) and records
     * {@code lead.origin.assigned} when it changed.
     */
    void assignOrigin(Connection c, Account account, String leadId, String originId, Instant now) throws SQLException {
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

    /** The erasure's redaction (spec 3.2): a placeholder address, no names or stage, marked erased; the row stays. */
    void redact(Connection c, String accountId, String leadId, String placeholderDomain, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE leads SET email = ?, first_name = NULL, last_name = NULL, stage_name = NULL, stage_date = NULL,
                       erased = true, updated_at = ? WHERE account_id = ? AND id = ?""")) {
            ps.setString(1, "erased-" + leadId.toLowerCase(Locale.ROOT) + "@" + placeholderDomain);
            ps.setTimestamp(2, Timestamp.from(now));
            ps.setString(3, accountId);
            ps.setString(4, leadId);
            ps.executeUpdate();
        }
    }

    /** A lead written whole, as the demo seed writes its leads (stage columns and opt-in already known). */
    public record Bulk(String accountId, String id, String email, String firstName, String lastName, String consent,
                       String stageName, Instant stageDate, Instant createdAt, Instant updatedAt, Instant firstOptedInAt) {
    }

    /** Inserts new leads in one batch (the demo seed; no events: demo data fires no webhooks). */
    public static void insertBulk(Connection c, List<Bulk> rows) throws SQLException {
        BatchInsert.run(c, """
                INSERT INTO leads (account_id, id, email, first_name, last_name, ad_consent, stage_name, stage_date,
                    created_at, updated_at, first_opted_in_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""", rows,
                r -> new Object[]{r.accountId(), r.id(), r.email(), r.firstName(), r.lastName(), r.consent(), r.stageName(),
                        r.stageDate(), r.createdAt(), r.updatedAt(), r.firstOptedInAt()});
    }
}
