package dev.attribution.command.carts;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import dev.attribution.api.ApiException;
import dev.attribution.api.BlankIsAbsent;
import dev.attribution.command.commerce.ItemJson;
import dev.attribution.command.commerce.PersonFields;
import dev.attribution.command.orders.Money;

import java.io.IOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * The body of {@code POST /carts} and {@code PUT /carts} (cartId required on PUT; spec 4.12), bound by
 * {@code CommandJson} and checked by {@link CartRules} into a {@link CartCommands.CreateCart} or
 * {@link CartCommands.UpdateCart}. {@code items} that is not an array is no items; an item that is not an object is
 * refused, and a refused item field is named with its item ({@code items[0].price must be a number}).
 */
public record CartBody(
        @JsonPropertyDescription("your cart id (default on create: generated)") String cartId,
        @JsonUnwrapped PersonFields person,
        @JsonPropertyDescription("a date-time (spec 2.2)") String date,
        @JsonPropertyDescription("how amounts are written: DECIMAL (default) or INTEGER minor units")
        @BlankIsAbsent Money.Format priceFormat,
        @JsonPropertyDescription("ISO 4217 code (default: the account's currency)") String currency,
        @JsonProperty(required = true)
        @JsonPropertyDescription("the cart's items, at least one")
        @JsonDeserialize(using = Items.class) List<Item> items) {

    /** One item in a cart. */
    public record Item(
            @JsonProperty(required = true) @JsonDeserialize(using = ItemJson.Text.class) String name,
            @JsonProperty(required = true) @JsonDeserialize(using = ItemJson.Number.class) BigDecimal price,
            @JsonPropertyDescription("default 1") @JsonDeserialize(using = Quantity.class) Integer quantity,
            String externalId,
            String sku,
            Boolean isRebill) {
    }

    /** {@code items}: an array of objects; any other value is no items ({@link CartRules#NO_ITEMS}). */
    static final class Items extends JsonDeserializer<List<Item>> {
        @Override
        public List<Item> deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            if (!p.isExpectedStartArrayToken()) {
                p.skipChildren();
                return List.of();
            }
            List<Item> items = new ArrayList<>();
            for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
                if (t != JsonToken.START_OBJECT) {
                    throw ApiException.badRequest(CartRules.ITEMS_NOT_OBJECTS);
                }
                items.add(ctxt.readValue(p, Item.class));
            }
            return items;
        }
    }

    /** An item's quantity: a whole number from 1 to {@link CartRules#MAX_QUANTITY}. */
    static final class Quantity extends JsonDeserializer<Integer> {
        @Override
        public Integer deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            if (!p.hasToken(JsonToken.VALUE_NUMBER_INT) || p.getLongValue() < 1 || p.getLongValue() > CartRules.MAX_QUANTITY) {
                throw ApiException.badRequest(ItemJson.path(p) + " must be a whole number between 1 and " + CartRules.MAX_QUANTITY);
            }
            return p.getIntValue();
        }
    }
}
