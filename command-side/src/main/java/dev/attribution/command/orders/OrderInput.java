package dev.attribution.command.orders;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.attribution.api.ApiException;
import dev.attribution.api.FixedSet;
import dev.attribution.api.JsonBody;
import dev.attribution.command.commerce.CommerceInput;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The order body rules of spec 4.2 (items, order-level amounts, priceFormat, currency, orderId), shared by
 * {@code POST /orders} and {@code PUT /orders/{id}}. Amounts travel in the payload as the decimal text sent and
 * are converted to minor units by {@link #items} and {@link #minor} once the currency is known.
 */
public final class OrderInput {

    public static final String INVALID_ORDER_ID = "Invalid orderId: only letters, digits, underscores (_), hyphens (-), "
            + "periods (.) and colons (:) are allowed, with no spaces";
    public static final String NO_ITEMS = "Missing required field: items";
    public static final String EMPTY_ITEMS = "items must contain at least one item";
    public static final List<String> ORDER_AMOUNTS = List.of("shippingCost", "taxes", "orderDiscount", "hardCost");
    private static final Pattern ORDER_ID = Pattern.compile("[A-Za-z0-9_.:-]+");
    private static final int MAX_QUANTITY = 100_000;

    private OrderInput() {
    }

    public static String orderId(String id) {
        if (id.length() > 255 || !ORDER_ID.matcher(id).matches()) {
            throw ApiException.badRequest(INVALID_ORDER_ID);
        }
        return id;
    }

    /** Copies items, order amounts, priceFormat and currency (validated against {@code checkCurrency}). */
    public static void copyOrder(JsonBody body, ObjectNode payload, String checkCurrency) {
        String format = body.nonBlankString("priceFormat").map(v -> FixedSet.require("priceFormat", v, Money.FORMATS)).orElse("DECIMAL");
        payload.put("priceFormat", format);
        String currency = checkCurrency;
        if (body.present("currency")) {
            currency = body.nonBlankString("currency").map(c -> c.toUpperCase(java.util.Locale.ROOT)).orElse(checkCurrency);
            if (!Money.isCurrency(currency)) {
                throw ApiException.badRequest("Invalid currency: " + body.string("currency").orElse(""));
            }
            payload.put("currency", currency);
        }
        for (String field : ORDER_AMOUNTS) {
            if (body.present(field)) {
                BigDecimal v = body.decimal(field).orElseThrow();
                Money.toMinor(field, v, format, currency);
                payload.put(field, v.toPlainString());
            }
        }
        JsonNode items = body.node().get("items");
        if (items == null || items.isNull()) {
            throw ApiException.badRequest(NO_ITEMS);
        }
        if (!items.isArray()) {
            throw ApiException.badRequest("items must be an array of objects");
        }
        if (items.isEmpty()) {
            throw ApiException.badRequest(EMPTY_ITEMS);
        }
        ArrayNode out = payload.putArray("items");
        for (int i = 0; i < items.size(); i++) {
            if (!items.get(i).isObject()) {
                throw ApiException.badRequest("items must be an array of objects");
            }
            out.add(item(JsonBody.of((ObjectNode) items.get(i)), "items[" + i + "].", format, currency));
        }
        List<OrderSplit.Item> split = items(payload, currency);
        if (OrderSplit.total(split, totals(payload, currency, 0)) < 0) {
            throw ApiException.badRequest("The discounts cannot exceed the order total");
        }
    }

    private static ObjectNode item(JsonBody item, String prefix, String format, String currency) {
        ObjectNode out = JsonBody.mapper().createObjectNode();
        out.put("name", itemName(item, prefix));
        if (!item.present("price")) {
            throw ApiException.badRequest("Missing required field: " + prefix + "price");
        }
        for (String field : List.of("price", "costOfGoods", "taxes", "itemDiscount")) {
            BigDecimal v = number(item, prefix, field);
            if (v != null) {
                Money.toMinor(prefix + field, v, format, currency);
                out.put(field, v.toPlainString());
            }
        }
        BigDecimal quantity = number(item, prefix, "quantity");
        if (quantity != null && (quantity.stripTrailingZeros().scale() > 0 || quantity.signum() <= 0
                || quantity.compareTo(BigDecimal.valueOf(MAX_QUANTITY)) > 0)) {
            throw ApiException.badRequest(prefix + "quantity must be a whole number between 1 and " + MAX_QUANTITY);
        }
        out.put("quantity", quantity == null ? 1 : quantity.intValueExact());
        for (String field : List.of("externalId", "sku", "tag", "categoryName")) {
            stringField(item, prefix, field).ifPresent(v -> out.put(field, v));
        }
        if (out.has("tag") && "@!#".indexOf(out.get("tag").asText().charAt(0)) >= 0) {
            throw ApiException.badRequest(prefix + "tag must be a sale tag ($)");
        }
        try {
            out.put("isRebill", item.bool("isRebill").orElse(false));
            out.set("packages", CommerceInput.strings(item.stringOrList("packages").orElse(List.of())));
        } catch (ApiException e) {
            throw ApiException.badRequest(prefix + e.messages().get(0));
        }
        return out;
    }

    /** An item name: required, at least 3 characters (as for products, spec 4.6). */
    public static String itemName(JsonBody item, String prefix) {
        String name;
        try {
            name = item.nonBlankString("name").orElseThrow(() -> ApiException.badRequest("Missing required field: " + prefix + "name"));
        } catch (ApiException e) {
            if (e.messages().get(0).startsWith("Missing")) {
                throw e;
            }
            throw ApiException.badRequest(prefix + "name must be a string");
        }
        if (name.length() < 3) {
            throw ApiException.badRequest(prefix + "name must have at least 3 characters");
        }
        return name;
    }

    private static BigDecimal number(JsonBody item, String prefix, String field) {
        try {
            return item.decimal(field).orElse(null);
        } catch (ApiException e) {
            throw ApiException.badRequest(prefix + field + " must be a number");
        }
    }

    private static java.util.Optional<String> stringField(JsonBody item, String prefix, String field) {
        try {
            return item.nonBlankString(field);
        } catch (ApiException e) {
            throw ApiException.badRequest(prefix + field + " must be a string");
        }
    }

    /** The payload's items as split input, in minor units of {@code currency}. */
    public static List<OrderSplit.Item> items(JsonNode payload, String currency) {
        String format = payload.path("priceFormat").asText("DECIMAL");
        List<OrderSplit.Item> out = new ArrayList<>();
        for (JsonNode item : payload.get("items")) {
            out.add(new OrderSplit.Item(minor(item, "price", format, currency), item.path("quantity").asInt(1),
                    minor(item, "costOfGoods", format, currency), minor(item, "taxes", format, currency),
                    minor(item, "itemDiscount", format, currency)));
        }
        return out;
    }

    /** Order-level amounts; {@code storedHardCost} (minor units) when the payload has no hardCost. */
    public static OrderSplit.Totals totals(JsonNode payload, String currency, long storedHardCost) {
        String format = payload.path("priceFormat").asText("DECIMAL");
        return new OrderSplit.Totals(minor(payload, "shippingCost", format, currency), minor(payload, "taxes", format, currency),
                minor(payload, "orderDiscount", format, currency),
                payload.has("hardCost") ? minor(payload, "hardCost", format, currency) : storedHardCost);
    }

    /**
     * The order's content as a SHA-256 hex digest: currency, order amounts and items (every item field, amounts in
     * minor units, so {@code 10}, {@code 10.00} and INTEGER {@code 1000} are the same price). Two POSTs of one orderId
     * with the same digest are one order sent twice (docs/commerce.md "Orders"); the buyer's fields, the date, cartId
     * and externalSubscriptionId are not part of it (a retry may re-stamp them).
     */
    public static String digest(JsonNode payload, String currency) {
        String format = payload.path("priceFormat").asText("DECIMAL");
        ObjectNode content = JsonBody.mapper().createObjectNode().put("currency", currency);
        for (String field : ORDER_AMOUNTS) {
            content.put(field, minor(payload, field, format, currency));
        }
        ArrayNode items = content.putArray("items");
        for (JsonNode item : payload.get("items")) {
            ObjectNode o = items.addObject().put("name", item.get("name").asText()).put("quantity", item.path("quantity").asInt(1));
            for (String field : List.of("price", "costOfGoods", "taxes", "itemDiscount")) {
                o.put(field, minor(item, field, format, currency));
            }
            for (String field : List.of("externalId", "sku", "tag", "categoryName")) {
                o.put(field, item.hasNonNull(field) ? item.get(field).asText() : null);
            }
            o.put("isRebill", item.path("isRebill").asBoolean(false));
            o.set("packages", item.path("packages"));
        }
        try {
            byte[] hash = java.security.MessageDigest.getInstance("SHA-256")
                    .digest(JsonBody.mapper().writeValueAsBytes(content));
            return java.util.HexFormat.of().formatHex(hash);
        } catch (java.security.NoSuchAlgorithmException | com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    static long minor(JsonNode node, String field, String format, String currency) {
        return node.hasNonNull(field) ? Money.toMinor(field, new BigDecimal(node.get(field).asText()), format, currency) : 0;
    }
}
