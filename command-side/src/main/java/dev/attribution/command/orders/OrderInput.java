package dev.attribution.command.orders;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.attribution.api.ApiException;
import dev.attribution.api.JsonBody;
import dev.attribution.command.commerce.CommerceInput;
import dev.attribution.command.commerce.PersonFields;
import dev.attribution.command.orders.OrderCommands.OrderContent;
import dev.attribution.command.orders.OrderCommands.OrderItem;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The order body rules of spec 4.2 (items, order-level amounts, priceFormat, currency, orderId), shared by
 * {@code POST /orders} and {@code PUT /orders/{id}}, each message written once. Amounts travel in the command as
 * sent and are converted to minor units by {@link #items} and {@link #totals} once the currency is known.
 */
public final class OrderInput {

    public static final String INVALID_ORDER_ID = "Invalid orderId: only letters, digits, underscores (_), hyphens (-), "
            + "periods (.) and colons (:) are allowed, with no spaces";
    public static final String NO_ITEMS = "Missing required field: items";
    public static final String EMPTY_ITEMS = "items must contain at least one item";
    static final String ITEMS_NOT_OBJECTS = "items must be an array of objects";
    public static final List<String> ORDER_AMOUNTS = List.of("shippingCost", "taxes", "orderDiscount", "hardCost");
    private static final Pattern ORDER_ID = Pattern.compile("[A-Za-z0-9_.:-]+");
    static final int MAX_QUANTITY = 100_000;

    private OrderInput() {
    }

    /** The checked order lines of a body: {@code currency} null when not sent, amounts null when not sent. */
    record Lines(Money.Format format, String currency, BigDecimal shippingCost, BigDecimal taxes, BigDecimal orderDiscount,
                 BigDecimal hardCost, List<OrderItem> items) {
    }

    public static String orderId(String id) {
        if (id.length() > 255 || !ORDER_ID.matcher(id).matches()) {
            throw ApiException.badRequest(INVALID_ORDER_ID);
        }
        return id;
    }

    /** Items, order amounts, priceFormat and currency (validated against {@code checkCurrency}). */
    static Lines lines(OrderLines.Body body, String checkCurrency) {
        String format = body.priceFormat() == null ? Money.Format.DECIMAL.name() : body.priceFormat().name();
        String currency = checkCurrency;
        String sentCurrency = null;
        if (body.currency() != null) {
            String sent = PersonFields.nonBlank(body.currency());
            currency = sent != null ? sent.toUpperCase(java.util.Locale.ROOT) : checkCurrency;
            if (!Money.isCurrency(currency)) {
                throw ApiException.badRequest("Invalid currency: " + body.currency());
            }
            sentCurrency = currency;
        }
        List<BigDecimal> amounts = java.util.Arrays.asList(body.shippingCost(), body.taxes(), body.orderDiscount(), body.hardCost());
        for (int i = 0; i < amounts.size(); i++) {
            if (amounts.get(i) != null) {
                Money.toMinor(ORDER_AMOUNTS.get(i), amounts.get(i), format, currency);
            }
        }
        if (body.items() == null) {
            throw ApiException.badRequest(NO_ITEMS);
        }
        if (body.items().isEmpty()) {
            throw ApiException.badRequest(EMPTY_ITEMS);
        }
        List<OrderItem> out = new ArrayList<>();
        for (int i = 0; i < body.items().size(); i++) {
            out.add(item(body.items().get(i), "items[" + i + "].", format, currency));
        }
        Lines lines = new Lines(Money.Format.valueOf(format), sentCurrency, amounts.get(0), amounts.get(1), amounts.get(2),
                amounts.get(3), out);
        List<OrderSplit.Item> split = items(lines.items(), format, currency);
        if (OrderSplit.total(split, totals(lines.shippingCost(), lines.taxes(), lines.orderDiscount(), lines.hardCost(), format, currency, 0)) < 0) {
            throw ApiException.badRequest("The discounts cannot exceed the order total");
        }
        return lines;
    }

    private static OrderItem item(OrderLines.Item item, String prefix, String format, String currency) {
        String name = PersonFields.nonBlank(item.name());
        if (name == null) {
            throw ApiException.badRequest("Missing required field: " + prefix + "name");
        }
        if (name.length() < 3) {
            throw ApiException.badRequest(prefix + "name must have at least 3 characters");
        }
        if (item.price() == null) {
            throw ApiException.badRequest("Missing required field: " + prefix + "price");
        }
        List<BigDecimal> amounts = java.util.Arrays.asList(item.price(), item.costOfGoods(), item.taxes(), item.itemDiscount());
        List<String> fields = List.of("price", "costOfGoods", "taxes", "itemDiscount");
        for (int i = 0; i < amounts.size(); i++) {
            if (amounts.get(i) != null) {
                Money.toMinor(prefix + fields.get(i), amounts.get(i), format, currency);
            }
        }
        String tag = PersonFields.nonBlank(item.tag());
        if (tag != null && "@!#".indexOf(tag.charAt(0)) >= 0) {
            throw ApiException.badRequest(prefix + "tag must be a sale tag ($)");
        }
        List<String> packages = item.packages() == null || item.packages().values() == null ? List.of() : item.packages().values();
        return new OrderItem(name, amounts.get(0), amounts.get(1), amounts.get(2), amounts.get(3),
                item.quantity() == null ? 1 : item.quantity(), PersonFields.nonBlank(item.externalId()),
                PersonFields.nonBlank(item.sku()), tag, PersonFields.nonBlank(item.categoryName()),
                Boolean.TRUE.equals(item.isRebill()), packages);
    }

    /** The order's items as split input, in minor units of {@code currency}. */
    public static List<OrderSplit.Item> items(OrderContent order, String currency) {
        return items(order.items(), order.format(), currency);
    }

    private static List<OrderSplit.Item> items(List<OrderItem> items, String format, String currency) {
        List<OrderSplit.Item> out = new ArrayList<>();
        for (OrderItem item : items) {
            out.add(new OrderSplit.Item(minor("price", item.price(), format, currency), item.units(),
                    minor("costOfGoods", item.costOfGoods(), format, currency), minor("taxes", item.taxes(), format, currency),
                    minor("itemDiscount", item.itemDiscount(), format, currency)));
        }
        return out;
    }

    /** Order-level amounts; {@code storedHardCost} (minor units) when the order sends no hardCost. */
    public static OrderSplit.Totals totals(OrderContent order, String currency, long storedHardCost) {
        return totals(order.shippingCost(), order.taxes(), order.orderDiscount(), order.hardCost(), order.format(), currency,
                storedHardCost);
    }

    private static OrderSplit.Totals totals(BigDecimal shippingCost, BigDecimal taxes, BigDecimal orderDiscount,
                                            BigDecimal hardCost, String format, String currency, long storedHardCost) {
        return new OrderSplit.Totals(minor("shippingCost", shippingCost, format, currency), minor("taxes", taxes, format, currency),
                minor("orderDiscount", orderDiscount, format, currency),
                hardCost != null ? minor("hardCost", hardCost, format, currency) : storedHardCost);
    }

    /**
     * The order's content as a SHA-256 hex digest: currency, order amounts and items (every item field, amounts in
     * minor units, so {@code 10}, {@code 10.00} and INTEGER {@code 1000} are the same price). Two POSTs of one orderId
     * with the same digest are one order sent twice (docs/commerce.md "Orders"); the buyer's fields, the date, cartId
     * and externalSubscriptionId are not part of it (a retry may re-stamp them). The bytes hashed are those of the
     * versions before command records, so an order stored by them is recognised when sent again.
     */
    public static String digest(OrderContent order, String currency) {
        String format = order.format();
        ObjectNode content = JsonBody.mapper().createObjectNode().put("currency", currency);
        List<BigDecimal> amounts = java.util.Arrays.asList(order.shippingCost(), order.taxes(), order.orderDiscount(), order.hardCost());
        for (int i = 0; i < ORDER_AMOUNTS.size(); i++) {
            content.put(ORDER_AMOUNTS.get(i), minor(ORDER_AMOUNTS.get(i), amounts.get(i), format, currency));
        }
        ArrayNode items = content.putArray("items");
        for (OrderItem item : order.items()) {
            ObjectNode o = items.addObject().put("name", item.name()).put("quantity", item.units());
            o.put("price", minor("price", item.price(), format, currency));
            o.put("costOfGoods", minor("costOfGoods", item.costOfGoods(), format, currency));
            o.put("taxes", minor("taxes", item.taxes(), format, currency));
            o.put("itemDiscount", minor("itemDiscount", item.itemDiscount(), format, currency));
            o.put("externalId", item.externalId());
            o.put("sku", item.sku());
            o.put("tag", item.tag());
            o.put("categoryName", item.categoryName());
            o.put("isRebill", item.rebill());
            o.set("packages", CommerceInput.strings(item.packageNames()));
        }
        try {
            byte[] hash = java.security.MessageDigest.getInstance("SHA-256")
                    .digest(JsonBody.mapper().writeValueAsBytes(content));
            return java.util.HexFormat.of().formatHex(hash);
        } catch (java.security.NoSuchAlgorithmException | com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    static long minor(String field, BigDecimal amount, String format, String currency) {
        return amount != null ? Money.toMinor(field, amount, format, currency) : 0;
    }
}
