package dev.attribution.command.leads;

import dev.attribution.command.imports.BatchInsert;
import jakarta.inject.Singleton;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** The only writer of {@code lead_phones}: numbers added, replaced (one lead or many at once), erased. */
@Singleton
public class LeadPhones {

    /** The lead's phone numbers. */
    List<String> of(Connection c, String accountId, String leadId) throws SQLException {
        List<String> phones = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT phone FROM lead_phones WHERE account_id = ? AND lead_id = ?")) {
            ps.setString(1, accountId);
            ps.setString(2, leadId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    phones.add(rs.getString(1));
                }
            }
        }
        return phones;
    }

    /** {@code PUT /leads}, orders, calls, clicks: numbers are added, stored ones kept. */
    void add(Connection c, String accountId, String leadId, List<String> phones) throws SQLException {
        if (phones.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO lead_phones (account_id, lead_id, phone) VALUES (?, ?, ?) ON CONFLICT DO NOTHING")) {
            for (String phone : phones) {
                ps.setString(1, accountId);
                ps.setString(2, leadId);
                ps.setString(3, phone);
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    /** {@code POST /leads}: the numbers sent replace the stored ones; none sent deletes them. */
    void replace(Connection c, String accountId, String leadId, List<String> phones) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM lead_phones WHERE account_id = ? AND lead_id = ? AND NOT (phone = ANY(?))")) {
            ps.setString(1, accountId);
            ps.setString(2, leadId);
            ps.setArray(3, c.createArrayOf("text", phones.toArray()));
            ps.executeUpdate();
        }
        add(c, accountId, leadId, phones);
    }

    /**
     * {@link #replace} of many leads (group apply of lead creates, issue 23 point 3), in two statements. A new lead
     * holds no numbers to replace ({@code created}), so only the others' are deleted first.
     */
    void replaceMany(Connection c, List<String> accountIds, List<LeadsTable.Upsert> leads, List<List<String>> phones) throws SQLException {
        List<String> accs = new ArrayList<>();
        List<String> ids = new ArrayList<>();
        List<String> numbers = new ArrayList<>();
        List<String> keptAccs = new ArrayList<>();
        List<String> keptIds = new ArrayList<>();
        for (int i = 0; i < leads.size(); i++) {
            if (!leads.get(i).created()) {
                keptAccs.add(accountIds.get(i));
                keptIds.add(leads.get(i).id());
            }
            for (String phone : phones.get(i)) {
                accs.add(accountIds.get(i));
                ids.add(leads.get(i).id());
                numbers.add(phone);
            }
        }
        if (!keptIds.isEmpty()) {
            try (PreparedStatement ps = c.prepareStatement("""
                    DELETE FROM lead_phones p USING unnest(?::text[], ?::text[]) AS u(a, l)
                    WHERE p.account_id = u.a AND p.lead_id = u.l
                      AND NOT EXISTS (SELECT 1 FROM unnest(?::text[], ?::text[], ?::text[]) AS k(a, l, n)
                                      WHERE k.a = p.account_id AND k.l = p.lead_id AND k.n = p.phone)""")) {
                ps.setArray(1, c.createArrayOf("text", keptAccs.toArray()));
                ps.setArray(2, c.createArrayOf("text", keptIds.toArray()));
                ps.setArray(3, c.createArrayOf("text", accs.toArray()));
                ps.setArray(4, c.createArrayOf("text", ids.toArray()));
                ps.setArray(5, c.createArrayOf("text", numbers.toArray()));
                ps.executeUpdate();
            }
        }
        if (!numbers.isEmpty()) {
            try (PreparedStatement ps = c.prepareStatement("""
                    INSERT INTO lead_phones (account_id, lead_id, phone)
                    SELECT a, l, n FROM unnest(?::text[], ?::text[], ?::text[]) WITH ORDINALITY AS k(a, l, n, o) ORDER BY o
                    ON CONFLICT DO NOTHING""")) {
                ps.setArray(1, c.createArrayOf("text", accs.toArray()));
                ps.setArray(2, c.createArrayOf("text", ids.toArray()));
                ps.setArray(3, c.createArrayOf("text", numbers.toArray()));
                ps.executeUpdate();
            }
        }
    }

    /** The lead's numbers, gone with it ({@code DELETE /leads}, spec 3.2). */
    void eraseLead(Connection c, String accountId, String leadId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM lead_phones WHERE account_id = ? AND lead_id = ?")) {
            ps.setString(1, accountId);
            ps.setString(2, leadId);
            ps.executeUpdate();
        }
    }

    /** A lead's number. */
    public record Bulk(String accountId, String leadId, String phone) {
    }

    /** Inserts numbers in one batch (the demo seed); a number the lead has already is kept. */
    public static void insertBulk(Connection c, List<Bulk> rows) throws SQLException {
        BatchInsert.run(c, "INSERT INTO lead_phones (account_id, lead_id, phone) VALUES (?, ?, ?) ON CONFLICT DO NOTHING", rows,
                r -> new Object[]{r.accountId(), r.leadId(), r.phone()});
    }
}
