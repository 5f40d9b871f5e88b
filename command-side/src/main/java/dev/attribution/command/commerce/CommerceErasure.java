package dev.attribution.command.commerce;

import dev.attribution.api.auth.Account;
import dev.attribution.command.calls.CallsTable;
import dev.attribution.command.carts.CartsTable;
import dev.attribution.command.leads.LeadErasure;
import dev.attribution.command.orders.OrdersTable;
import dev.attribution.command.sales.SalesTable;
import dev.attribution.command.subscriptions.SubscriptionsTable;
import jakarta.inject.Singleton;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;

/**
 * The commerce part of {@code DELETE /leads} (spec 3.2): the lead's sales (attributed to it or bought by it), its
 * orders and calls are deleted, its subscriptions cancelled, and its carts kept without the link to the lead. Origin
 * leads that were credited with its purchases ({@code parentEmail}) get their first/last purchase flags recomputed
 * without them.
 */
@Singleton
class CommerceErasure implements LeadErasure {

    private final SalesTable sales;
    private final CallsTable calls;
    private final CartsTable carts;
    private final SubscriptionsTable subscriptions;
    private final OrdersTable orders;

    CommerceErasure(SalesTable sales, CallsTable calls, CartsTable carts, SubscriptionsTable subscriptions,
                    OrdersTable orders) {
        this.orders = orders;
        this.subscriptions = subscriptions;
        this.carts = carts;
        this.sales = sales;
        this.calls = calls;
    }

    @Override
    public void erase(Connection c, Account account, String leadId, Instant now) throws SQLException {
        sales.eraseLead(c, account.id(), leadId, now);
        orders.eraseLead(c, account.id(), leadId);
        calls.eraseLead(c, account.id(), leadId);
        carts.unlinkLead(c, account.id(), leadId, now);
        subscriptions.cancelForLead(c, account.id(), leadId, now);
    }
}
