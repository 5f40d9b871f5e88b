package dev.attribution.command.orders;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.attribution.api.JsonBody;
import dev.attribution.command.commerce.Categories;
import dev.attribution.command.commerce.CommerceInput;
import dev.attribution.command.events.DomainEvents;
import dev.attribution.command.leads.LeadResolver;
import dev.attribution.command.products.ProductCatalog;
import dev.attribution.command.requests.DelegatingWriteHandler;
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
import java.util.Optional;
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

    /** A stored order. */
    record Order(String id, String leadId, String currency, Instant date, BigDecimal hardCost) {
    }

    private final LeadResolver leads;
    private final ProductCatalog products;
    private final SaleStore sales;
    private final RecordViews views;

    public OrderHandlers(LeadResolver leads, ProductCatalog products, SaleStore sales, RecordViews views) {
        this.leads = leads;
        this.products = products;
        this.sales = sales;
        this.views = views;
    }

    @Singleton
    static class Create extends DelegatingWriteHandler {
        Create(OrderHandlers orders) {
            super("CREATE_ORDER", orders::create);
        }

        @Override
        public List<String> advisoryLocks(WriteHandler.Write write) {
            return productLocks(write);
        }
    }

    @Singleton
    static class Update extends DelegatingWriteHandler {
        Update(OrderHandlers orders) {
            super("UPDATE_ORDER", orders::update);
        }

        @Override
        public List<String> advisoryLocks(WriteHandler.Write write) {
            return productLocks(write);
        }
    }

    /**
     * The product locks the order's items take ({@link ProductCatalog#forItem}: one per product tag, held to the
     * commit), for the worker to take a batch's all at once, in one order: orders of different batches naming the
     * same products in different orders deadlocked under load.
     */
    static List<String> productLocks(WriteHandler.Write write) {
        List<String> names = new ArrayList<>();
        for (JsonNode item : write.payload().path("items")) {
            String tag = CommerceInput.text(item, "tag");
            String key = tag != null ? ProductCatalog.saleTag(tag) : ProductCatalog.deriveTag(item.path("name").asText());
            names.add("product:" + write.account().id() + ":" + key.toLowerCase(java.util.Locale.ROOT));
        }
        return names;
    }

    @Singleton
    static class Refund extends DelegatingWriteHandler {
        Refund(OrderHandlers orders) {
            super("REFUND_ORDER", orders::refund);
        }
    }

    JsonNode create(Connection c, WriteHandler.Write w) throws SQLException {
        JsonNode p = w.payload();
        String accountId = w.account().id();
        String orderId = p.get("orderId").asText();
        if (find(c, accountId, orderId).isPresent()) {
            // the same order again (a client retry) is a no-op; another order under its id is refused, never dropped
            String stored = storedDigest(c, accountId, orderId);
            if (stored != null && !stored.equals(OrderInput.digest(p, currency(w)))) {
                throw new WriteHandler.WriteFailure(String.format(ORDER_ID_TAKEN, orderId, orderId));
            }
            return render(c, w, orderId);
        }
        Instant now = w.acceptedAt();
        String buyer = leads.resolve(c, accountId, CommerceInput.person(p), now).id();
        String attributed = p.hasNonNull("parentEmail") ? leads.byEmail(c, accountId, p.get("parentEmail").asText(), now).id() : buyer;
        if (!attributed.equals(buyer)) {
            leads.assignOrigin(c, w.account(), buyer, attributed, now);
        }
        return createFor(c, w, orderId, buyer, attributed);
    }

    /** Places the order of {@code w}'s payload for known leads: the buyer and the lead the sales are attributed to. */
    JsonNode createFor(Connection c, WriteHandler.Write w, String orderId, String buyer, String attributed) throws SQLException {
        JsonNode p = w.payload();
        String accountId = w.account().id();
        Instant now = w.acceptedAt();
        String currency = currency(w);
        Instant date = p.hasNonNull("date") ? Instant.parse(p.get("date").asText()) : now;
        OrderSplit.Totals totals = OrderInput.totals(p, currency, 0);
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO orders (account_id, id, lead_id, cart_id, external_subscription_id, currency, order_date,
                    shipping_cost, taxes, order_discount, hard_cost, created_at, updated_at, content_digest)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""")) {
            ps.setString(1, accountId);
            ps.setString(2, orderId);
            ps.setString(3, buyer);
            ps.setString(4, CommerceInput.text(p, "cartId"));
            ps.setString(5, CommerceInput.text(p, "externalSubscriptionId"));
            ps.setString(6, currency);
            ps.setTimestamp(7, Timestamp.from(date));
            setTotals(ps, 8, totals, currency);
            ps.setTimestamp(12, Timestamp.from(now));
            ps.setTimestamp(13, Timestamp.from(now));
            ps.setString(14, OrderInput.digest(p, currency));
            ps.executeUpdate();
        }
        List<String> created = placeSales(c, w, orderId, attributed, buyer, p, currency, date, totals);
        afterSales(c, w, orderId, attributed, p, currency);
        List<SaleView> rendered = views.sales(c, accountId, w.account().timeZone(), created);
        for (SaleView sale : rendered) {
            DomainEvents.record(c, accountId, "sale.attributed", sale.id(), JsonBody.mapper().valueToTree(sale), now);
        }
        return render(c, w, orderId);
    }

    JsonNode update(Connection c, WriteHandler.Write w) throws SQLException {
        JsonNode p = w.payload();
        String accountId = w.account().id();
        Instant now = w.acceptedAt();
        Order order = resolve(c, accountId, p.get("id").asText(), CommerceInput.text(p, "integrationType"))
                .orElseThrow(() -> new WriteHandler.WriteFailure(ORDER_NOT_FOUND));
        String attributed = attributedLead(c, accountId, order);
        String currency = p.hasNonNull("currency") ? p.get("currency").asText() : order.currency();
        OrderSplit.Totals totals = OrderInput.totals(p, currency, Money.fromDecimal(order.hardCost(), currency));
        List<String> affected = sales.deleteOrderSales(c, accountId, order.id(), now);
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE orders SET currency = ?, shipping_cost = ?, taxes = ?, order_discount = ?, hard_cost = ?,
                    cart_id = COALESCE(?, cart_id), external_subscription_id = COALESCE(?, external_subscription_id), updated_at = ?
                WHERE account_id = ? AND id = ?""")) {
            ps.setString(1, currency);
            setTotals(ps, 2, totals, currency);
            ps.setString(6, CommerceInput.text(p, "cartId"));
            ps.setString(7, CommerceInput.text(p, "externalSubscriptionId"));
            ps.setTimestamp(8, Timestamp.from(now));
            ps.setString(9, accountId);
            ps.setString(10, order.id());
            ps.executeUpdate();
        }
        if (p.hasNonNull("stage")) {
            leads.applyStage(c, accountId, order.leadId(), p.get("stage").asText(), now);
        }
        List<String> created = placeSales(c, w, order.id(), attributed, order.leadId(), p, currency, order.date(), totals);
        for (String lead : affected) {
            sales.refreshFlags(c, accountId, lead, now);
        }
        afterSales(c, w, order.id(), attributed, p, currency);
        for (SaleView sale : views.sales(c, accountId, w.account().timeZone(), created)) {
            DomainEvents.record(c, accountId, "sale.attributed", sale.id(), JsonBody.mapper().valueToTree(sale), now);
        }
        return render(c, w, order.id());
    }

    JsonNode refund(Connection c, WriteHandler.Write w) throws SQLException {
        JsonNode p = w.payload();
        String accountId = w.account().id();
        Instant now = w.acceptedAt();
        Order order = find(c, accountId, p.get("id").asText()).orElseThrow(() -> new WriteHandler.WriteFailure(ORDER_NOT_FOUND));
        List<String> ids = new ArrayList<>();
        List<Long> prices = new ArrayList<>();
        Set<String> alreadyRefunded = new java.util.HashSet<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT id, price, refunded FROM sales WHERE account_id = ? AND order_id = ? AND NOT deleted ORDER BY position, id")) {
            ps.setString(1, accountId);
            ps.setString(2, order.id());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getString(1));
                    prices.add(Math.max(0, Money.fromDecimal(rs.getBigDecimal(2), order.currency())));
                    if (rs.getBoolean(3)) {
                        alreadyRefunded.add(rs.getString(1));
                    }
                }
            }
        }
        if (ids.isEmpty()) {
            throw new WriteHandler.WriteFailure(ORDER_NOT_FOUND);
        }
        long[] refunded = prices.stream().mapToLong(Long::longValue).toArray();
        if (p.hasNonNull("refundedAmount")) {
            long amount = Refunds.checked(Money.toMinor("refundedAmount", new BigDecimal(p.get("refundedAmount").asText()), "DECIMAL",
                    order.currency()), prices.stream().mapToLong(Long::longValue).sum(), "order");
            refunded = OrderSplit.allocate(amount, refunded);
        }
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE sales SET refunded = true, refund_date = ?, refunded_amount = ?, updated_at = ?
                WHERE account_id = ? AND id = ?""")) {
            for (int i = 0; i < ids.size(); i++) {
                ps.setTimestamp(1, Timestamp.from(now));
                ps.setBigDecimal(2, Money.toDecimal(refunded[i], order.currency()));
                ps.setTimestamp(3, Timestamp.from(now));
                ps.setString(4, accountId);
                ps.setString(5, ids.get(i));
                ps.addBatch();
            }
            ps.executeBatch();
        }
        try (PreparedStatement ps = c.prepareStatement("UPDATE orders SET refunded_at = ?, updated_at = ? WHERE account_id = ? AND id = ?")) {
            ps.setTimestamp(1, Timestamp.from(now));
            ps.setTimestamp(2, Timestamp.from(now));
            ps.setString(3, accountId);
            ps.setString(4, order.id());
            ps.executeUpdate();
        }
        for (SaleView sale : views.sales(c, accountId, w.account().timeZone(), ids)) {
            if (!alreadyRefunded.contains(sale.id())) {
                DomainEvents.record(c, accountId, "sale.refunded", sale.id(), JsonBody.mapper().valueToTree(sale), now);
            }
        }
        return render(c, w, order.id());
    }

    /** Inserts one sale per item of the payload; returns their ids in item order. */
    private List<String> placeSales(Connection c, WriteHandler.Write w, String orderId, String attributed, String buyer,
                                    JsonNode p, String currency, Instant date, OrderSplit.Totals totals) throws SQLException {
        String accountId = w.account().id();
        Instant now = w.acceptedAt();
        List<OrderSplit.Item> items = OrderInput.items(p, currency);
        List<OrderSplit.Part> parts = OrderSplit.split(items, totals);
        List<SaleStore.NewSale> newSales = new ArrayList<>(items.size());
        ArrayNode payloadItems = (ArrayNode) p.get("items");
        for (int i = 0; i < items.size(); i++) {
            JsonNode item = payloadItems.get(i);
            OrderSplit.Item amounts = items.get(i);
            OrderSplit.Part part = parts.get(i);
            List<String> packages = CommerceInput.texts(item.get("packages"));
            String name = item.get("name").asText();
            ProductCatalog.Product product = products.forItem(c, accountId, name, CommerceInput.text(item, "tag"),
                    CommerceInput.text(item, "sku"), Money.toDecimal(amounts.unitPrice(), currency),
                    CommerceInput.text(item, "categoryName"), packages, now);
            String categoryName = CommerceInput.text(item, "categoryName");
            String categoryId = categoryName != null ? Categories.idFor(c, accountId, categoryName, now) : product.categoryId();
            if (categoryName == null) {
                categoryName = Categories.nameOf(c, accountId, categoryId);
            }
            long costOfGoods = item.hasNonNull("costOfGoods") || product.customCost() == null ? part.costOfGoods()
                    : Math.multiplyExact(Money.fromDecimal(product.customCost(), currency), amounts.quantity());
            boolean recurring = item.path("isRebill").asBoolean(false)
                    || (product.recurring() && sales.boughtBefore(c, accountId, attributed, product, date));
            Set<String> allPackages = new LinkedHashSet<>(packages);
            allPackages.addAll(product.packages());
            newSales.add(new SaleStore.NewSale(orderId, attributed, buyer, product, name,
                    CommerceInput.text(item, "sku") != null ? CommerceInput.text(item, "sku") : product.sku(),
                    CommerceInput.text(item, "externalId"), categoryId, categoryName, List.copyOf(allPackages), i,
                    amounts.quantity(), Money.toDecimal(amounts.unitPrice(), currency), Money.toDecimal(part.price(), currency),
                    Money.toDecimal(part.discount(), currency), Money.toDecimal(part.taxes(), currency),
                    Money.toDecimal(part.shipping(), currency), Money.toDecimal(part.hardCost(), currency),
                    Money.toDecimal(costOfGoods, currency), currency, recurring, date));
        }
        List<String> ids = sales.insertAll(c, accountId, newSales, now);
        sales.refreshFlags(c, accountId, attributed, now);
        return ids;
    }

    /** The cart the order names becomes purchased; the subscription it names gets its category at the first paid sale. */
    private void afterSales(Connection c, WriteHandler.Write w, String orderId, String attributed, JsonNode p, String currency)
            throws SQLException {
        String accountId = w.account().id();
        Timestamp now = Timestamp.from(w.acceptedAt());
        if (p.hasNonNull("cartId")) {
            try (PreparedStatement ps = c.prepareStatement(
                    "UPDATE carts SET order_id = ?, updated_at = ? WHERE account_id = ? AND id = ? AND order_id IS NULL")) {
                ps.setString(1, orderId);
                ps.setTimestamp(2, now);
                ps.setString(3, accountId);
                ps.setString(4, p.get("cartId").asText());
                ps.executeUpdate();
            }
        }
        if (p.hasNonNull("externalSubscriptionId")) {
            try (PreparedStatement ps = c.prepareStatement("""
                    UPDATE subscriptions u SET category_id = s.category_id, category_name = s.category_name, updated_at = ?
                    FROM (SELECT category_id, category_name FROM sales WHERE account_id = ? AND order_id = ? AND NOT deleted
                          AND price > 0 AND category_id IS NOT NULL ORDER BY position LIMIT 1) s
                    WHERE u.account_id = ? AND (u.external_id = ? OR u.id = ?) AND u.category_id IS NULL""")) {
                String sub = p.get("externalSubscriptionId").asText();
                ps.setTimestamp(1, now);
                ps.setString(2, accountId);
                ps.setString(3, orderId);
                ps.setString(4, accountId);
                ps.setString(5, sub);
                ps.setString(6, sub);
                ps.executeUpdate();
            }
        }
    }

    private JsonNode render(Connection c, WriteHandler.Write w, String orderId) {
        return JsonBody.mapper().valueToTree(views.orderSales(c, w.account().id(), w.account().timeZone(), orderId));
    }

    private static void setTotals(PreparedStatement ps, int from, OrderSplit.Totals t, String currency) throws SQLException {
        ps.setBigDecimal(from, Money.toDecimal(t.shippingCost(), currency));
        ps.setBigDecimal(from + 1, Money.toDecimal(t.taxes(), currency));
        ps.setBigDecimal(from + 2, Money.toDecimal(t.orderDiscount(), currency));
        ps.setBigDecimal(from + 3, Money.toDecimal(t.hardCost(), currency));
    }

    private static String currency(WriteHandler.Write w) {
        return w.payload().hasNonNull("currency") ? w.payload().get("currency").asText() : w.account().currency();
    }

    private static String storedDigest(Connection c, String accountId, String orderId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT content_digest FROM orders WHERE account_id = ? AND id = ?")) {
            ps.setString(1, accountId);
            ps.setString(2, orderId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    static Optional<Order> find(Connection c, String accountId, String id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT id, lead_id, currency, order_date, hard_cost FROM orders WHERE account_id = ? AND id = ?")) {
            ps.setString(1, accountId);
            ps.setString(2, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(new Order(rs.getString(1), rs.getString(2), rs.getString(3).trim(),
                        rs.getTimestamp(4).toInstant(), rs.getBigDecimal(5))) : Optional.empty();
            }
        }
    }

    /** The order by id; with {@code integrationType}, through the live sale of that integration whose item externalId is {@code id}. */
    private static Optional<Order> resolve(Connection c, String accountId, String id, String integrationType) throws SQLException {
        if (integrationType == null) {
            return find(c, accountId, id);
        }
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT s.order_id FROM sales s JOIN orders o ON o.account_id = s.account_id AND o.id = s.order_id
                WHERE s.account_id = ? AND s.external_id = ? AND upper(o.integration_type) = upper(?) AND NOT s.deleted
                ORDER BY s.created_at DESC LIMIT 1""")) {
            ps.setString(1, accountId);
            ps.setString(2, id);
            ps.setString(3, integrationType);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? find(c, accountId, rs.getString(1)) : Optional.empty();
            }
        }
    }

    private static String attributedLead(Connection c, String accountId, Order order) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT lead_id FROM sales WHERE account_id = ? AND order_id = ? ORDER BY created_at DESC LIMIT 1")) {
            ps.setString(1, accountId);
            ps.setString(2, order.id());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : order.leadId();
            }
        }
    }
}
