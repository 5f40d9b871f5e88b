package dev.attribution.views;

import java.sql.Connection;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The port through which the write side renders what it wrote in its GET shape: a write's result (spec 2.20) and the
 * record carried by an outbox event (spec 6) are the record as its {@code GET} returns it. Each method reads on the
 * caller's connection, inside the write's transaction, so it sees the rows just written; a record that is not there
 * (missing, deleted, erased) is left out.
 *
 * <p>The query side implements it (its PostgreSQL readers are the one definition of each GET shape); the write side
 * depends only on this interface and the view records of this package, never on the read module.
 */
public interface RecordViews {

    /** Leads as {@code GET /leads} renders them, in the order of {@code ids}. */
    List<LeadView> leads(Connection c, String accountId, ZoneId zone, List<String> ids);

    /** Live sales as {@code GET /sales} renders them, by sale date. */
    List<SaleView> sales(Connection c, String accountId, ZoneId zone, List<String> ids);

    /** The live sales of an order, in item order (the result of the order writes). */
    List<SaleView> orderSales(Connection c, String accountId, ZoneId zone, String orderId);

    /** The live sales of each order, each in item order as {@link #orderSales} renders them (one read for them all). */
    Map<String, List<SaleView>> ordersSales(Connection c, String accountId, ZoneId zone, List<String> orderIds);

    /** Calls as {@code GET /calls} renders them. */
    List<CallView> calls(Connection c, String accountId, ZoneId zone, List<String> ids);

    /** Subscriptions as {@code GET /subscriptions} renders them. */
    List<SubscriptionView> subscriptions(Connection c, String accountId, ZoneId zone, List<String> ids);

    /** A cart as {@code GET /carts} renders it (one item, or none). */
    List<CartView> cart(Connection c, String accountId, ZoneId zone, String cartId);

    /** A click as {@code GET /leads/clicks} renders it. */
    Optional<ClickView> click(Connection c, String accountId, ZoneId zone, String clickId);

    /** Clicks by id as {@code GET /leads/clicks} renders them (one read for them all); absent ids are left out. */
    Map<String, ClickView> clicks(Connection c, String accountId, ZoneId zone, List<String> clickIds);

    /** A custom cost as {@code GET /custom-costs} renders it. */
    Optional<CustomCostView> customCost(Connection c, String accountId, String id);

    /** A live product as {@code GET /products} renders it. */
    Optional<ProductView> product(Connection c, String accountId, String id);

    /** A live source as {@code GET /sources} renders it. */
    Optional<SourceView> source(Connection c, String accountId, String id);
}
