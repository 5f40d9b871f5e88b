package dev.attribution.server.reports;

import dev.attribution.server.support.ApiTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** GET /attribution parameter validation: the exact texts of spec 4.5 and 7.3, the role, the limits. */
@MicronautTest(transactional = false)
class AttributionValidationTest extends ApiTest {

    String key;

    @BeforeAll
    void account() {
        key = newUnthrottledAccount("UTC", dev.attribution.api.auth.Roles.ALL);
    }

    private ApiTest.Response call(String params) {
        return get(key, "/api/v1.0/attribution?" + params);
    }

    private static final String OK = "attributionModel=last_click&startDate=2026-11-01&endDate=2026-11-02&level=facebook_ad&fields=revenue&ids=" + enc("\"a1\"");

    private void bad(String params, String message) {
        ApiTest.Response r = call(params);
        assertEquals(400, r.status(), r.raw());
        assertEquals(message, r.message());
    }

    @Test
    void valid() {
        ApiTest.Response r = call(OK);
        assertEquals(200, r.status(), r.raw());
        assertEquals(0, r.body().get("result").size());
        assertEquals("Id not found at level facebook_ad: a1", r.message());
    }

    @Test
    void model() {
        bad(OK.replace("last_click", "linear"), "Invalid attributionModel: linear. Accepted values: last_click, first_click, scientific");
    }

    @Test
    void dates() {
        bad(OK.replace("endDate=2026-11-02", "endDate=2099-01-01"), "startDate or endDate cannot be in the future.");
        bad(OK.replace("startDate=2026-11-01", "startDate=" + enc("2026-11-01T00:00:00+01:00")), "There was a problem processing the date in the request.");
        bad(OK.replace("startDate=2026-11-01", "startDate=" + enc("2026-11-01T00:00:00.500")), "Invalid start date");
        bad(OK.replace("endDate=2026-11-02", "endDate=" + enc("2026-11-02T00:00:00.500")), "Invalid end date");
    }

    /** Spec 7.2 rule 5 (issue 22 item 12): an inverted range was a 200 with no rows; instants compared, not days. */
    @Test
    void invertedRangesAre400() {
        bad(OK.replace("startDate=2026-11-01", "startDate=2026-11-03"), "startDate cannot be later than endDate");
        bad(OK.replace("startDate=2026-11-01&endDate=2026-11-02", "startDate=" + enc("2026-11-02T10:00:00") + "&endDate="
                + enc("2026-11-02T09:59:59")), "startDate cannot be later than endDate");
        assertEquals(200, call(OK.replace("startDate=2026-11-01&endDate=2026-11-02", "startDate=2026-11-02&endDate=2026-11-02")).status(),
                "a bare date is the whole day at both ends");
        ApiTest.Response adAccount = get(key, "/api/v1.0/attribution/ad-account?attributionModel=last_click&startDate=2026-11-03"
                + "&endDate=2026-11-02&fields=revenue&ids=act1");
        assertEquals(400, adAccount.status(), adAccount.raw());
        assertEquals("startDate cannot be later than endDate", adAccount.message());
    }

    @Test
    void grouping() {
        bad(OK + "&timeGroupingOption=quarter", "Invalid timeGroupingOption: quarter. Accepted values: source_link, day, week, month, year");
    }

    @Test
    void limits() {
        StringBuilder ids = new StringBuilder();
        for (int i = 0; i < 51; i++) {
            ids.append(i == 0 ? "" : ",").append("\"x").append(i).append('"');
        }
        bad(OK.replace("ids=" + enc("\"a1\""), "ids=" + enc(ids.toString())), "The maximum number of ids to be provided is 50");
        assertEquals(400, call(OK + "&pageSize=0").status());
        assertEquals(400, call(OK + "&pageSize=251").status());
        assertEquals(200, call(OK + "&pageSize=250").status());
        assertEquals(400, call(OK + "&windowAttributionDaysRange=366").status());
        assertEquals(400, call(OK + "&sourceConfiguration=paid").status());
        assertEquals(400, call(OK.replace("facebook_ad", "myspace_ad")).status());
        assertEquals(400, call(OK.replace("fields=revenue", "fields=bogus")).status());
    }

    @Test
    void scientific() {
        String sci = OK.replace("last_click", "scientific");
        ApiTest.Response r = call(sci + "&scientificDaysRange=1");
        assertEquals(200, r.status(), r.raw());
        assertEquals("Id not found at level facebook_ad: a1", r.message());
        assertEquals(200, call(sci + "&scientificDaysRange=30").status());
        bad(sci + "&scientificDaysRange=0", "Invalid days range for scientific attribution: 0");
        bad(sci + "&scientificDaysRange=31", "Invalid days range for scientific attribution: 31");
        bad(sci + "&scientificDaysRange=-1", "Invalid days range for scientific attribution: -1");
        bad(sci + "&scientificDaysRange=abc", "Invalid days range for scientific attribution: abc");
        bad(sci + "&scientificDaysRange=2.5", "Invalid days range for scientific attribution: 2.5");
        bad(OK + "&scientificDaysRange=31", "Invalid days range for scientific attribution: 31");
        // every option of the click models is taken, with the click models' rules and messages
        for (String option : List.of("dayOfAttribution=true", "timeGroupingOption=day", "status=active", "ignoreRecurringSales=true",
                "excludeHardCosts=true", "newCustomerConfiguration=only_unique_customers", "timeGroupingOption=source_link")) {
            assertEquals(200, call(sci + "&" + option).status(), option);
        }
        bad(sci + "&timeGroupingOption=day&status=active", "status is only supported with timeGroupingOption source_link");
        bad(sci + "&isAdAccountId=true&timeGroupingOption=week", "isAdAccountId is not supported with timeGroupingOption week");
        bad(sci + "&newCustomerConfiguration=new", "Invalid newCustomerConfiguration: new. Accepted values: all_customers, "
                + "only_returning_customers, only_unique_customers");
    }

    @Test
    void keywordsIdsGrammar() {
        String kw = OK.replace("facebook_ad", "google_keyword").replace("&ids=" + enc("\"a1\""), "");
        for (String ok : List.of("123:[1,2]", "123:[1,2],456:[3]", " 123 : [ 1 , 2 ] ", "\"123\":[\"1\"]", "123:[1,1]")) {
            ApiTest.Response r = call(kw + "&keywordsIds=" + enc(ok));
            assertEquals(200, r.status(), ok + ": " + r.raw());
        }
        ApiTest.Response unknown = call(kw + "&keywordsIds=" + enc("123:[1],456:[3]"));
        assertEquals("Id not found at level google_keyword: 123:1", unknown.body().get("message").get(0).asText(), unknown.raw());
        String shape = ". Expected <adGroupId>:[<keywordId>,...] separated by commas";
        for (String wrong : List.of("123", "123:1", "123:[]", "123:[1,]", "123:[1],", ":[1]", "123:[1]x", "123:[1]456:[2]", "123:[[1]]", "a:b:[1]")) {
            bad(kw + "&keywordsIds=" + enc(wrong), "Invalid keywordsIds: " + wrong + shape);
        }
        StringBuilder many = new StringBuilder("1:[");
        for (int i = 0; i < 51; i++) {
            many.append(i == 0 ? "" : ",").append(i);
        }
        bad(kw + "&keywordsIds=" + enc(many + "]"), "The maximum number of keywordsIds to be provided is 50");
        bad(kw, "Missing required parameter: keywordsIds");
        bad(kw + "&keywordsIds=1:[2]&status=active", "status is not supported at level google_keyword");
        bad(kw + "&keywordsIds=1:[2]&isAdAccountId=true", "isAdAccountId is not supported at level google_keyword");
    }

    @Test
    void role() {
        String other = newAccount("UTC", List.of("Get Leads"));
        assertEquals(403, get(other, "/api/v1.0/attribution?" + OK).status());
    }
}
