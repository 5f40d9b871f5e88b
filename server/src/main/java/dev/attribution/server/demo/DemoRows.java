package dev.attribution.server.demo;

import dev.attribution.command.adspend.AdHierarchy;
import dev.attribution.command.adspend.SpendImport;
import dev.attribution.command.calls.CallsTable;
import dev.attribution.command.carts.CartsTable;
import dev.attribution.command.clicks.ClicksTable;
import dev.attribution.command.leads.LeadIps;
import dev.attribution.command.leads.LeadPhones;
import dev.attribution.command.leads.LeadStages;
import dev.attribution.command.leads.LeadTags;
import dev.attribution.command.leads.LeadsTable;
import dev.attribution.command.orders.OrdersTable;
import dev.attribution.command.sales.SalesTable;
import dev.attribution.command.sources.SourcesTable;
import dev.attribution.command.subscriptions.SubscriptionsTable;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The demo seed's rows not yet written, one typed list per table, written through each table's owner class (its
 * {@code insertBulk…}, one batch per table) in foreign-key order: parents before the rows that name them.
 */
final class DemoRows {
    final List<AdHierarchy.Bulk> hierarchy = new ArrayList<>();
    final List<SourcesTable.Bulk> sources = new ArrayList<>();
    final List<SpendImport.BulkDay> spend = new ArrayList<>();
    final List<LeadStages.BulkStage> stages = new ArrayList<>();
    final List<LeadsTable.Bulk> leads = new ArrayList<>();
    final List<LeadStages.BulkEntry> stageEntries = new ArrayList<>();
    final List<LeadIps.Bulk> ips = new ArrayList<>();
    final List<LeadPhones.Bulk> phones = new ArrayList<>();
    final List<LeadTags.Bulk> tags = new ArrayList<>();
    final List<ClicksTable.Bulk> clicks = new ArrayList<>();
    final List<CallsTable.Bulk> calls = new ArrayList<>();
    final List<CartsTable.BulkCart> carts = new ArrayList<>();
    final List<CartsTable.BulkItem> cartItems = new ArrayList<>();
    final List<OrdersTable.Bulk> orders = new ArrayList<>();
    final List<SalesTable.Bulk> sales = new ArrayList<>();
    final List<SubscriptionsTable.Bulk> subscriptions = new ArrayList<>();

    private final List<List<?>> all = List.of(hierarchy, sources, spend, stages, leads, stageEntries, ips, phones, tags, clicks,
            calls, carts, cartItems, orders, sales, subscriptions);

    int pending() {
        int n = 0;
        for (List<?> rows : all) {
            n += rows.size();
        }
        return n;
    }

    /** Writes every pending row, parents first, and empties the lists. */
    void flush(Connection c) throws SQLException {
        AdHierarchy.insertBulk(c, hierarchy);
        SourcesTable.insertBulk(c, sources);
        SpendImport.insertBulk(c, spend);
        LeadStages.insertBulkStages(c, stages);
        LeadsTable.insertBulk(c, leads);
        LeadStages.insertBulkEntries(c, stageEntries);
        LeadIps.insertBulk(c, ips);
        LeadPhones.insertBulk(c, phones);
        LeadTags.insertBulk(c, tags);
        ClicksTable.insertBulk(c, clicks);
        CallsTable.insertBulk(c, calls);
        CartsTable.insertBulkCarts(c, carts);
        CartsTable.insertBulkItems(c, cartItems);
        OrdersTable.insertBulk(c, orders);
        SalesTable.insertBulk(c, sales);
        SubscriptionsTable.insertBulk(c, subscriptions);
        for (List<?> rows : all) {
            rows.clear();
        }
    }
}
