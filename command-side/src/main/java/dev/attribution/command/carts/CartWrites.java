package dev.attribution.command.carts;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.attribution.api.ApiException;
import dev.attribution.api.FixedSet;
import dev.attribution.api.JsonBody;
import dev.attribution.api.RequestIds;
import dev.attribution.api.auth.Caller;
import dev.attribution.command.blacklist.Blacklist;
import dev.attribution.command.commerce.CommerceInput;
import dev.attribution.command.orders.Money;
import dev.attribution.command.requests.WriteRequestLog;
import jakarta.inject.Singleton;

import java.math.BigDecimal;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Validation of cart writes (spec 4.12): {@code POST /carts} and {@code PUT /carts} as the real client sends it
 * (body with {@code cartId}, {@code items} and the same person fields). A cart without items is a 400; an invalid
 * email is judged when the request is applied (FAILED), as the spec lists it among the FAILED messages.
 */
@Singleton
public class CartWrites {

    public static final String NO_ITEMS = "A cart must contain at least one item";

    private final WriteRequestLog log;
    private final Blacklist blacklist;

    public CartWrites(WriteRequestLog log, Blacklist blacklist) {
        this.log = log;
        this.blacklist = blacklist;
    }

    public CompletableFuture<String> create(Caller caller, JsonBody body) {
        String cartId = body.nonBlankString("cartId").orElseGet(() -> RequestIds.next("crt-"));
        ObjectNode payload = payload(caller, body, cartId);
        CommerceInput.checkBlacklist(blacklist, caller.accountId(), payload);
        return log.submit(caller.accountId(), "CREATE_CART", "cart:" + cartId, payload);
    }

    public CompletableFuture<String> update(Caller caller, JsonBody body) {
        String cartId = body.nonBlankString("cartId").orElseThrow(() -> ApiException.badRequest("Missing required field: cartId"));
        ObjectNode payload = payload(caller, body, cartId);
        CommerceInput.checkBlacklist(blacklist, caller.accountId(), payload);
        return log.submit(caller.accountId(), "UPDATE_CART", "cart:" + cartId, payload);
    }

    private static ObjectNode payload(Caller caller, JsonBody body, String cartId) {
        ObjectNode payload = JsonBody.mapper().createObjectNode().put("cartId", cartId);
        CommerceInput.copyPerson(body, payload, false, false, Integer.MAX_VALUE);
        CommerceInput.copyDate(body, payload, "date");
        String format = body.nonBlankString("priceFormat").map(v -> FixedSet.require("priceFormat", v, Money.FORMATS)).orElse("DECIMAL");
        payload.put("priceFormat", format);
        String currency = body.nonBlankString("currency").map(c -> c.toUpperCase(java.util.Locale.ROOT)).orElse(caller.account().currency());
        if (!Money.isCurrency(currency)) {
            throw ApiException.badRequest("Invalid currency: " + currency);
        }
        payload.put("currency", currency);
        JsonNode items = body.node().get("items");
        if (items == null || !items.isArray() || items.isEmpty()) {
            throw ApiException.badRequest(NO_ITEMS);
        }
        ArrayNode out = payload.putArray("items");
        for (int i = 0; i < items.size(); i++) {
            String prefix = "items[" + i + "].";
            if (!items.get(i).isObject()) {
                throw ApiException.badRequest("items must be an array of objects");
            }
            JsonBody item = JsonBody.of((ObjectNode) items.get(i));
            ObjectNode o = out.addObject();
            o.put("name", dev.attribution.command.orders.OrderInput.itemName(item, prefix));
            JsonNode price = item.node().get("price");
            if (price == null || price.isNull()) {
                throw ApiException.badRequest("Missing required field: " + prefix + "price");
            }
            if (!price.isNumber()) {
                throw ApiException.badRequest(prefix + "price must be a number");
            }
            o.put("price", Money.toDecimal(Money.toMinor(prefix + "price", price.decimalValue(), format, currency), currency).toPlainString());
            JsonNode quantity = item.node().get("quantity");
            int q = 1;
            if (quantity != null && !quantity.isNull()) {
                if (!quantity.isIntegralNumber() || quantity.asLong() < 1 || quantity.asLong() > 100_000) {
                    throw ApiException.badRequest(prefix + "quantity must be a whole number between 1 and 100000");
                }
                q = quantity.asInt();
            }
            o.put("quantity", q);
            for (String field : List.of("externalId", "sku")) {
                item.nonBlankString(field).ifPresent(v -> o.put(field, v));
            }
            o.put("isRebill", item.bool("isRebill").orElse(false));
        }
        return payload;
    }

    /** Largest cart total accepted when the request is applied. */
    static final BigDecimal MAX_TOTAL = new BigDecimal("99999999.99");
}
