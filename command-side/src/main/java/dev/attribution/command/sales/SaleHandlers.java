package dev.attribution.command.sales;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.JsonBody;
import dev.attribution.command.events.DomainEvents;
import dev.attribution.command.orders.Money;
import dev.attribution.command.orders.Refunds;
import dev.attribution.command.requests.CommandHandler;
import dev.attribution.command.sales.SaleCommands.DeleteSale;
import dev.attribution.command.sales.SaleCommands.UpdateSales;
import dev.attribution.views.RecordViews;
import dev.attribution.views.SaleView;
import jakarta.inject.Singleton;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** The sale commands applied: UPDATE_SALE (refund, recurring flag) and DELETE_SALE. */
final class SaleHandlers {

    private SaleHandlers() {
    }

    /**
     * Refunding sets {@code refundDate} (the date sent, else the request's date) and the refunded amount (the amount
     * sent, else the sale's price); {@code isRefunded=false} clears both. A sale newly refunded records
     * {@code sale.refunded}. The result is the array of the sales of the orders named (spec 2.20).
     */
    @Singleton
    static class Update implements CommandHandler<UpdateSales> {
        private final RecordViews views;
        private final SalesTable sales;

        Update(RecordViews views, SalesTable sales) {
            this.views = views;
            this.sales = sales;
        }

        @Override
        public Class<UpdateSales> commandType() {
            return UpdateSales.class;
        }

        @Override
        public JsonNode handle(Connection c, Applying w, UpdateSales u) throws SQLException {
            String accountId = w.accountId();
            Instant now = w.acceptedAt();
            List<SalesTable.Locked> found = sales.lockLive(c, accountId, u.ids());
            if (found.isEmpty()) {
                throw new WriteFailure(SaleRules.NOT_FOUND);
            }
            List<String> ids = new ArrayList<>();
            Set<String> leads = new LinkedHashSet<>();
            List<String> newlyRefunded = new ArrayList<>();
            for (SalesTable.Locked sale : found) {
                ids.add(sale.id());
                leads.add(sale.leadId());
                if (u.refunded() != null) {
                    sales.setRefund(c, accountId, sale.id(), u.refunded(),
                            u.refundedDate() != null ? Instant.parse(u.refundedDate()) : now, refundedAmount(u, sale), now);
                    if (u.refunded() && !sale.refunded()) {
                        newlyRefunded.add(sale.id());
                    }
                }
            }
            if (u.recurring() != null) {
                sales.setRecurring(c, accountId, ids, u.recurring(), now);
                for (String lead : leads) {
                    sales.refreshFlags(c, accountId, lead, now);
                }
            }
            List<SaleView> rendered = views.sales(c, accountId, w.account().timeZone(), ids);
            Set<String> orders = new LinkedHashSet<>();
            for (SaleView sale : rendered) {
                orders.add(sale.orderId());
                if (newlyRefunded.contains(sale.id())) {
                    DomainEvents.record(c, accountId, "sale.refunded", sale.id(), JsonBody.mapper().valueToTree(sale), now);
                }
            }
            List<SaleView> result = new ArrayList<>();
            for (String orderId : orders) {
                result.addAll(views.orderSales(c, accountId, w.account().timeZone(), orderId));
            }
            return JsonBody.mapper().valueToTree(result);
        }

        /** The amount sent (no more than the sale's price), else the sale's price. */
        private static BigDecimal refundedAmount(UpdateSales u, SalesTable.Locked sale) {
            if (u.refundedAmount() == null) {
                return sale.price();
            }
            String currency = sale.currency();
            long amount = Money.toMinor("refundedAmount", u.refundedAmount(), "DECIMAL", currency);
            return Money.toDecimal(Refunds.checked(amount, Math.max(0, Money.fromDecimal(sale.price(), currency)), "sale"), currency);
        }
    }

    /** DELETE_SALE: the sale is soft-deleted and leaves every read; the lead's purchase flags are recomputed. */
    @Singleton
    static class Delete implements CommandHandler<DeleteSale> {
        private final SalesTable sales;

        Delete(SalesTable sales) {
            this.sales = sales;
        }

        @Override
        public Class<DeleteSale> commandType() {
            return DeleteSale.class;
        }

        @Override
        public JsonNode handle(Connection c, Applying w, DeleteSale delete) throws SQLException {
            String leadId = sales.delete(c, w.accountId(), delete.id(), w.acceptedAt());
            if (leadId == null) {
                throw new WriteFailure(SaleRules.NOT_FOUND);
            }
            sales.refreshFlags(c, w.accountId(), leadId, w.acceptedAt());
            return null;
        }
    }
}
