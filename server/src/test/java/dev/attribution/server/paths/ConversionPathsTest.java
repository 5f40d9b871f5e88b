package dev.attribution.server.paths;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.ApiDates;
import dev.attribution.api.auth.Roles;
import dev.attribution.server.support.ApiTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * GET /conversion-paths (spec 4.4, 2.16) over a small hand-built data set written through POST /clicks, /orders and
 * /calls and read back from ClickHouse after CDC.
 *
 * Data (account in America/New_York):
 * lead a@paths.test: clicks @p-fb 2026-01-01T10:00Z, @p-google 2026-01-20T10:00Z, @p-late 2026-02-10T10:00Z;
 *   sale 100.00 USD on 2026-02-01T12:00Z, second sale 40.00 on 2026-03-01T12:00Z.
 * lead b@paths.test: click @p-fb 2026-01-05T08:00Z; call on 2026-01-25T15:00Z; no sale.
 */
@MicronautTest(transactional = false)
class ConversionPathsTest extends ApiTest {

    static final ZoneId NY = ZoneId.of("America/New_York");
    static final String BASE = "/api/v1.0/conversion-paths?";

    String key;

    @BeforeAll
    void data() {
        key = newUnthrottledAccount("America/New_York", dev.attribution.api.auth.Roles.ALL);
        click("a@paths.test", "@p-fb", "2026-01-01T10:00:00Z");
        click("a@paths.test", "@p-google", "2026-01-20T10:00:00Z");
        click("a@paths.test", "@p-late", "2026-02-10T10:00:00Z");
        click("b@paths.test", "@p-fb", "2026-01-05T08:00:00Z");
        write(key, "POST", "/api/v1.0/orders", "{\"email\":\"a@paths.test\",\"orderId\":\"paths-1\",\"date\":\"2026-02-01T12:00:00Z\","
                + "\"hardCost\":3.50,\"items\":[{\"name\":\"Widget\",\"price\":100}]}");
        write(key, "POST", "/api/v1.0/orders", "{\"email\":\"a@paths.test\",\"orderId\":\"paths-2\",\"date\":\"2026-03-01T12:00:00Z\","
                + "\"items\":[{\"name\":\"Widget\",\"price\":40}]}");
        write(key, "POST", "/api/v1.0/calls", "{\"name\":\"Paths call\",\"email\":\"b@paths.test\",\"date\":\"2026-01-25T15:00:00Z\"}");
        // CDC: wait until every conversion and every touch is in ClickHouse
        await(() -> rows("conversionType=SALE").size() == 2 && rows("conversionType=CALL").size() == 1
                && rows("conversionType=SALE").get(1).get("path").size() == 3 && rows("conversionType=CALL").get(0).get("path").size() == 1 ? true : null);
    }

    private void click(String email, String tag, String date) {
        JsonNode s = write(key, "POST", "/api/v1.0/clicks", "{\"referrerUrl\":\"https://shop.test/\",\"email\":\"" + email
                + "\",\"sourceLinkTag\":\"" + tag + "\",\"date\":\"" + date + "\"}");
        assertEquals("PROCESSED", s.get("status").asText(), s.toString());
    }

    private List<JsonNode> rows(String query) {
        Response r = get(key, BASE + query);
        assertEquals(200, r.status(), r.raw());
        List<JsonNode> out = new ArrayList<>();
        r.body().get("result").forEach(out::add);
        return out;
    }

    private static List<String> tags(JsonNode row) {
        List<String> out = new ArrayList<>();
        row.get("path").forEach(t -> out.add(t.get("tag").asText()));
        return out;
    }

    private static String ny(String instant) {
        return ApiDates.format(Instant.parse(instant), NY);
    }

    private String error(String query) {
        Response r = get(key, BASE + query);
        assertEquals(400, r.status(), r.raw());
        return r.message();
    }

    @Test
    void salePathsAreTheTouchesBeforeEachSaleInClickOrder() {
        List<JsonNode> sales = rows("conversionType=SALE");
        JsonNode first = sales.get(0);
        assertTrue(first.get("id").asText().startsWith("sle-sle_"), first.toString());
        assertEquals(ny("2026-02-01T12:00:00Z"), first.get("creationDate").asText());
        assertEquals(List.of("@p-fb", "@p-google"), tags(first));
        JsonNode touch = first.get("path").get(0);
        assertEquals("p-fb", touch.get("name").asText());
        assertEquals(ny("2026-01-01T10:00:00Z"), touch.get("clickDate").asText());
        assertTrue(touch.get("clickId").asText().startsWith("clk_"));
        assertFalse(touch.get("disregarded").asBoolean());
        assertFalse(touch.get("organic").asBoolean());
        assertEquals("USD", first.get("price").get("currency").asText());
        assertEquals(100.0, first.get("price").get("price").asDouble());
        assertEquals(3.5, first.get("price").get("hardCost").asDouble());
        assertEquals(0.0, first.get("price").get("refunded").asDouble());
        assertEquals(100.0, first.get("usdPrice").get("price").asDouble());
        assertTrue(first.get("firstSale").asBoolean());
        JsonNode second = sales.get(1);
        assertEquals(List.of("@p-fb", "@p-google", "@p-late"), tags(second));
        assertFalse(second.get("firstSale").asBoolean());
        assertEquals(first.get("leadId"), second.get("leadId"));
    }

    @Test
    void windowLeavesOutOlderTouches() {
        // 2026-02-01T12:00Z minus 15 days = 2026-01-17T12:00Z: keeps 01-20, drops 01-01
        assertEquals(List.of("@p-google"), tags(rows("conversionType=SALE&windowAttributionDaysRange=15").get(0)));
        // minus 31 days = 2026-01-01T12:00Z: the 10:00 click is older
        assertEquals(List.of("@p-google"), tags(rows("conversionType=SALE&windowAttributionDaysRange=31").get(0)));
        assertEquals(List.of("@p-fb", "@p-google"), tags(rows("conversionType=SALE&windowAttributionDaysRange=32").get(0)));
        assertEquals(List.of(), tags(rows("conversionType=SALE&windowAttributionDaysRange=1").get(0)));
    }

    @Test
    void callRowsCarryCllIdsAndLeadRowsHaveNoPrice() {
        JsonNode call = rows("conversionType=CALL").get(0);
        assertTrue(call.get("id").asText().startsWith("cll-cll_"), call.toString());
        assertEquals(ny("2026-01-25T15:00:00Z"), call.get("creationDate").asText());
        assertEquals(List.of("@p-fb"), tags(call));
        assertTrue(call.get("firstSale").asBoolean());
        assertNotNull(call.get("price"));
        List<JsonNode> leads = rows("conversionType=LEAD");
        assertEquals(2, leads.size());
        for (JsonNode lead : leads) {
            assertEquals(lead.get("id"), lead.get("leadId"));
            assertNull(lead.get("price"));
            assertNull(lead.get("usdPrice"));
            assertNull(lead.get("firstSale"));
        }
    }

    @Test
    void dateRangeFiltersOnTheSaleDateInTheAccountZone() {
        // 2026-02-01T12:00Z is 07:00 in New York: the day 2026-02-01 holds it, 2026-01-31 does not
        assertEquals(1, rows("conversionType=SALE&fromDate=2026-02-01&toDate=2026-02-01").size());
        assertEquals(0, rows("conversionType=SALE&fromDate=2026-01-01&toDate=2026-01-31").size());
        assertEquals(1, rows("conversionType=SALE&fromDate=2026-02-15").size());
        assertEquals(1, rows("conversionType=CALL&toDate=2026-01-31").size());
    }

    @Test
    void pagesOverEveryConversion() {
        Response p1 = get(key, BASE + "conversionType=SALE&pageSize=1");
        assertEquals(1, p1.body().get("result").size());
        String next = p1.body().get("nextPageId").asText();
        Response p2 = get(key, BASE + "conversionType=SALE&pageSize=1&pageId=" + enc(next));
        assertEquals(200, p2.status(), p2.raw());
        assertEquals(1, p2.body().get("result").size());
        assertEquals(ny("2026-03-01T12:00:00Z"), p2.body().get("result").get(0).get("creationDate").asText());
        assertTrue(p2.body().get("nextPageId") == null || p2.body().get("nextPageId").isNull());
        assertEquals("Invalid pageId", error("conversionType=SALE&pageSize=1&pageId=garbage"));
        assertEquals("Invalid pageId", error("conversionType=CALL&pageSize=1&pageId=" + enc(next)));
    }

    @Test
    void everyErrorText() {
        assertEquals("Missing required parameter: conversionType", error("fromDate=2026-01-01"));
        assertEquals("Invalid value for parameter conversionType. Allowed values: SALE, CALL, LEAD", error("conversionType=CART"));
        assertEquals("The ids parameter is not supported by this endpoint", error("conversionType=SALE&ids=" + list("x")));
        assertEquals("Invalid days range for window of attribution: 366", error("conversionType=SALE&windowAttributionDaysRange=366"));
        assertEquals("Invalid days range for window of attribution: -1", error("conversionType=SALE&windowAttributionDaysRange=-1"));
        assertEquals("Invalid days range for window of attribution: abc", error("conversionType=SALE&windowAttributionDaysRange=abc"));
        assertEquals(200, get(key, BASE + "conversionType=SALE&windowAttributionDaysRange=365").status());
        assertEquals(200, get(key, BASE + "conversionType=SALE&windowAttributionDaysRange=0").status());
        assertEquals("Unknown parameter: sortBy", error("conversionType=SALE&sortBy=x"));
        assertEquals("Duplicate parameter: conversionType", error("conversionType=SALE&conversionType=CALL"));
        assertEquals("fromDate cannot be later than toDate", error("conversionType=SALE&fromDate=2026-02-02&toDate=2026-02-01"));
        LocalDate nextMonth = LocalDate.now(NY).plusMonths(1).withDayOfMonth(1);
        assertEquals("'toDate' cannot be in a future month: " + nextMonth, error("conversionType=SALE&toDate=" + nextMonth));
        assertEquals(200, get(key, BASE + "conversionType=SALE&toDate=" + LocalDate.now(NY).withDayOfMonth(LocalDate.now(NY).lengthOfMonth())).status());
        assertEquals("Invalid date format.", error("conversionType=SALE&fromDate=2026-13-01"));
        assertEquals("pageSize must be between 1 and 250", error("conversionType=SALE&pageSize=251"));
        assertEquals("pageSize must be between 1 and 250", error("conversionType=SALE&pageSize=0"));
    }

    @Test
    void roleIsRequired() {
        String weak = newAccount("America/New_York", List.of(Roles.GET_ATTRIBUTION));
        Response r = get(weak, BASE + "conversionType=SALE");
        assertEquals(403, r.status(), r.raw());
        assertEquals("Forbidden, missing api key roles | Get Conversion Paths", r.message());
    }
}
