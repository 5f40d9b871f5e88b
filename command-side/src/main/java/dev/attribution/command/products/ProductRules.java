package dev.attribution.command.products;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import dev.attribution.api.ApiException;
import dev.attribution.command.commerce.PersonFields;
import dev.attribution.command.products.ProductCommands.CreateProduct;
import dev.attribution.command.products.ProductCommands.ProductChanges;

import java.io.IOException;
import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/** The rules of product writes (spec 4.6), each message written once; what passes is the command as stored. */
final class ProductRules {

    static final String NAME_TOO_SHORT = "Product name must have at least 3 characters";
    static final String INVALID_PRICE = "Invalid price format: a plain number with up to 8 digits before and 2 after the decimal point, max 99999999.99";
    static final String RECURRING_AND_CALL = "A product cannot be both a recurring sale and a call product";
    static final String NOT_FOUND = "Product not found";
    static final String INVALID_TAG = "Invalid tag: a product tag is a sale tag ($)";
    static final String TAG_TAKEN = "A product with the tag '%s' already exists";
    private static final Pattern PLAIN_PRICE = Pattern.compile("\\d{1,8}(\\.\\d{1,2})?");

    private ProductRules() {
    }

    static CreateProduct create(CreateProduct body) {
        if (body.name() == null) {
            throw ApiException.badRequest("Missing required field: name");
        }
        String name = checkName(body.name().trim());
        if (body.price() == null) {
            throw ApiException.badRequest("Missing required field: price");
        }
        List<String> packages = body.packages() == null ? List.of() : body.packages().values();
        return new CreateProduct(name, price(body.price()), PersonFields.nonBlank(body.category()),
                new dev.attribution.api.StringOrList(packages));
    }

    /**
     * {@code PUT /products/{id}}: only the fields sent change. A blank {@code name} or {@code tag} is no change (a
     * product always has both; clients send {@code ""} for a field left empty, docs/clients.md). {@code stored}: the
     * flags of the product when the account has it (an unknown id fails when applied).
     */
    static ProductChanges update(ProductChanges body, Optional<ProductCatalog.Flags> stored) {
        String name = PersonFields.nonBlank(body.name());
        String tag = PersonFields.nonBlank(body.tag());
        ProductChanges checked = new ProductChanges(name == null ? null : checkName(name),
                body.price() == null ? null : price(body.price()), body.customCost() == null ? null : price(body.customCost()),
                tag == null ? null : tag(tag), body.sku(), body.category(), body.isRecurringSale(), body.callProduct(),
                body.packages(), Boolean.TRUE.equals(body.updateHistoricalSales()));
        boolean recurring = checked.isRecurringSale() != null ? checked.isRecurringSale()
                : stored.map(ProductCatalog.Flags::recurring).orElse(false);
        boolean callProduct = checked.callProduct() != null ? checked.callProduct()
                : stored.map(ProductCatalog.Flags::callProduct).orElse(false);
        if (recurring && callProduct) {
            throw ApiException.badRequest(RECURRING_AND_CALL);
        }
        return checked;
    }

    static String checkName(String name) {
        if (name.length() < 3) {
            throw ApiException.badRequest(NAME_TOO_SHORT);
        }
        return name;
    }

    /** A price as a plain number: at most 8 integer digits and 2 decimals, no sign; stored with 2 decimals. */
    static BigDecimal price(BigDecimal value) {
        String text = value.stripTrailingZeros().toPlainString();
        if (!PLAIN_PRICE.matcher(text).matches()) {
            throw ApiException.badRequest(INVALID_PRICE);
        }
        return new BigDecimal(text).setScale(2);
    }

    static String tag(String tag) {
        String t = tag.trim();
        if (t.startsWith("@") || t.startsWith("!") || t.startsWith("#")) {
            throw ApiException.badRequest(INVALID_TAG);
        }
        return ProductCatalog.saleTag(t);
    }

    /** A price field: a JSON number, or a string holding a plain number (spec 4.6); anything else is INVALID_PRICE. */
    static final class Price extends JsonDeserializer<BigDecimal> {
        @Override
        public BigDecimal deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            if (p.currentToken().isNumeric()) {
                return p.getDecimalValue();
            }
            if (p.hasToken(JsonToken.VALUE_STRING) && PLAIN_PRICE.matcher(p.getText().trim()).matches()) {
                return new BigDecimal(p.getText().trim());
            }
            throw ApiException.badRequest(INVALID_PRICE);
        }
    }
}
