package dev.attribution.command.requests;

import dev.attribution.command.calls.CreateCall;
import dev.attribution.command.carts.CartCommands.CreateCart;
import dev.attribution.command.carts.CartCommands.UpdateCart;
import dev.attribution.command.calls.DeleteCall;
import dev.attribution.command.calls.UpdateCalls;
import dev.attribution.command.clicks.CreateClick;
import dev.attribution.command.customcosts.CustomCostCommands.CreateCustomCost;
import dev.attribution.command.customcosts.CustomCostCommands.DeleteCustomCost;
import dev.attribution.command.customcosts.CustomCostCommands.UpdateCustomCost;
import dev.attribution.command.orders.OrderCommands.PlaceOrder;
import dev.attribution.command.orders.OrderCommands.UpdateOrder;
import dev.attribution.command.orders.RefundOrder;
import dev.attribution.command.leads.CreateLead;
import dev.attribution.command.leads.DeleteLead;
import dev.attribution.command.leads.TagLeads;
import dev.attribution.command.leads.UpdateLead;
import dev.attribution.command.products.ProductCommands.CreateProduct;
import dev.attribution.command.products.ProductCommands.DeleteProduct;
import dev.attribution.command.products.ProductCommands.UpdateProduct;
import dev.attribution.command.sources.SourceCommands.CreateSource;
import dev.attribution.command.sources.SourceCommands.DeleteSource;
import dev.attribution.command.sources.SourceCommands.UpdateSource;
import dev.attribution.command.sales.SaleCommands.DeleteSale;
import dev.attribution.command.sales.SaleCommands.UpdateSales;
import dev.attribution.command.subscriptions.SubscriptionCommands.CreateSubscription;
import dev.attribution.command.subscriptions.SubscriptionCommands.UpdateSubscriptions;

import java.util.Map;

/**
 * The event type of every command record (spec 2.20 {@code eventType}, stored in {@code write_requests.event_type}):
 * the one place a command's type string is written. {@link Commands} stores a command under it and
 * {@link CommandHandler} applies it under it. Writes not yet turned into command records still name theirs in their
 * feature's Writes and Handlers classes.
 */
public final class CommandTypes {

    private static final Map<Class<? extends Record>, String> TYPES = Map.ofEntries(
            Map.entry(CreateCall.class, "CREATE_CALL"),
            Map.entry(UpdateCalls.class, "UPDATE_CALL"),
            Map.entry(DeleteCall.class, "DELETE_CALL"),
            Map.entry(CreateClick.class, "CREATE_CLICK"),
            Map.entry(CreateSource.class, "CREATE_SOURCE_LINK"),
            Map.entry(UpdateSource.class, "UPDATE_SOURCE_LINK"),
            Map.entry(DeleteSource.class, "DELETE_SOURCE_LINK"),
            Map.entry(CreateCart.class, "CREATE_CART"),
            Map.entry(UpdateCart.class, "UPDATE_CART"),
            Map.entry(CreateLead.class, "CREATE_LEAD"),
            Map.entry(UpdateLead.class, "UPDATE_LEAD"),
            Map.entry(DeleteLead.class, "DELETE_LEAD"),
            Map.entry(TagLeads.class, "ADD_TAGS_TO_LEADS"),
            Map.entry(CreateCustomCost.class, "CREATE_CUSTOM_COST"),
            Map.entry(UpdateCustomCost.class, "UPDATE_CUSTOM_COST"),
            Map.entry(DeleteCustomCost.class, "DELETE_CUSTOM_COST"),
            Map.entry(PlaceOrder.class, "CREATE_ORDER"),
            Map.entry(UpdateOrder.class, "UPDATE_ORDER"),
            Map.entry(RefundOrder.class, "REFUND_ORDER"),
            Map.entry(CreateProduct.class, "CREATE_PRODUCT"),
            Map.entry(UpdateProduct.class, "UPDATE_PRODUCT"),
            Map.entry(DeleteProduct.class, "DELETE_PRODUCT"),
            Map.entry(UpdateSales.class, "UPDATE_SALE"),
            Map.entry(DeleteSale.class, "DELETE_SALE"),
            Map.entry(CreateSubscription.class, "CREATE_SUBSCRIPTION"),
            Map.entry(UpdateSubscriptions.class, "UPDATE_SUBSCRIPTION"));

    private CommandTypes() {
    }

    public static String eventType(Class<? extends Record> command) {
        String type = TYPES.get(command);
        if (type == null) {
            throw new IllegalStateException("No event type registered for " + command.getName());
        }
        return type;
    }
}
