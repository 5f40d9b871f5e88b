package dev.attribution.server.leads;

import com.fasterxml.jackson.databind.JsonNode;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/** GET /leads (spec 4.1): every filter, paging and the date-range messages of 7.2. */
@MicronautTest
class LeadListFilterTest extends LeadsApiTest {

    String key;
    String annId;
    /** An account of its own for the '+' cases, so the counts of the other tests stay. */
    String plusKey;

    @BeforeAll
    void data() {
        key = newAccount();
        annId = write(key, "POST", "/api/v1.0/leads", """
                {"email":"ann@alpha.com","tags":["!webinar","@fb"],"tagsDate":"2024-03-10T12:00:00Z","stage":"Hot",
                 "phoneNumbers":["+1 (212) 555-0101"]}""").get("result").get("id").asText();
        write(key, "POST", "/api/v1.0/leads", """
                {"email":"bob@alpha.com","tags":"$course","tagsDate":"2024-05-01T12:00:00Z","stage":"cold"}""");
        write(key, "POST", "/api/v1.0/leads", """
                {"email":"cid@beta.org","tags":["!webinar"],"phoneNumbers":"2125550199"}""");
        plusKey = newAccount();
        write(plusKey, "POST", "/api/v1.0/leads", "{\"email\":\"dee+news@gamma.net\"}");
        write(plusKey, "POST", "/api/v1.0/leads", "{\"email\":\"eve@gamma.net\"}");
    }

    private List<String> emails(String query) {
        Response r = get(key, "/api/v1.0/leads?" + query);
        assertEquals(200, r.status(), r.raw());
        List<String> out = new ArrayList<>();
        r.body().get("result").forEach(l -> out.add(l.get("email").asText()));
        return out;
    }

    @Test
    void ids() {
        assertEquals(List.of("ann@alpha.com"), emails("ids=" + list(annId, "ld_missing")));
    }

    @Test
    void emailsExactAndPrefixes() {
        assertEquals(List.of("ann@alpha.com", "bob@alpha.com"), emails("emails=" + list("ANN@alpha.com", "bob")));
        assertEquals(List.of("cid@beta.org"), emails("emails=" + list("cid@beta.org")));
    }

    @Test
    void aRawPlusInAQuotedEmailIsAPlus() {
        String other = plusKey;
        java.util.function.Function<String, List<String>> emailsOf = query -> {
            Response r = get(other, "/api/v1.0/leads?" + query);
            assertEquals(200, r.status(), r.raw());
            List<String> out = new ArrayList<>();
            r.body().get("result").forEach(l -> out.add(l.get("email").asText()));
            return out;
        };
        // hand-built query strings (docs/clients.md): the '+' unencoded, the quotes raw or encoded
        assertEquals(List.of("dee+news@gamma.net"), emailsOf.apply("emails=%22dee+news@gamma.net%22"));
        assertEquals(List.of("dee+news@gamma.net"), emailsOf.apply("emails=%22dee%2Bnews%40gamma.net%22"));
        // a form encoder's ", " between the values is still a separator
        assertEquals(List.of("dee+news@gamma.net", "eve@gamma.net"),
                emailsOf.apply("emails=%22eve%40gamma.net%22%2C+%22dee%2Bnews%40gamma.net%22"));
    }

    @Test
    void phonesMatchOnLastDigits() {
        assertEquals(List.of("ann@alpha.com"), emails("phones=" + list("2125550101")));
        assertEquals(List.of("ann@alpha.com"), emails("phones=" + list("555-0101")));
        assertEquals(List.of("cid@beta.org"), emails("phones=" + list("+1 212 555 0199")));
    }

    @Test
    void tagsAnyMatchExactIncludingPrefix() {
        assertEquals(List.of("ann@alpha.com", "bob@alpha.com"), emails("tags=" + list("@fb", "$course")));
        assertEquals(List.of(), emails("tags=" + list("webinar")));
    }

    @Test
    void tagDatesAlone() {
        assertEquals(List.of("ann@alpha.com"), emails("tagFromDate=2024-03-01&tagToDate=2024-03-31"));
        assertEquals(List.of("bob@alpha.com"), emails("tagFromDate=2024-04-01&tagToDate=2024-06-01"));
    }

    @Test
    void tagDatesWithTagsNeedThatTagInsideThePeriod() {
        assertEquals(List.of("ann@alpha.com"), emails("tags=" + list("!webinar") + "&tagFromDate=2024-03-01&tagToDate=2024-03-31"));
        assertEquals(List.of(), emails("tags=" + list("$course") + "&tagFromDate=2024-03-01&tagToDate=2024-03-31"));
    }

    @Test
    void tagFromLaterThanTagToIs400() {
        Response r = get(key, "/api/v1.0/leads?tagFromDate=2024-03-02&tagToDate=2024-03-01");
        assertEquals(400, r.status());
        assertEquals("tagFromDate cannot be later than tagToDate", r.message());
    }

    @Test
    void stageCaseInsensitive() {
        assertEquals(List.of("ann@alpha.com", "bob@alpha.com"), emails("stage=" + list("HOT", "Cold")));
        assertEquals(List.of(), emails("stage=" + list("lukewarm")));
    }

    @Test
    void joinDateRange() {
        String today = LocalDate.now(ZoneId.of("America/New_York")).toString();
        assertEquals(3, emails("fromDate=" + today + "&toDate=" + today).size());
        assertEquals(0, emails("toDate=2020-01-01").size());
    }

    @Test
    void fromLaterThanToIs400() {
        Response r = get(key, "/api/v1.0/leads?fromDate=2024-03-02&toDate=2024-03-01");
        assertEquals(400, r.status());
        assertEquals("fromDate cannot be later than toDate", r.message());
    }

    @Test
    void updatedRange() {
        assertEquals(0, emails("updatedToDate=2020-01-01").size());
        String today = LocalDate.now(ZoneId.of("America/New_York")).toString();
        assertEquals(3, emails("updatedFromDate=" + today).size());
        Response r = get(key, "/api/v1.0/leads?updatedFromDate=2024-03-02&updatedToDate=2024-03-01");
        assertEquals(400, r.status());
        assertEquals("updatedFromDate cannot be later than updatedToDate", r.message());
    }

    @Test
    void futureMonthIs400NamingTheBound() {
        LocalDate next = LocalDate.now(ZoneId.of("America/New_York")).plusMonths(1).withDayOfMonth(1);
        Response r = get(key, "/api/v1.0/leads?toDate=" + next);
        assertEquals(400, r.status());
        assertEquals("'toDate' cannot be in a future month: " + next, r.message());
        Response f = get(key, "/api/v1.0/leads?fromDate=" + next);
        assertEquals("'fromDate' cannot be in a future month: " + next, f.message());
    }

    @Test
    void pagingWalksEveryLeadOnce() {
        Response first = get(key, "/api/v1.0/leads?pageSize=2");
        assertEquals(200, first.status(), first.raw());
        assertEquals(2, first.body().get("result").size());
        String next = first.body().get("nextPageId").asText();
        Response second = get(key, "/api/v1.0/leads?pageSize=2&pageId=" + enc(next));
        assertEquals(1, second.body().get("result").size());
        assertNull(second.body().get("nextPageId").textValue());
        assertEquals("cid@beta.org", second.body().get("result").get(0).get("email").asText());
    }

    @Test
    void tagFilteredPagesWalkHoldersOfAnyTagOnceInJoinOrder() {
        // ann holds !webinar and @fb (counted once), cid holds !webinar, bob holds neither
        String tags = "tags=" + list("!webinar", "@fb");
        Response first = get(key, "/api/v1.0/leads?pageSize=1&" + tags);
        assertEquals(List.of("ann@alpha.com"), List.of(first.body().get("result").get(0).get("email").asText()));
        Response second = get(key, "/api/v1.0/leads?pageSize=1&" + tags + "&pageId=" + enc(first.body().get("nextPageId").asText()));
        assertEquals(1, second.body().get("result").size());
        assertEquals("cid@beta.org", second.body().get("result").get(0).get("email").asText());
        assertNull(second.body().get("nextPageId").textValue());
        assertEquals(List.of("cid@beta.org"), emails(tags + "&fromDate=" + enc(java.time.LocalDate.now().minusDays(1).toString())
                + "&tagFromDate=2024-06-01"));
    }

    @Test
    void pageIdOfAnotherQueryIs400() {
        String next = get(key, "/api/v1.0/leads?pageSize=1").body().get("nextPageId").asText();
        Response r = get(key, "/api/v1.0/leads?pageSize=1&tags=" + list("!webinar") + "&pageId=" + enc(next));
        assertEquals(400, r.status());
        assertEquals("Invalid pageId", r.message());
    }

    @Test
    void pageSizeOutOfRangeIs400() {
        assertEquals(400, get(key, "/api/v1.0/leads?pageSize=251").status());
        assertEquals(400, get(key, "/api/v1.0/leads?pageSize=0").status());
    }

    @Test
    void moreThanFiftyIdsIs400() {
        String[] ids = new String[51];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = "id" + i;
        }
        Response r = get(key, "/api/v1.0/leads?ids=" + list(ids));
        assertEquals(400, r.status());
        assertEquals("The maximum number of ids to be provided is 50", r.message());
    }

    @Test
    void itemIsLeadWithStageAndSource() {
        JsonNode ann = get(key, "/api/v1.0/leads?ids=" + list(annId)).body().get("result").get(0);
        assertEquals("Hot", ann.get("currentStage").get("name").asText());
        assertNotNull(ann.get("firstSource"));
        assertEquals("@fb", ann.get("firstSource").get("tag").asText());
        assertEquals("fb", ann.get("firstSource").get("name").asText());
        assertEquals("2024-03-10T08:00:00-04:00", ann.get("firstSource").get("clickDate").asText());
        assertEquals("UNSPECIFIED", ann.get("adOptimizationConsent").asText());
    }
}
