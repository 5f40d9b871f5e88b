package dev.attribution.command.orders;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.JsonBody;
import dev.attribution.api.auth.Account;
import dev.attribution.command.carts.CartsTable;
import dev.attribution.command.commerce.Categories;
import dev.attribution.command.commerce.PersonFields;
import dev.attribution.command.orders.OrderCommands.OrderContent;
import dev.attribution.command.orders.OrderCommands.OrderItem;
import dev.attribution.command.orders.OrderCommands.PlaceOrder;
import dev.attribution.command.orders.OrderCommands.UpdateOrder;
import dev.attribution.command.events.DomainEvents;
import dev.attribution.command.leads.LeadResolver;
import dev.attribution.command.products.ProductCatalog;
import dev.attribution.command.requests.CommandHandler;
import dev.attribution.command.requests.GroupWriteHandler;
import dev.attribution.command.sales.SalesTable;
import dev.attribution.command.subscriptions.SubscriptionsTable;
import dev.attribution.command.requests.WriteHandler;
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
import java.util.Map;
import java.util.Set;

/**
 * Applies orders: CREATE_ORDER (one sale per item, the lead created when absent), UPDATE_ORDER (sales soft-deleted
 * and recreated from the new items) and REFUND_ORDER (sales kept, marked refunded). Each returns the order's sales
 * in the shape of {@code GET /sales} and records {@code sale.attributed} / {@code sale.refunded}.
 */
@Singleton
public class OrderHandlers {

    public static final String ORDER_NOT_FOUND = "Order not found";
    /** Issue 22 item 8: a POST under a used orderId whose order differs from the stored one (docs/commerce.md). */
    public static final String ORDER_ID_TAKEN = "An order with orderId '%s' already exists with other items or amounts; "
            + "change it with PUT /orders/%s, or send a new orderId";

    private final LeadResolver leads;
    private final ProductCatalog products;
    private final SalesTable sales;
    private final RecordViews views;
    private final CartsTable carts;
    private final SubscriptionsTable subscriptions;
    private final OrdersTable orders;

    public OrderHandlers(LeadResolver leads, ProductCatalog products, SalesTable sales, RecordViews views, CartsTable carts,
                         SubscriptionsTable subscriptions, OrdersTable orders) {
        this.orders = orders;
        this.carts = carts;
        this.subscriptions = subscriptions;
        this.leads = leads;
        this.products = products;
        this.sales = sales;
        this.views = views;
    }

    /** CREATE_ORDER. */
    @Singleton
    static class Create implements CommandHandler<PlaceOrder>, GroupWriteHandler {
        private final OrderHandlers orders;
        private final OrderGroups groups;

        Create(OrderHandlers orders, OrderGroups groups) {
            this.orders = orders;
            this.groups = groups;
        }

        @Override
        public boolean groupable(WriteHandler.Write write) {
            return OrderGroups.groupable(write.command(PlaceOrder.class));
        }

        @Override
        public List<JsonNode> applyGroup(Connection c, List<WriteHandler.Write> writes) throws SQLException {
            return groups.apply(c, writes);
        }

        @Override
        public Class<PlaceOrder> commandType() {
            return PlaceOrder.class;
        }

        @Override
        public JsonNode handle(Connection c, Applying w, PlaceOrder order) throws SQLException {
            return orders.create(c, w, order);
        }

        @Override
        public List<String> advisoryLocks(Connection c, List<WriteHandler.Write> writes) throws SQLException {
            List<String> names = new ArrayList<>(orders.productLocks(c, writes, PlaceOrder.class));
            names.addAll(LeadResolver.lockNames(writes, w -> {
                PlaceOrder p = w.command(PlaceOrder.class);
                return java.util.Arrays.asList(p.person() == null ? null : p.person().email(), p.parentEmail());
            }));
            return names;
        }
    }

    /** UPDATE_ORDER. */
    @Singleton
    static class Update implements CommandHandler<UpdateOrder> {
        private final OrderHandlers orders;

        Update(OrderHandlers orders) {
            this.orders = orders;
        }

        @Override
        public Class<UpdateOrder> commandType() {
            return UpdateOrder.class;
        }

        @Override
        public JsonNode handle(Connection c, Applying w, UpdateOrder update) throws SQLException {
            return orders.update(c, w, update);
        }

        @Override
        public List<String> advisoryLocks(Connection c, List<WriteHandler.Write> writes) throws SQLException {
            return orders.productLocks(c, writes, UpdateOrder.class);
        }
    }

    /**
     * The creation locks of the products the orders' items name that do not exist yet ({@link ProductCatalog#forItem}
     * takes one to create a product, held to the commit), for the worker to take a batch's all at once, in one order:
     * orders of different batches creating the same products in different orders deadlocked under load. Existing
     * products take no lock, so orders naming them never wait for each other.
     */
    <C extends Record & OrderContent> List<String> productLocks(Connection c, List<WriteHandler.Write> writes, Class<C> type)
            throws SQLException {
        List<ProductCatalog.ItemRef> refs = new ArrayList<>();
        for (WriteHandler.Write write : writes) {
            try {
                for (OrderItem item : write.command(type).items()) {
                    refs.add(new ProductCatalog.ItemRef(write.account().id(), item.name(), item.tag()));
                }
            } catch (RuntimeException e) {
                // a payload that cannot be read: the write fails when applied, it takes no lock ahead
            }
        }
        return products.missingLocks(c, refs);
    }

    /** REFUND_ORDER: the order's sales kept, marked refunded; {@code refundedAmount} spread over them. */
    @Singleton
    static class Refund implements CommandHandler<RefundOrder> {
        private final OrderHandlers orders;

        Refund(OrderHandlers orders) {
            this.orders = orders;
        }

        @Override
        public Class<RefundOrder> commandType() {
            return RefundOrder.class;
        }

        @Override
        public JsonNode handle(Connection c, Applying w, RefundOrder refund) throws SQLException {
            return orders.refund(c, w, refund);
        }
    }

    JsonNode create(Connection c, CommandHandler.Applying w, PlaceOrder p) throws SQLException {
        String accountId = w.accountId();
        String orderId = p.orderId();
        String currency = p.currency() != null ? p.currency() : w.account().currency();
        if (orders.find(c, accountId, orderId).isPresent()) {
            // the same order again (a client retry) is a no-op; another order under its id is refused, never dropped
            String stored = orders.storedDigest(c, accountId, orderId);
            if (stored != null && !stored.equals(OrderInput.digest(p, currency))) {
                throw new WriteHandler.WriteFailure(String.format(ORDER_ID_TAKEN, orderId, orderId));
            }
            return render(c, w.account(), orderId);
        }
        Instant now = w.acceptedAt();
        String buyer = leads.resolve(c, accountId, PersonFields.person(p.person()), now).id();
        String attributed = p.parentEmail() != null ? leads.byEmail(c, accountId, p.parentEmail(), now).id() : buyer;
        if (!attributed.equals(buyer)) {
            leads.assignOrigin(c, w.account(), buyer, attributed, now);
        }
        return createFor(c, w.account(), now, p, buyer, attributed);
    }

    /** Places {@code p} for known leads: the buyer and the lead the sales are attributed to. */
    JsonNode createFor(Connection c, Account account, Instant now, PlaceOrder p, String buyer, String attributed) throws SQLException {
        String accountId = account.id();
        String orderId = p.orderId();
        String currency = p.currency() != null ? p.currency() : account.currency();
        Instant date = p.date() != null ? Instant.parse(p.date()) : now;
        OrderSplit.Totals totals = OrderInput.totals(p, currency, 0);
        orders.insert(c, accountId, newOrder(p, buyer, currency, date, totals), now);
        List<String> created = placeSales(c, accountId, now, orderId, attributed, buyer, p, currency, date, totals);
        afterSales(c, accountId, now, orderId, p.cartId(), p.externalSubscriptionId());
        return renderWithEvents(c, account, orderId, created, now);
    }

    /**
     * The order's live sales rendered once ({@link RecordViews#orderSales}, the write's result) and a
     * {@code sale.attributed} event for each of {@code created} among them, in the order of {@link RecordViews#sales}
     * (sale date, then id: all of them share the order's date). One read instead of two (issue 23 point 3).
     */
    JsonNode renderWithEvents(Connection c, Account account, String orderId, List<String> created, Instant now)
            throws SQLException {
        List<DomainEvents.Event> events = new ArrayList<>();
        JsonNode result = withEvents(account, views.orderSales(c, account.id(), account.timeZone(), orderId), created, now, events);
        DomainEvents.recordAll(c, events);
        return result;
    }

    /**
     * The live sales of each order of one account as {@link #renderWithEvents} reads them, read together
     * ({@link RecordViews#ordersSales}: one read and one lead embed for a group of orders, issue 23 point 3).
     */
    Map<String, List<SaleView>> rendered(Connection c, Account account, List<String> orderIds) {
        return views.ordersSales(c, account.id(), account.timeZone(), orderIds);
    }

    /**
     * The result of an order whose live sales are {@code rendered}; a {@code sale.attributed} event for each of
     * {@code created} among them is added to {@code events} (in sale id order), for the caller to record.
     */
    static JsonNode withEvents(Account account, List<SaleView> rendered, List<String> created, Instant now,
                               List<DomainEvents.Event> events) {
        Set<String> createdIds = new java.util.HashSet<>(created);
        com.fasterxml.jackson.databind.node.ArrayNode result = JsonBody.mapper().createArrayNode();
        java.util.TreeMap<String, JsonNode> attributed = new java.util.TreeMap<>(); // sale ids share one shape: ordered as PostgreSQL does
        for (SaleView sale : rendered) {
            JsonNode tree = JsonBody.mapper().valueToTree(sale);
            result.add(tree);
            if (createdIds.contains(sale.id())) {
                attributed.put(sale.id(), tree);
            }
        }
        attributed.forEach((id, tree) -> events.add(new DomainEvents.Event(account.id(), "sale.attributed", id, tree, now)));
        return result;
    }

    /** The row of a new order. */
    static OrdersTable.NewOrder newOrder(PlaceOrder p, String buyer, String currency, Instant date, OrderSplit.Totals totals) {
        return new OrdersTable.NewOrder(p.orderId(), buyer, p.cartId(), p.externalSubscriptionId(), currency,
                date, Money.toDecimal(totals.shippingCost(), currency), Money.toDecimal(totals.taxes(), currency),
                Money.toDecimal(totals.orderDiscount(), currency), Money.toDecimal(totals.hardCost(), currency),
                OrderInput.digest(p, currency));
    }

    JsonNode update(Connection c, CommandHandler.Applying w, UpdateOrder p) throws SQLException {
        String accountId = w.accountId();
        Instant now = w.acceptedAt();
        OrdersTable.Order order = orders.resolve(c, accountId, p.id(), p.integrationType())
                .orElseThrow(() -> new WriteHandler.WriteFailure(ORDER_NOT_FOUND));
        String attributed = orders.attributedLead(c, accountId, order);
        String currency = p.currency() != null ? p.currency() : order.currency();
        OrderSplit.Totals totals = OrderInput.totals(p, currency, Money.fromDecimal(order.hardCost(), currency));
        List<String> affected = sales.deleteOrderSales(c, accountId, order.id(), now);
        orders.update(c, accountId, order.id(), currency, Money.toDecimal(totals.shippingCost(), currency),
                Money.toDecimal(totals.taxes(), currency), Money.toDecimal(totals.orderDiscount(), currency),
                Money.toDecimal(totals.hardCost(), currency), p.cartId(), p.externalSubscriptionId(), now);
        if (p.stage() != null) {
            leads.applyStage(c, accountId, order.leadId(), p.stage(), now);
        }
        List<String> created = placeSales(c, accountId, now, order.id(), attributed, order.leadId(), p, currency, order.date(), totals);
        for (String lead : affected) {
            sales.refreshFlags(c, accountId, lead, now);
        }
        afterSales(c, accountId, now, order.id(), p.cartId(), p.externalSubscriptionId());
        return renderWithEvents(c, w.account(), order.id(), created, now);
    }

    JsonNode refund(Connection c, CommandHandler.Applying w, RefundOrder r) throws SQLException {
        String accountId = w.accountId();
        Instant now = w.acceptedAt();
        OrdersTable.Order order = orders.find(c, accountId, r.id()).orElseThrow(() -> new WriteHandler.WriteFailure(ORDER_NOT_FOUND));
        List<String> ids = new ArrayList<>();
        List<Long> prices = new ArrayList<>();
        Set<String> alreadyRefunded = new java.util.HashSet<>();
        for (SalesTable.OrderSale sale : sales.orderSales(c, accountId, order.id())) {
            ids.add(sale.id());
            prices.add(Math.max(0, Money.fromDecimal(sale.price(), order.currency())));
            if (sale.refunded()) {
                alreadyRefunded.add(sale.id());
            }
        }
        if (ids.isEmpty()) {
            throw new WriteHandler.WriteFailure(ORDER_NOT_FOUND);
        }
        long[] refunded = prices.stream().mapToLong(Long::longValue).toArray();
        if (r.refundedAmount() != null) {
            long amount = Refunds.checked(Money.toMinor("refundedAmount", r.refundedAmount(), "DECIMAL",
                    order.currency()), prices.stream().mapToLong(Long::longValue).sum(), "order");
            refunded = OrderSplit.allocate(amount, refunded);
        }
        List<BigDecimal> amounts = new ArrayList<>();
        for (long minor : refunded) {
            amounts.add(Money.toDecimal(minor, order.currency()));
        }
        sales.refundAll(c, accountId, ids, amounts, now);
        orders.markRefunded(c, accountId, order.id(), now);
        for (SaleView sale : views.sales(c, accountId, w.account().timeZone(), ids)) {
            if (!alreadyRefunded.contains(sale.id())) {
                DomainEvents.record(c, accountId, "sale.refunded", sale.id(), JsonBody.mapper().valueToTree(sale), now);
            }
        }
        return render(c, w.account(), order.id());
    }

    /** Inserts one sale per item of the order; returns their ids in item order. */
    private List<String> placeSales(Connection c, String accountId, Instant now, String orderId, String attributed, String buyer,
                                    OrderContent p, String currency, Instant date, OrderSplit.Totals totals) throws SQLException {
        List<String> ids = sales.insertAll(c, accountId, newSales(c, accountId, now, orderId, attributed, buyer, p, currency, date, totals), now);
        sales.refreshFlags(c, accountId, attributed, now);
        return ids;
    }

    /** The sales of the order's items, their products found (created when absent), not inserted yet. */
    List<SalesTable.NewSale> newSales(Connection c, String accountId, Instant now, String orderId, String attributed, String buyer,
                                      OrderContent p, String currency, Instant date, OrderSplit.Totals totals) throws SQLException {
        return newSales(c, accountId, now, orderId, attributed, buyer, p, currency, date, totals, new java.util.HashMap<>());
    }

    /**
     * As above; {@code found} holds the products found so far by account, tag or name (a group of orders looks each
     * product up once: found or created by its first order, the next ones find that same row).
     */
    List<SalesTable.NewSale> newSales(Connection c, String accountId, Instant now, String orderId, String attributed, String buyer,
                                      OrderContent p, String currency, Instant date, OrderSplit.Totals totals,
                                      Map<String, ProductCatalog.Product> found) throws SQLException {
        List<OrderSplit.Item> items = OrderInput.items(p, currency);
        List<OrderSplit.Part> parts = OrderSplit.split(items, totals);
        List<SalesTable.NewSale> newSales = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            OrderItem item = p.items().get(i);
            OrderSplit.Item amounts = items.get(i);
            OrderSplit.Part part = parts.get(i);
            List<String> packages = item.packageNames();
            String name = item.name();
            String key = accountId + (item.tag() != null ? "\u0000t\u0000" + item.tag() : "\u0000n\u0000" + name);
            ProductCatalog.Product product = found.get(key);
            if (product == null) {
                product = products.forItem(c, accountId, name, item.tag(), item.sku(),
                        Money.toDecimal(amounts.unitPrice(), currency), item.categoryName(), packages, now);
                found.put(key, product);
            }
            String categoryName = item.categoryName();
            String categoryId = categoryName != null ? Categories.idFor(c, accountId, categoryName, now) : product.categoryId();
            if (categoryName == null) {
                categoryName = Categories.nameOf(c, accountId, categoryId);
            }
            long costOfGoods = item.costOfGoods() != null || product.customCost() == null ? part.costOfGoods()
                    : Math.multiplyExact(Money.fromDecimal(product.customCost(), currency), amounts.quantity());
            boolean recurring = item.rebill() || (product.recurring() && sales.boughtBefore(c, accountId, attributed, product, date));
            Set<String> allPackages = new LinkedHashSet<>(packages);
            allPackages.addAll(product.packages());
            newSales.add(new SalesTable.NewSale(orderId, attributed, buyer, product, name,
                    item.sku() != null ? item.sku() : product.sku(), item.externalId(), categoryId, categoryName,
                    List.copyOf(allPackages), i, amounts.quantity(), Money.toDecimal(amounts.unitPrice(), currency),
                    Money.toDecimal(part.price(), currency), Money.toDecimal(part.discount(), currency),
                    Money.toDecimal(part.taxes(), currency),
                    Money.toDecimal(part.shipping(), currency), Money.toDecimal(part.hardCost(), currency),
                    Money.toDecimal(costOfGoods, currency), currency, recurring, date));
        }
        return newSales;
    }

    /** The cart the order names becomes purchased; the subscription it names gets its category at the first paid sale. */
    private void afterSales(Connection c, String accountId, Instant now, String orderId, String cartId, String subscription)
            throws SQLException {
        if (cartId != null) {
            carts.markPurchased(c, accountId, cartId, orderId, now);
        }
        if (subscription != null) {
            subscriptions.categoryFromOrder(c, accountId, subscription, orderId, now);
        }
    }

    private JsonNode render(Connection c, Account account, String orderId) {
        return JsonBody.mapper().valueToTree(views.orderSales(c, account.id(), account.timeZone(), orderId));
    }
}
