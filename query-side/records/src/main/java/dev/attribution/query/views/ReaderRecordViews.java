package dev.attribution.query.views;

import dev.attribution.query.calls.CallReader;
import dev.attribution.query.carts.CartReader;
import dev.attribution.query.clicks.ClickReader;
import dev.attribution.query.customcosts.CustomCostReader;
import dev.attribution.query.leads.LeadReader;
import dev.attribution.query.products.ProductReader;
import dev.attribution.query.sales.SaleReader;
import dev.attribution.query.sources.SourceReader;
import dev.attribution.query.subscriptions.SubscriptionReader;
import dev.attribution.views.CallView;
import dev.attribution.views.CartView;
import dev.attribution.views.ClickView;
import dev.attribution.views.CustomCostView;
import dev.attribution.views.LeadView;
import dev.attribution.views.ProductView;
import dev.attribution.views.RecordViews;
import dev.attribution.views.SaleView;
import dev.attribution.views.SourceView;
import dev.attribution.views.SubscriptionView;
import jakarta.inject.Singleton;

import java.sql.Connection;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** {@link RecordViews} by the readers of the GETs: a write's result is the record exactly as its GET renders it. */
@Singleton
class ReaderRecordViews implements RecordViews {

    private final LeadReader leads;
    private final SaleReader sales;
    private final CallReader calls;
    private final SubscriptionReader subscriptions;
    private final CartReader carts;
    private final ClickReader clicks;
    private final CustomCostReader customCosts;
    private final ProductReader products;
    private final SourceReader sources;

    ReaderRecordViews(LeadReader leads, SaleReader sales, CallReader calls, SubscriptionReader subscriptions,
                      CartReader carts, ClickReader clicks, CustomCostReader customCosts, ProductReader products,
                      SourceReader sources) {
        this.leads = leads;
        this.sales = sales;
        this.calls = calls;
        this.subscriptions = subscriptions;
        this.carts = carts;
        this.clicks = clicks;
        this.customCosts = customCosts;
        this.products = products;
        this.sources = sources;
    }

    @Override
    public List<LeadView> leads(Connection c, String accountId, ZoneId zone, List<String> ids) {
        return leads.byIds(c, accountId, zone, ids);
    }

    @Override
    public List<SaleView> sales(Connection c, String accountId, ZoneId zone, List<String> ids) {
        return sales.byIds(c, accountId, zone, ids);
    }

    @Override
    public List<SaleView> orderSales(Connection c, String accountId, ZoneId zone, String orderId) {
        return sales.byOrder(c, accountId, zone, orderId);
    }

    @Override
    public Map<String, List<SaleView>> ordersSales(Connection c, String accountId, ZoneId zone, List<String> orderIds) {
        return sales.byOrders(c, accountId, zone, orderIds);
    }

    @Override
    public List<CallView> calls(Connection c, String accountId, ZoneId zone, List<String> ids) {
        return calls.byIds(c, accountId, zone, ids);
    }

    @Override
    public List<SubscriptionView> subscriptions(Connection c, String accountId, ZoneId zone, List<String> ids) {
        return subscriptions.byIds(c, accountId, zone, ids);
    }

    @Override
    public List<CartView> cart(Connection c, String accountId, ZoneId zone, String cartId) {
        return carts.byId(c, accountId, zone, cartId);
    }

    @Override
    public Optional<ClickView> click(Connection c, String accountId, ZoneId zone, String clickId) {
        return clicks.byId(c, accountId, zone, clickId);
    }

    @Override
    public Map<String, ClickView> clicks(Connection c, String accountId, ZoneId zone, List<String> clickIds) {
        return clicks.byIds(c, accountId, zone, clickIds);
    }

    @Override
    public Optional<CustomCostView> customCost(Connection c, String accountId, String id) {
        return customCosts.byId(c, accountId, id);
    }

    @Override
    public Optional<ProductView> product(Connection c, String accountId, String id) {
        return products.byId(c, accountId, id);
    }

    @Override
    public Optional<SourceView> source(Connection c, String accountId, String id) {
        return sources.byId(c, accountId, id);
    }
}
