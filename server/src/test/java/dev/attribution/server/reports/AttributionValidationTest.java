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
        key = newAccount("UTC", dev.attribution.api.auth.Roles.ALL);
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
        bad(sci + "&dayOfAttribution=true", "dayOfAttribution is not supported yet with attributionModel scientific");
        String options = "timeGroupingOption, status, isAdAccountId, newCustomerConfiguration, ignoreRecurringSales, "
                + "excludeHardCosts and lead_stage are not supported yet with attributionModel scientific";
        bad(sci + "&timeGroupingOption=day", options);
        bad(sci + "&ignoreRecurringSales=true", options);
        assertEquals(200, call(sci + "&timeGroupingOption=source_link").status(), "the default grouping is fine");
    }

    @Test
    void role() {
        String other = newAccount("UTC", List.of("Get Leads"));
        assertEquals(403, get(other, "/api/v1.0/attribution?" + OK).status());
    }
}
