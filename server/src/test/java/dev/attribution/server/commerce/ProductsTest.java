package dev.attribution.server.commerce;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.server.support.ApiTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Products (spec 4.6): create with a derived tag, strict list/update/delete, price format, recurring vs call. */
@MicronautTest(transactional = false)
class ProductsTest extends ApiTest {

    static final String INVALID_PRICE = "Invalid price format: a plain number with up to 8 digits before and 2 after the decimal point, max 99999999.99";

    String key;

    @BeforeAll
    void account() {
        key = newAccount();
    }

    JsonNode create(String name, String price) {
        return processed(key, "POST", "/api/v1.0/products", "{\"name\":\"" + name + "\",\"price\":" + price + ",\"category\":\"Books\"}", "CREATE_PRODUCT");
    }

    @Test
    void createDerivesTheTagFromTheNameAndAnswersTheProductShape() {
        JsonNode product = create("Blue Widget (XL)", "19.99");
        assertEquals("$blue-widget-xl", product.get("tag").asText());
        assertEquals("Blue Widget (XL)", product.get("name").asText());
        Money.assertAmount("19.99", product.get("price"));
        assertEquals("Books", product.get("category").asText());
        assertFalse(product.get("recurring").asBoolean());
        assertFalse(product.get("callProduct").asBoolean());
        assertTrue(product.get("id").asText().startsWith("prd_"));
    }

    @Test
    void nameNeedsThreeCharacters() {
        Response r = post(key, "/api/v1.0/products", "{\"name\":\"ab\",\"price\":1}");
        assertEquals(400, r.status());
        assertEquals("Product name must have at least 3 characters", r.message());
    }

    @Test
    void priceMustBeAPlainNumberWithAtMostEightAndTwoDigits() {
        for (String bad : new String[]{"123456789", "1.999", "\"$10\"", "-1", "\"10,5\""}) {
            Response r = post(key, "/api/v1.0/products", "{\"name\":\"Pricey\",\"price\":" + bad + "}");
            assertEquals(400, r.status(), bad);
            assertEquals(INVALID_PRICE, r.message(), bad);
        }
        Money.assertAmount("99999999.99", create("Max Price Product", "99999999.99").get("price"));
        Money.assertAmount("12.50", create("String Price Product", "\"12.5\"").get("price"));
    }

    @Test
    void listFiltersByExactNameAndByTagWithTheDollarAdded() {
        create("Filter Target", "5");
        create("Filter Target Two", "6");
        JsonNode byName = get(key, "/api/v1.0/products?name=" + enc("Filter Target")).body().get("result");
        assertEquals(1, byName.size());
        JsonNode byTag = get(key, "/api/v1.0/products?tag=filter-target-two").body().get("result");
        assertEquals(1, byTag.size());
        assertEquals("Filter Target Two", byTag.get(0).get("name").asText());
        assertEquals(1, get(key, "/api/v1.0/products?tag=" + enc("$filter-target")).body().get("result").size());
    }

    @Test
    void listRefusesUnknownAndDuplicateParameters() {
        Response unknown = get(key, "/api/v1.0/products?ids=x");
        assertEquals(400, unknown.status());
        assertEquals("Unknown parameter: ids", unknown.message());
        Response duplicate = get(key, "/api/v1.0/products?name=a&name=b");
        assertEquals(400, duplicate.status());
        assertEquals("Duplicate parameter: name", duplicate.message());
        Response badSet = get(key, "/api/v1.0/products?isRecurringSale=YES");
        assertEquals("Invalid isRecurringSale 'YES'. Accepted values: RECURRING, NON_RECURRING, ALL", badSet.message());
    }

    @Test
    void listPagesWithNextPageId() {
        String other = newAccount();
        for (int i = 0; i < 3; i++) {
            assertEquals("PROCESSED", write(other, "POST", "/api/v1.0/products", "{\"name\":\"Paged " + i + "\",\"price\":1}").get("status").asText());
        }
        JsonNode first = get(other, "/api/v1.0/products?pageSize=2").body();
        assertEquals(2, first.get("result").size());
        JsonNode second = get(other, "/api/v1.0/products?pageSize=2&pageId=" + enc(first.get("nextPageId").asText())).body();
        assertEquals(1, second.get("result").size());
        assertTrue(second.get("nextPageId").isNull());
        assertEquals(400, get(other, "/api/v1.0/products?pageSize=2&pageId=garbage").status());
    }

    @Test
    void updateChangesOnlyTheFieldsSentAndFiltersByRecurring() {
        JsonNode product = create("Updatable Thing", "10");
        JsonNode status = write(key, "PUT", "/api/v1.0/products/" + product.get("id").asText(),
                "{\"price\":12.5,\"customCost\":3,\"isRecurringSale\":true,\"sku\":\"SKU-1\",\"packages\":[\"gold\"]}");
        assertEquals("PROCESSED", status.get("status").asText(), status.toString());
        JsonNode updated = get(key, "/api/v1.0/products?name=" + enc("Updatable Thing")).body().get("result").get(0);
        Money.assertAmount("12.50", updated.get("price"));
        Money.assertAmount("3.00", updated.get("customCost"));
        assertEquals("SKU-1", updated.get("sku").asText());
        assertEquals("Updatable Thing", updated.get("name").asText());
        assertTrue(updated.get("recurring").asBoolean());
        JsonNode recurring = get(key, "/api/v1.0/products?isRecurringSale=RECURRING").body().get("result");
        assertTrue(recurring.findValuesAsText("id").contains(product.get("id").asText()));
        JsonNode nonRecurring = get(key, "/api/v1.0/products?isRecurringSale=NON_RECURRING").body().get("result");
        assertFalse(nonRecurring.findValuesAsText("id").contains(product.get("id").asText()));
    }

    @Test
    void aProductCannotBeBothRecurringAndACallProduct() {
        JsonNode product = create("Conflicted Product", "10");
        String path = "/api/v1.0/products/" + product.get("id").asText();
        Response both = put(key, path, "{\"isRecurringSale\":true,\"callProduct\":true}");
        assertEquals(400, both.status());
        assertEquals("A product cannot be both a recurring sale and a call product", both.message());
        assertEquals("PROCESSED", write(key, "PUT", path, "{\"callProduct\":true}").get("status").asText());
        Response conflictWithStored = put(key, path, "{\"isRecurringSale\":true}");
        assertEquals(400, conflictWithStored.status());
        assertEquals("A product cannot be both a recurring sale and a call product", conflictWithStored.message());
    }

    @Test
    void updateAndDeleteAreStrict() {
        JsonNode product = create("Strict Product", "10");
        String path = "/api/v1.0/products/" + product.get("id").asText();
        Response unknownField = put(key, path, "{\"recurring\":true}");
        assertEquals(400, unknownField.status());
        assertEquals("Unknown field: recurring", unknownField.message());
        Response unknownParam = put(key, path + "?x=1", "{\"sku\":\"a\"}");
        assertEquals("Unknown parameter: x", unknownParam.message());
        assertEquals("Unknown parameter: force", delete(key, path + "?force=true").message());
        Response shortName = put(key, path, "{\"name\":\"ab\"}");
        assertEquals("Product name must have at least 3 characters", shortName.message());
        assertEquals(INVALID_PRICE, put(key, path, "{\"price\":100000000}").message());
        // an unknown id is judged when the write is applied, as on every asynchronous write (docs/clients.md)
        JsonNode missing = write(key, "PUT", "/api/v1.0/products/prd_missing", "{\"sku\":\"a\"}");
        assertEquals("FAILED", missing.get("status").asText(), missing.toString());
        assertEquals("Product not found", missing.get("errorMessage").asText());
    }

    @Test
    void deleteRemovesTheProductFromTheList() {
        JsonNode product = create("Doomed Product", "10");
        JsonNode status = write(key, "DELETE", "/api/v1.0/products/" + product.get("id").asText(), null);
        assertEquals("PROCESSED", status.get("status").asText());
        assertFalse(status.has("result"));
        assertEquals(0, get(key, "/api/v1.0/products?name=" + enc("Doomed Product")).body().get("result").size());
    }

    @Test
    void updateHistoricalSalesPropagatesACostChangeToExistingSales() throws java.sql.SQLException {
        JsonNode product = create("Costly Product", "10");
        String path = "/api/v1.0/products/" + product.get("id").asText();
        JsonNode sale = write(key, "POST", "/api/v1.0/orders",
                "{\"email\":\"cost@example.com\",\"items\":[{\"name\":\"Costly Product\",\"tag\":\"$costly-product\",\"price\":10,\"quantity\":2}]}")
                .get("result").get(0);
        assertEquals(product.get("id").asText(), sale.get("product").get("id").asText());
        assertEquals(0, java.math.BigDecimal.ZERO.compareTo(costOfGoods(sale.get("id").asText())));
        write(key, "PUT", path, "{\"customCost\":3}");
        assertEquals(0, java.math.BigDecimal.ZERO.compareTo(costOfGoods(sale.get("id").asText())), "not propagated by default");
        assertEquals("PROCESSED", write(key, "PUT", path, "{\"customCost\":4,\"updateHistoricalSales\":true}").get("status").asText());
        assertEquals(0, new java.math.BigDecimal("8.00").compareTo(costOfGoods(sale.get("id").asText())));
    }

    @jakarta.inject.Inject
    javax.sql.DataSource dataSource;

    private java.math.BigDecimal costOfGoods(String saleId) throws java.sql.SQLException {
        try (var c = io.micronaut.data.connection.jdbc.advice.DelegatingDataSource.unwrapDataSource(dataSource).getConnection();
             var ps = c.prepareStatement("SELECT cost_of_goods FROM sales WHERE id = ?")) {
            ps.setString(1, saleId);
            try (var rs = ps.executeQuery()) {
                rs.next();
                return rs.getBigDecimal(1);
            }
        }
    }

    @Test
    void theSameNameTwiceFailsOnTheTag() {
        create("Twice Named", "1");
        JsonNode second = write(key, "POST", "/api/v1.0/products", "{\"name\":\"Twice Named\",\"price\":1}");
        assertEquals("FAILED", second.get("status").asText());
        assertEquals("A product with the tag '$twice-named' already exists", second.get("errorMessage").asText());
    }
}
