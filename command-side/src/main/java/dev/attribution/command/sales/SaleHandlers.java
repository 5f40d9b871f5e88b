package dev.attribution.command.sales;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.JsonBody;
import dev.attribution.command.commerce.CommerceInput;
import dev.attribution.command.events.DomainEvents;
import dev.attribution.command.orders.Money;
import dev.attribution.command.orders.Refunds;
import dev.attribution.command.orders.SaleStore;
import dev.attribution.command.requests.WriteHandler;
import dev.attribution.views.RecordViews;
import dev.attribution.views.SaleView;
import jakarta.inject.Singleton;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** UPDATE_SALE (refund, recurring flag) and DELETE_SALE. */
public final class SaleHandlers {

    public static final String SALE_NOT_FOUND = "Sale not found";

    private SaleHandlers() {
    }

    /**
     * Refunding sets {@code refundDate} (the date sent, else the request's date) and the refunded amount (the amount
     * sent, else the sale's price); {@code isRefunded=false} clears both. A sale newly refunded records
     * {@code sale.refunded}.
     */
    @Singleton
    static class Update implements WriteHandler {
        private final RecordViews views;
        private final SaleStore store;

        Update(RecordViews views, SaleStore store) {
            this.views = views;
            this.store = store;
        }

        @Override
        public String eventType() {
            return "UPDATE_SALE";
        }

        @Override
        public JsonNode apply(Connection c, Write w) throws SQLException {
            JsonNode p = w.payload();
            String accountId = w.account().id();
            Instant now = w.acceptedAt();
            List<String> ids = CommerceInput.texts(p.get("ids"));
            List<String> newlyRefunded = new ArrayList<>();
            Set<String> leads = new LinkedHashSet<>();
            List<String> found = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT id, refunded, price, currency, lead_id FROM sales WHERE account_id = ? AND id = ANY(?) AND NOT deleted FOR UPDATE")) {
                ps.setString(1, accountId);
                ps.setArray(2, c.createArrayOf("text", ids.toArray()));
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        String id = rs.getString(1);
                        found.add(id);
                        leads.add(rs.getString(5));
                        if (p.has("refunded")) {
                            applyRefund(c, accountId, id, rs.getBoolean(2), rs.getBigDecimal(3), rs.getString(4).trim(), p, now, newlyRefunded);
                        }
                    }
                }
            }
            if (found.isEmpty()) {
                throw new WriteFailure(SALE_NOT_FOUND);
            }
            if (p.has("recurring")) {
                try (PreparedStatement ps = c.prepareStatement(
                        "UPDATE sales SET recurring = ?, updated_at = ? WHERE account_id = ? AND id = ANY(?) AND NOT deleted")) {
                    ps.setBoolean(1, p.get("recurring").asBoolean());
                    ps.setTimestamp(2, Timestamp.from(now));
                    ps.setString(3, accountId);
                    ps.setArray(4, c.createArrayOf("text", found.toArray()));
                    ps.executeUpdate();
                }
                for (String lead : leads) {
                    store.refreshFlags(c, accountId, lead, now);
                }
            }
            List<SaleView> rendered = views.sales(c, accountId, w.account().timeZone(), found);
            Set<String> orders = new LinkedHashSet<>();
            for (SaleView sale : rendered) {
                orders.add(sale.orderId());
                if (newlyRefunded.contains(sale.id())) {
                    DomainEvents.record(c, accountId, "sale.refunded", sale.id(), JsonBody.mapper().valueToTree(sale), now);
                }
            }
            // the result of UPDATE_SALE is the array of the order's sales (spec 2.20)
            List<SaleView> result = new ArrayList<>();
            for (String orderId : orders) {
                result.addAll(views.orderSales(c, accountId, w.account().timeZone(), orderId));
            }
            return JsonBody.mapper().valueToTree(result);
        }

        private static void applyRefund(Connection c, String accountId, String id, boolean wasRefunded, BigDecimal price,
                                        String currency, JsonNode p, Instant now, List<String> newlyRefunded) throws SQLException {
            boolean refund = p.get("refunded").asBoolean();
            Instant date = p.hasNonNull("refundedDate") ? Instant.parse(p.get("refundedDate").asText()) : now;
            BigDecimal amount = p.hasNonNull("refundedAmount")
                    ? Money.toDecimal(Refunds.checked(Money.toMinor("refundedAmount", new BigDecimal(p.get("refundedAmount").asText()), "DECIMAL",
                    currency), Math.max(0, Money.fromDecimal(price, currency)), "sale"), currency)
                    : price;
            try (PreparedStatement ps = c.prepareStatement(
                    "UPDATE sales SET refunded = ?, refund_date = ?, refunded_amount = ?, updated_at = ? WHERE account_id = ? AND id = ?")) {
                ps.setBoolean(1, refund);
                ps.setTimestamp(2, refund ? Timestamp.from(date) : null);
                ps.setBigDecimal(3, refund ? amount : BigDecimal.ZERO);
                ps.setTimestamp(4, Timestamp.from(now));
                ps.setString(5, accountId);
                ps.setString(6, id);
                ps.executeUpdate();
            }
            if (refund && !wasRefunded) {
                newlyRefunded.add(id);
            }
        }
    }

    /** DELETE_SALE: the sale is soft-deleted and leaves every read; the lead's purchase flags are recomputed. */
    @Singleton
    static class Delete implements WriteHandler {
        private final SaleStore store;

        Delete(SaleStore store) {
            this.store = store;
        }

        @Override
        public String eventType() {
            return "DELETE_SALE";
        }

        @Override
        public JsonNode apply(Connection c, Write w) throws SQLException {
            String accountId = w.account().id();
            try (PreparedStatement ps = c.prepareStatement("""
                    UPDATE sales SET deleted = true, first_sale = false, last_purchase = false, updated_at = ?
                    WHERE account_id = ? AND id = ? AND NOT deleted RETURNING lead_id""")) {
                ps.setTimestamp(1, Timestamp.from(w.acceptedAt()));
                ps.setString(2, accountId);
                ps.setString(3, w.payload().get("id").asText());
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        throw new WriteFailure(SALE_NOT_FOUND);
                    }
                    store.refreshFlags(c, accountId, rs.getString(1), w.acceptedAt());
                }
            }
            return null;
        }
    }
}
