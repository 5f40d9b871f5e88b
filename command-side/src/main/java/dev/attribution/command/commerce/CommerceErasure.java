package dev.attribution.command.commerce;

import dev.attribution.api.auth.Account;
import dev.attribution.command.calls.CallsTable;
import dev.attribution.command.leads.LeadErasure;
import dev.attribution.command.orders.SaleStore;
import jakarta.inject.Singleton;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The commerce part of {@code DELETE /leads} (spec 3.2): the lead's sales (attributed to it or bought by it), its
 * orders and calls are deleted, its subscriptions cancelled, and its carts kept without the link to the lead. Origin
 * leads that were credited with its purchases ({@code parentEmail}) get their first/last purchase flags recomputed
 * without them.
 */
@Singleton
class CommerceErasure implements LeadErasure {

    private final SaleStore sales;
    private final CallsTable calls;

    CommerceErasure(SaleStore sales, CallsTable calls) {
        this.sales = sales;
        this.calls = calls;
    }

    @Override
    public void erase(Connection c, Account account, String leadId, Instant now) throws SQLException {
        List<String> credited = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT DISTINCT lead_id FROM sales WHERE account_id = ? AND buyer_lead_id = ? AND lead_id <> ?")) {
            ps.setString(1, account.id());
            ps.setString(2, leadId);
            ps.setString(3, leadId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    credited.add(rs.getString(1));
                }
            }
        }
        update(c, "DELETE FROM sales WHERE account_id = ? AND (lead_id = ? OR buyer_lead_id = ?)", account.id(), leadId, leadId);
        for (String origin : credited) {
            sales.refreshFlags(c, account.id(), origin, now);
        }
        update(c, "DELETE FROM orders WHERE account_id = ? AND lead_id = ?", account.id(), leadId);
        calls.eraseLead(c, account.id(), leadId);
        update(c, "UPDATE carts SET lead_id = NULL, updated_at = ? WHERE account_id = ? AND lead_id = ?", now, account.id(), leadId);
        update(c, """
                UPDATE subscriptions SET status = 'CANCELED', end_date = COALESCE(end_date, ?), updated_at = ?
                WHERE account_id = ? AND lead_id = ? AND status <> 'CANCELED'""", now, now, account.id(), leadId);
    }

    private static void update(Connection c, String sql, Object... args) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                if (args[i] instanceof Instant at) {
                    ps.setTimestamp(i + 1, Timestamp.from(at));
                } else {
                    ps.setString(i + 1, (String) args[i]);
                }
            }
            ps.executeUpdate();
        }
    }
}
