package dev.attribution.command.leads;

import dev.attribution.api.RequestIds;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The lead upsert by email of {@link LeadStore}: one lead at a time ({@link #one}), or many leads of distinct emails
 * in one statement ({@link #many}, group apply of lead creates, issue 23 point 3) with the same effect on each.
 * Consent: a new lead without one is UNSPECIFIED, an existing lead keeps its value unless one is sent (spec 3.2).
 */
final class LeadUpserts {

    /** One lead to upsert; {@code consent} null: none sent. */
    record Row(String accountId, String email, String firstName, String lastName, String consent, Instant now) {
        String identity() {
            return accountId + '\u0000' + email.toLowerCase(Locale.ROOT);
        }
    }

    private LeadUpserts() {
    }

    static LeadStore.Upsert one(Connection c, Row r) throws SQLException {
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
                    return new LeadStore.Upsert(rs.getString(1), rs.getBoolean(2));
                }
            }
        }
        throw erased();
    }

    /**
     * {@link #one} for each row, in one statement per kind (consent sent or not), rows in (account, email) order so
     * that two transactions lock leads in the same order. The rows' (account, lower(email)) must be distinct. Returns
     * the upserts in the order of {@code rows}.
     */
    static List<LeadStore.Upsert> many(Connection c, List<Row> rows) throws SQLException {
        Map<String, LeadStore.Upsert> done = new HashMap<>();
        for (boolean consentSent : new boolean[]{false, true}) {
            List<Row> kind = rows.stream().filter(r -> (r.consent() != null) == consentSent)
                    .sorted(java.util.Comparator.comparing(Row::identity)).toList();
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
                        done.put(rs.getString(1) + '\u0000' + rs.getString(2), new LeadStore.Upsert(rs.getString(3), rs.getBoolean(4)));
                    }
                }
            }
        }
        List<LeadStore.Upsert> out = new ArrayList<>(rows.size());
        for (Row r : rows) {
            LeadStore.Upsert u = done.get(r.identity());
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
}
