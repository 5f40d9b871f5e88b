package dev.attribution.command.orders;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import dev.attribution.api.ApiException;
import dev.attribution.api.StringOrList;
import dev.attribution.command.commerce.ItemJson;

import java.io.IOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * The money fields of an order body ({@link OrderCreateBody}, {@link OrderUpdateBody}), checked by
 * {@link OrderInput#lines}; flat in each body (Jackson 2.21 cannot read a number inside an unwrapped record of a
 * record creator). A refused item field is named with its item ({@code items[0].price must be a number}).
 */
public final class OrderLines {

    private OrderLines() {
    }

    /** What both order bodies carry beside their own fields. */
    public interface Body {
        Money.Format priceFormat();

        String currency();

        BigDecimal shippingCost();

        BigDecimal taxes();

        BigDecimal orderDiscount();

        BigDecimal hardCost();

        List<Item> items();
    }

    /** One item of an order: a sale. */
    public record Item(
            @JsonProperty(required = true) @JsonDeserialize(using = ItemJson.Text.class) String name,
            @JsonProperty(required = true) @JsonDeserialize(using = ItemJson.Number.class) BigDecimal price,
            @JsonDeserialize(using = ItemJson.Number.class) BigDecimal costOfGoods,
            @JsonDeserialize(using = ItemJson.Number.class) BigDecimal taxes,
            @JsonDeserialize(using = ItemJson.Number.class) BigDecimal itemDiscount,
            @JsonPropertyDescription("default 1") @JsonDeserialize(using = Quantity.class) Integer quantity,
            @JsonDeserialize(using = ItemJson.Text.class) String externalId,
            @JsonDeserialize(using = ItemJson.Text.class) String sku,
            @JsonPropertyDescription("product tag, a sale tag ($)") @JsonDeserialize(using = ItemJson.Text.class) String tag,
            @JsonDeserialize(using = ItemJson.Text.class) String categoryName,
            @JsonDeserialize(using = Flag.class) Boolean isRebill,
            @JsonPropertyDescription("package names") @JsonDeserialize(using = Packages.class) StringOrList packages) {
    }

    /** {@code items}: an array of objects, else {@code items must be an array of objects}. */
    static final class Items extends JsonDeserializer<List<Item>> {
        @Override
        public List<Item> deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            if (!p.isExpectedStartArrayToken()) {
                throw ApiException.badRequest(OrderInput.ITEMS_NOT_OBJECTS);
            }
            List<Item> items = new ArrayList<>();
            for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
                if (t != JsonToken.START_OBJECT) {
                    throw ApiException.badRequest(OrderInput.ITEMS_NOT_OBJECTS);
                }
                items.add(ctxt.readValue(p, Item.class));
            }
            return items;
        }
    }

    /** An item's quantity: a number, and a whole one from 1 to {@link OrderInput#MAX_QUANTITY} ({@code 2.0} is 2). */
    static final class Quantity extends JsonDeserializer<Integer> {
        @Override
        public Integer deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            String path = ItemJson.path(p);
            if (!p.currentToken().isNumeric()) {
                throw ApiException.badRequest(path + " must be a number");
            }
            BigDecimal q = p.getDecimalValue();
            if (q.stripTrailingZeros().scale() > 0 || q.signum() <= 0 || q.compareTo(BigDecimal.valueOf(OrderInput.MAX_QUANTITY)) > 0) {
                throw ApiException.badRequest(path + " must be a whole number between 1 and " + OrderInput.MAX_QUANTITY);
            }
            return q.intValueExact();
        }
    }

    /** An item's flag: a boolean, else {@code items[0].isRebill must be a boolean}. */
    static final class Flag extends JsonDeserializer<Boolean> {
        @Override
        public Boolean deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            if (!p.currentToken().isBoolean()) {
                throw ApiException.badRequest(ItemJson.path(p) + " must be a boolean");
            }
            return p.getBooleanValue();
        }
    }

    /** An item's packages: a string (blank: none) or an array of strings (blank items dropped), named with the item. */
    static final class Packages extends JsonDeserializer<StringOrList> {
        @Override
        public StringOrList deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            String path = ItemJson.path(p);
            if (p.hasToken(JsonToken.VALUE_STRING)) {
                String s = p.getText().trim();
                return new StringOrList(s.isEmpty() ? List.of() : List.of(s));
            }
            if (!p.isExpectedStartArrayToken()) {
                throw ApiException.badRequest(path + " must be a string or an array of strings");
            }
            List<String> out = new ArrayList<>();
            for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
                if (t != JsonToken.VALUE_STRING) {
                    throw ApiException.badRequest(path + " must be an array of strings");
                }
                String s = p.getText().trim();
                if (!s.isEmpty()) {
                    out.add(s);
                }
            }
            return new StringOrList(out);
        }
    }
}
