package dev.attribution.server.commerce;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.server.support.ApiTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** GET /sales filters, PUT /sales (query-string inputs), DELETE /sales/{id} (spec 4.2, 3.2, 2.3). */
@MicronautTest(transactional = false)
class SalesTest extends ApiTest {

    String key;
    String leadId;
    JsonNode oldSale;      // two months ago, refunded now
    JsonNode recentSale;   // this month, rebill
    JsonNode plainSale;    // this month, other lead
    YearMonth twoMonthsAgo = YearMonth.now(ZoneOffset.UTC).minusMonths(2);

    @BeforeAll
    void data() {
        key = newAccount("America/New_York", dev.attribution.api.auth.Roles.ALL);
        oldSale = order("{\"email\":\"anna@example.com\",\"orderId\":\"s-old\",\"date\":\"" + twoMonthsAgo.atDay(15) + "T10:00:00Z\","
                + "\"items\":[{\"name\":\"Old Product\",\"price\":12}]}").get(0);
        recentSale = order("{\"email\":\"anna@example.com\",\"orderId\":\"s-recent\",\"items\":[{\"name\":\"Recent Product\",\"price\":5,\"isRebill\":true}]}").get(0);
        plainSale = order("{\"email\":\"bob@example.com\",\"orderId\":\"s-plain\",\"items\":[{\"name\":\"Recent Product\",\"price\":5}]}").get(0);
        leadId = oldSale.get("lead").get("id").asText();
        assertEquals("PROCESSED", write(key, "DELETE", "/api/v1.0/orders/s-old", null).get("status").asText());
    }

    JsonNode order(String json) {
        JsonNode status = write(key, "POST", "/api/v1.0/orders", json);
        assertEquals("PROCESSED", status.get("status").asText(), status.toString());
        return status.get("result");
    }

    List<String> ids(String query) {
        Response r = get(key, "/api/v1.0/sales" + query);
        assertEquals(200, r.status(), r.raw());
        List<String> out = new ArrayList<>();
        r.body().get("result").forEach(s -> out.add(s.get("id").asText()));
        return out;
    }

    String id(JsonNode sale) {
        return sale.get("id").asText();
    }

    @Test
    void datesBoundTheSaleDateNeverTheRefundDate() {
        String from = YearMonth.now(ZoneOffset.UTC).atDay(1).toString();
        List<String> thisMonth = ids("?fromDate=" + from);
        assertFalse(thisMonth.contains(id(oldSale)), "refunded this month but sold two months ago");
        assertTrue(thisMonth.contains(id(recentSale)));
        List<String> then = ids("?fromDate=" + twoMonthsAgo.atDay(1) + "&toDate=" + twoMonthsAgo.atEndOfMonth());
        assertEquals(List.of(id(oldSale)), then);
    }

    @Test
    void filtersByIdsEmailsLeadIdsAndProductTags() {
        assertEquals(List.of(id(plainSale)), ids("?ids=" + list(id(plainSale))));
        assertEquals(List.of(id(oldSale), id(recentSale)), ids("?emails=" + list("ann")));
        assertEquals(List.of(id(oldSale), id(recentSale)), ids("?leadIds=" + list(leadId)));
        assertEquals(List.of(id(recentSale), id(plainSale)), ids("?productTags=" + list("$recent-product")));
        assertEquals(List.of(id(oldSale)), ids("?productTags=" + list("$old-product")));
    }

    @Test
    void filtersByRecurringAndRefundedState() {
        assertEquals(List.of(id(recentSale)), ids("?isRecurringSale=RECURRING"));
        assertEquals(List.of(id(oldSale), id(plainSale)), ids("?isRecurringSale=NON_RECURRING"));
        assertEquals(List.of(id(oldSale)), ids("?saleRefundedState=REFUNDED"));
        assertEquals(List.of(id(recentSale), id(plainSale)), ids("?saleRefundedState=NON_REFUNDED"));
        assertEquals(3, ids("?saleRefundedState=ALL&isRecurringSale=ALL").size());
        assertEquals("Invalid saleRefundedState 'YES'. Accepted values: REFUNDED, NON_REFUNDED, ALL",
                get(key, "/api/v1.0/sales?saleRefundedState=YES").message());
        assertEquals("Invalid isRecurringSale 'true'. Accepted values: RECURRING, NON_RECURRING, ALL",
                get(key, "/api/v1.0/sales?isRecurringSale=true").message());
    }

    @Test
    void listRulesOfDatesListsAndPaging() {
        LocalDate nextMonth = YearMonth.now(ZoneOffset.UTC).plusMonths(1).atDay(1);
        assertEquals("'toDate' cannot be in a future month: " + nextMonth, get(key, "/api/v1.0/sales?toDate=" + nextMonth).message());
        assertEquals("fromDate cannot be later than toDate", get(key, "/api/v1.0/sales?fromDate=2026-01-02&toDate=2026-01-01").message());
        assertEquals("updatedFromDate cannot be later than updatedToDate",
                get(key, "/api/v1.0/sales?updatedFromDate=2026-01-02&updatedToDate=2026-01-01").message());
        assertEquals("The maximum number of productTags to be provided is 20", get(key, "/api/v1.0/sales?productTags="
                + list("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15", "16", "17", "18", "19", "20", "21")).message());
        assertEquals(400, get(key, "/api/v1.0/sales?pageSize=251").status());
        JsonNode first = get(key, "/api/v1.0/sales?pageSize=2").body();
        assertEquals(2, first.get("result").size());
        JsonNode second = get(key, "/api/v1.0/sales?pageSize=2&pageId=" + enc(first.get("nextPageId").asText())).body();
        assertEquals(List.of(id(plainSale)), List.of(second.get("result").get(0).get("id").asText()));
        assertTrue(second.get("nextPageId").isNull());
    }

    @Test
    void saleDatesUseTheLegacyEncodingInTheAccountZone() {
        JsonNode sale = get(key, "/api/v1.0/sales?ids=" + list(id(oldSale))).body().get("result").get(0);
        LocalDate day = twoMonthsAgo.atDay(15);
        String weekday = day.getDayOfWeek().getDisplayName(java.time.format.TextStyle.SHORT, java.util.Locale.US);
        String month = day.getMonth().getDisplayName(java.time.format.TextStyle.SHORT, java.util.Locale.US);
        assertTrue(sale.get("creationDate").asText().matches(weekday + " " + month + " 15 0[56]:00:00 E[SD]T " + day.getYear()),
                sale.get("creationDate").asText());
        assertTrue(sale.has("refundDate"));
        Money.assertAmount("12", sale.get("price").get("refunded"));
    }

    @Test
    void putSalesRefundsWithTheDateAndAmountSent() {
        JsonNode sale = order("{\"email\":\"carl@example.com\",\"items\":[{\"name\":\"Refundable\",\"price\":20}]}").get(0);
        JsonNode updated = processed(key, "PUT", "/api/v1.0/sales?ids=" + list(id(sale)) + "&isRefunded=true&refundedDate=2026-01-05T12:00:00&refundedAmount=7.5", null, "UPDATE_SALE").get(0);
        assertEquals("Mon Jan 05 07:00:00 EST 2026", updated.get("refundDate").asText(), "no offset = UTC, shown in the account zone");
        Money.assertAmount("7.5", updated.get("price").get("refunded"));
        JsonNode undone = write(key, "PUT", "/api/v1.0/sales?ids=" + list(id(sale)) + "&isRefunded=false", null).get("result").get(0);
        assertFalse(undone.has("refundDate"));
        Money.assertAmount("0", undone.get("price").get("refunded"));
        JsonNode recurring = write(key, "PUT", "/api/v1.0/sales?ids=" + list(id(sale)) + "&isRecurringSale=true", null).get("result").get(0);
        assertTrue(recurring.get("recurring").asBoolean());
    }

    @Test
    void theResultOfUpdateSaleIsTheArrayOfTheOrdersSales() {
        JsonNode sales = order("{\"email\":\"eve@example.com\",\"items\":[{\"name\":\"Pair One\",\"price\":1},{\"name\":\"Pair Two\",\"price\":2}]}");
        JsonNode result = write(key, "PUT", "/api/v1.0/sales?ids=" + list(id(sales.get(1))) + "&isRefunded=true", null).get("result");
        assertEquals(2, result.size());
        assertEquals(id(sales.get(0)), id(result.get(0)));
        assertFalse(result.get(0).has("refundDate"));
        assertTrue(result.get(1).has("refundDate"));
        Money.assertAmount("2", result.get(1).get("price").get("refunded"));
    }

    @Test
    void putSalesValidatesItsQueryString() {
        assertEquals("Missing required parameter: ids", put(key, "/api/v1.0/sales?isRefunded=true", null).message());
        assertEquals("Invalid isRefunded 'maybe'. Accepted values: true, false",
                put(key, "/api/v1.0/sales?ids=" + list("x") + "&isRefunded=maybe", null).message());
        assertEquals("Invalid date format.", put(key, "/api/v1.0/sales?ids=" + list("x") + "&refundedDate=yesterday", null).message());
        assertEquals("Invalid refundedAmount: ten", put(key, "/api/v1.0/sales?ids=" + list("x") + "&refundedAmount=ten", null).message());
        String[] many = new String[51];
        java.util.Arrays.setAll(many, i -> "id" + i);
        assertEquals("The maximum number of ids to be provided is 50", put(key, "/api/v1.0/sales?ids=" + list(many), null).message());
        JsonNode unknown = write(key, "PUT", "/api/v1.0/sales?ids=" + list("sle_none") + "&isRefunded=true", null);
        assertEquals("FAILED", unknown.get("status").asText());
        assertEquals("Sale not found", unknown.get("errorMessage").asText());
    }

    @Test
    void deleteSaleRemovesItFromTheList() {
        JsonNode sale = order("{\"email\":\"dora@example.com\",\"items\":[{\"name\":\"Deletable\",\"price\":2}]}").get(0);
        JsonNode status = write(key, "DELETE", "/api/v1.0/sales/" + id(sale), null);
        assertEquals("PROCESSED", status.get("status").asText());
        assertFalse(status.has("result"));
        assertEquals(List.of(), ids("?ids=" + list(id(sale))));
        JsonNode again = write(key, "DELETE", "/api/v1.0/sales/" + id(sale), null);
        assertEquals("Sale not found", again.get("errorMessage").asText());
    }
}
