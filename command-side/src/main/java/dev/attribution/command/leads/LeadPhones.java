package dev.attribution.command.leads;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** Phone writes of lead creates applied in a group (issue 23 point 3): {@link LeadStore#replacePhones} set-based. */
final class LeadPhones {

    private LeadPhones() {
    }

    /**
     * {@link LeadStore#replacePhones} of many leads, in two statements. A new lead holds no
     * numbers to replace ({@code created}), so only the others' are deleted first.
     */
    static void replaceMany(Connection c, List<String> accountIds, List<LeadStore.Upsert> leads, List<List<String>> phones) throws SQLException {
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
}
