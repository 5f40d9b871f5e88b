package dev.attribution.command.products;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.attribution.api.ApiException;
import dev.attribution.api.JsonBody;
import dev.attribution.api.auth.Caller;
import dev.attribution.command.commerce.CommerceInput;
import dev.attribution.command.requests.WriteRequestLog;
import jakarta.inject.Singleton;

import java.math.BigDecimal;
import java.util.Set;
import java.util.regex.Pattern;

/** Validation of product writes (spec 4.6) and their hand-over to the request log. */
@Singleton
public class ProductWrites {

    public static final String NAME_TOO_SHORT = "Product name must have at least 3 characters";
    public static final String INVALID_PRICE = "Invalid price format: a plain number with up to 8 digits before and 2 after the decimal point, max 99999999.99";
    public static final String RECURRING_AND_CALL = "A product cannot be both a recurring sale and a call product";
    public static final String NOT_FOUND = "Product not found";
    public static final String INVALID_TAG = "Invalid tag: a product tag is a sale tag ($)";
    static final Set<String> UPDATE_FIELDS = JsonBody.fieldsOf(ProductUpdateBody.class);
    private static final Pattern PLAIN_PRICE = Pattern.compile("\\d{1,8}(\\.\\d{1,2})?");

    private final WriteRequestLog log;
    private final ProductFlags flags;

    ProductWrites(WriteRequestLog log, ProductFlags flags) {
        this.log = log;
        this.flags = flags;
    }

    /** {@code POST /products}. */
    public String create(Caller caller, JsonBody body) {
        ObjectNode payload = JsonBody.mapper().createObjectNode();
        String name = body.string("name").map(String::trim).orElseThrow(() -> ApiException.badRequest("Missing required field: name"));
        payload.put("name", checkName(name));
        if (!body.present("price")) {
            throw ApiException.badRequest("Missing required field: price");
        }
        payload.put("price", price(body, "price"));
        body.nonBlankString("category").ifPresent(v -> payload.put("category", v));
        payload.set("packages", CommerceInput.strings(body.stringOrList("packages").orElse(java.util.List.of())));
        return log.accept(caller.accountId(), "CREATE_PRODUCT", "product:" + ProductCatalog.deriveTag(name), payload);
    }

    /**
     * {@code PUT /products/{id}}: only the fields sent change. A blank {@code name} or {@code tag} is no change (a
     * product always has both; clients send {@code ""} for a field left empty, docs/clients.md).
     */
    public String update(Caller caller, String id, JsonBody body) {
        body.rejectUnknown(UPDATE_FIELDS);
        // an unknown id is judged when the write is applied (FAILED Product not found), as on every asynchronous
        // write (docs/clients.md "Unknown ids on writes"); a known product is checked against its stored flags now
        java.util.Optional<ProductFlags.Flags> stored = flags.of(caller.accountId(), id);
        ObjectNode payload = JsonBody.mapper().createObjectNode().put("id", id);
        body.nonBlankString("name").ifPresent(n -> payload.put("name", checkName(n)));
        if (body.present("price")) {
            payload.put("price", price(body, "price"));
        }
        if (body.present("customCost")) {
            payload.put("customCost", price(body, "customCost"));
        }
        body.nonBlankString("tag").ifPresent(t -> payload.put("tag", tag(t)));
        body.string("sku").ifPresent(v -> payload.put("sku", v));
        body.string("category").ifPresent(v -> payload.put("category", v));
        body.bool("isRecurringSale").ifPresent(v -> payload.put("recurring", v));
        body.bool("callProduct").ifPresent(v -> payload.put("callProduct", v));
        if (body.has("packages")) {
            payload.set("packages", CommerceInput.strings(body.stringList("packages").orElse(java.util.List.of())));
        }
        payload.put("updateHistoricalSales", body.bool("updateHistoricalSales").orElse(false));
        boolean recurring = payload.has("recurring") ? payload.get("recurring").asBoolean() : stored.map(ProductFlags.Flags::recurring).orElse(false);
        boolean callProduct = payload.has("callProduct") ? payload.get("callProduct").asBoolean()
                : stored.map(ProductFlags.Flags::callProduct).orElse(false);
        if (recurring && callProduct) {
            throw ApiException.badRequest(RECURRING_AND_CALL);
        }
        return log.accept(caller.accountId(), "UPDATE_PRODUCT", "product:" + id, payload);
    }

    /** {@code DELETE /products/{id}}. */
    public String delete(Caller caller, String id) {
        return log.accept(caller.accountId(), "DELETE_PRODUCT", "product:" + id, JsonBody.mapper().createObjectNode().put("id", id));
    }

    static String checkName(String name) {
        if (name.length() < 3) {
            throw ApiException.badRequest(NAME_TOO_SHORT);
        }
        return name;
    }

    /** A price as a plain number: at most 8 integer digits and 2 decimals, no sign, no symbol. */
    static String price(JsonBody body, String field) {
        JsonNode v = body.node().get(field);
        String text;
        if (v.isNumber()) {
            text = v.decimalValue().stripTrailingZeros().toPlainString();
        } else if (v.isTextual()) {
            text = v.asText().trim();
        } else {
            throw ApiException.badRequest(INVALID_PRICE);
        }
        if (!PLAIN_PRICE.matcher(text).matches()) {
            throw ApiException.badRequest(INVALID_PRICE);
        }
        return new BigDecimal(text).setScale(2).toPlainString();
    }

    static String tag(String tag) {
        String t = tag.trim();
        if (t.startsWith("@") || t.startsWith("!") || t.startsWith("#")) {
            throw ApiException.badRequest(INVALID_TAG);
        }
        return ProductCatalog.saleTag(t);
    }
}
