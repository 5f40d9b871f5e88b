package dev.attribution.server.leads;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.testing.TestStack;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** POST /clicks (spec 4.11), GET /leads/clicks (4.1), a lead's first/last source (2.6), clicks in ClickHouse. */
@MicronautTest
class ClicksTest extends LeadsApiTest {

    String key;

    @BeforeAll
    void account() {
        key = newAccount();
    }

    private static String daysAgo(int days) {
        return Instant.now().minus(days, ChronoUnit.DAYS).truncatedTo(ChronoUnit.SECONDS).toString();
    }

    private String message(String body) {
        Response r = post(key, "/api/v1.0/clicks", body);
        assertEquals(400, r.status(), r.raw());
        return r.message();
    }

    @Test
    void validation() {
        assertEquals("Missing required field: referrerUrl", message("{\"ip\":\"1.1.1.1\"}"));
        assertEquals("Invalid sourceLinkTag 'fb': it must start with @", message("{\"referrerUrl\":\"https://a.test\",\"sourceLinkTag\":\"fb\"}"));
        assertEquals("Invalid integrationType 'MYSPACE'. Accepted values: GOOGLE, GOOGLE_V2, FACEBOOK, TIKTOK, SNAPCHAT, LINKEDIN, TWITTER, PINTEREST, BING",
                message("{\"referrerUrl\":\"https://a.test\",\"integrationType\":\"MYSPACE\",\"adSourceId\":\"1\"}"));
        assertEquals("Missing required field: adSourceId", message("{\"referrerUrl\":\"https://a.test\",\"integrationType\":\"FACEBOOK\"}"));
        assertEquals("Invalid field: adspendAdId is only accepted with integrationType GOOGLE, GOOGLE_V2 or FACEBOOK",
                message("{\"referrerUrl\":\"https://a.test\",\"integrationType\":\"TIKTOK\",\"adSourceId\":\"1\",\"adspendAdId\":\"9\"}"));
        assertEquals("Invalid date format.", message("{\"referrerUrl\":\"https://a.test\",\"date\":\"2024-13-01\"}"));
    }

    @Test
    void clickWithEmailCreatesTheLeadAndIsItsSource() {
        JsonNode s = write(key, "POST", "/api/v1.0/clicks", """
                {"referrerUrl":"https://shop.test/p?utm_source=fb&fbclid=abc","email":"clicker@example.com","sourceLinkTag":"@fb-ad",
                 "integrationType":"FACEBOOK","adSourceId":"120001","adspendAdId":"777","adSourceClickId":"abc","ip":"7.7.7.7",
                 "tag":"!clicked","date":"2024-05-05T10:00:00Z","userAgent":"UA"}""");
        assertEquals("PROCESSED", s.get("status").asText(), s.toString());
        assertEquals("CREATE_CLICK", s.get("eventType").asText());
        JsonNode click = s.get("result");
        assertTrue(click.get("id").asText().startsWith("clk_"));
        assertEquals("clicker@example.com", click.get("email").asText());
        assertEquals("Sun May 05 06:00:00 EDT 2024", click.get("date").asText());
        assertEquals("FACEBOOK", click.get("adspendType").asText());
        assertEquals(120001, click.get("adSpendId").asLong());
        assertEquals("fb", click.get("parsedParameters").get("utm_source").asText());
        assertEquals("UA", click.get("agent").asText());
        JsonNode lead = get(key, "/api/v1.0/leads?emails=" + list("clicker@example.com")).body().get("result").get(0);
        assertEquals(click.get("leadId").asText(), lead.get("id").asText());
        assertTrue(lead.get("tags").toString().contains("@fb-ad") && lead.get("tags").toString().contains("!clicked"));
        JsonNode first = lead.get("firstSource");
        assertEquals("@fb-ad", first.get("tag").asText());
        assertEquals(click.get("id").asText(), first.get("clickId").asText());
        assertEquals("120001", first.get("adSource").get("adSourceId").asText());
        assertEquals("FACEBOOK", first.get("adSource").get("platform").asText());
        assertEquals("777", first.get("sourceLinkAd").get("adSourceId").asText());
        assertEquals("2024-05-05T06:00:00-04:00", first.get("clickDate").asText());
    }

    @Test
    void firstAndLastSourceFollowClicksAndSourceTags() {
        write(key, "POST", "/api/v1.0/leads", "{\"email\":\"journey@example.com\",\"tags\":\"@organic\",\"tagsDate\":\"2024-01-01T00:00:00Z\"}");
        write(key, "POST", "/api/v1.0/clicks", "{\"referrerUrl\":\"https://a.test\",\"email\":\"journey@example.com\",\"sourceLinkTag\":\"@google\",\"date\":\"2024-02-01T00:00:00Z\"}");
        write(key, "POST", "/api/v1.0/clicks", "{\"referrerUrl\":\"https://a.test\",\"email\":\"journey@example.com\",\"sourceLinkTag\":\"@organic\",\"date\":\"2024-03-01T00:00:00Z\"}");
        JsonNode lead = get(key, "/api/v1.0/leads?emails=" + list("journey@example.com")).body().get("result").get(0);
        assertEquals("@organic", lead.get("firstSource").get("tag").asText());
        assertEquals("@organic", lead.get("lastSource").get("tag").asText());
        assertEquals("2024-02-29T19:00:00-05:00", lead.get("lastSource").get("clickDate").asText());
        JsonNode agg = await(() -> {
            JsonNode r = get(key, "/api/v1.0/leads/aggregation?attribute=LAST_SOURCE_TAG&emails=" + list("journey@example.com")).body().get("result");
            return r.get("groups").size() == 1 && r.get("groups").get(0).get("key").asText().equals("@organic") ? r : null;
        });
        assertEquals(1, agg.get("totalCount").asLong());
        JsonNode firstAgg = get(key, "/api/v1.0/leads/aggregation?attribute=FIRST_SOURCE_TAG&emails=" + list("journey@example.com")).body().get("result");
        assertEquals("@organic", firstAgg.get("groups").get(0).get("key").asText());
    }

    @Test
    void clicksReachClickHouse() {
        String date = daysAgo(5);
        JsonNode s = write(key, "POST", "/api/v1.0/clicks", "{\"referrerUrl\":\"https://ch.test\",\"ip\":\"3.3.3.3\",\"date\":\"" + date + "\"}");
        String id = s.get("result").get("id").asText();
        String db = TestStack.get().clickhouseDatabase();
        String partition = await(() -> {
            String p = TestStack.get().clickhouse("SELECT toYYYYMM(click_date) FROM " + db + ".clicks WHERE id = '" + id + "' FORMAT TabSeparated").trim();
            return p.isEmpty() ? null : p;
        });
        assertEquals(date.substring(0, 7).replace("-", ""), partition);
    }

    @Test
    void unassignedClickConnectsWhenALeadWithItsIpAppears() {
        JsonNode s = write(key, "POST", "/api/v1.0/clicks", "{\"referrerUrl\":\"https://a.test\",\"ip\":\"8.8.4.4\",\"sourceLinkTag\":\"@tiktok\"}");
        assertEquals("", s.get("result").get("leadId").asText(), "empty until connected");
        assertEquals("", s.get("result").get("email").asText());
        write(key, "POST", "/api/v1.0/leads", "{\"email\":\"late@example.com\",\"leadIps\":[\"8.8.4.4\"]}");
        JsonNode clicks = get(key, "/api/v1.0/leads/clicks?emails=" + list("late@example.com")).body().get("result");
        assertEquals(1, clicks.size());
        assertEquals("late@example.com", clicks.get(0).get("email").asText());
        JsonNode lead = get(key, "/api/v1.0/leads?emails=" + list("late@example.com")).body().get("result").get(0);
        assertEquals("@tiktok", lead.get("firstSource").get("tag").asText());
    }

    @Test
    void clickFromAKnownLeadsIpIsConnected() {
        write(key, "POST", "/api/v1.0/leads", "{\"email\":\"ipknown@example.com\",\"leadIps\":[\"5.5.5.5\"]}");
        JsonNode s = write(key, "POST", "/api/v1.0/clicks", "{\"referrerUrl\":\"https://a.test\",\"ip\":\"5.5.5.5\"}");
        assertEquals("ipknown@example.com", s.get("result").get("email").asText());
    }

    @Test
    void unassignedClicksOlderThan90DaysAreDeleted() {
        String old = write(key, "POST", "/api/v1.0/clicks", "{\"referrerUrl\":\"https://old.test\",\"ip\":\"6.6.6.1\",\"date\":\"" + daysAgo(91) + "\"}")
                .get("result").get("id").asText();
        write(key, "POST", "/api/v1.0/clicks", "{\"referrerUrl\":\"https://new.test\",\"ip\":\"6.6.6.2\"}");
        assertEquals("0", Db.one("SELECT count(*) FROM clicks WHERE id = '" + old + "'"));
    }

    @Test
    void selectorRuleExactlyOne() {
        Response none = get(key, "/api/v1.0/leads/clicks");
        assertEquals(400, none.status());
        assertEquals("Exactly one of 'leadId', 'leadIds' or 'emails' must be provided.", none.message());
        Response two = get(key, "/api/v1.0/leads/clicks?leadId=x&emails=" + list("a@b.c"));
        assertEquals(400, two.status());
        assertEquals("Exactly one of 'leadId', 'leadIds' or 'emails' must be provided.", two.message());
    }

    @Test
    void oldestFirstAcrossLeadsWithDefaultLowerBoundAndPaging() {
        String a = write(key, "POST", "/api/v1.0/clicks", "{\"referrerUrl\":\"https://1.test\",\"email\":\"ca@example.com\",\"date\":\"" + daysAgo(30) + "\"}")
                .get("result").get("leadId").asText();
        String b = write(key, "POST", "/api/v1.0/clicks", "{\"referrerUrl\":\"https://2.test\",\"email\":\"cb@example.com\",\"date\":\"" + daysAgo(60) + "\"}")
                .get("result").get("leadId").asText();
        write(key, "POST", "/api/v1.0/clicks", "{\"referrerUrl\":\"https://3.test\",\"email\":\"ca@example.com\",\"date\":\"" + daysAgo(10) + "\"}");
        write(key, "POST", "/api/v1.0/clicks", "{\"referrerUrl\":\"https://too-old.test\",\"email\":\"ca@example.com\",\"date\":\"" + daysAgo(120) + "\"}");
        List<String> urls = new ArrayList<>();
        Response first = get(key, "/api/v1.0/leads/clicks?pageSize=2&leadIds=" + list(a, b, "ld_missing"));
        assertEquals(200, first.status(), first.raw());
        first.body().get("result").forEach(c -> urls.add(c.get("trackedUrl").asText()));
        String next = first.body().get("nextPageId").asText();
        Response second = get(key, "/api/v1.0/leads/clicks?pageSize=2&leadIds=" + list(a, b, "ld_missing") + "&pageId=" + enc(next));
        second.body().get("result").forEach(c -> urls.add(c.get("trackedUrl").asText()));
        assertEquals(List.of("https://2.test", "https://1.test", "https://3.test"), urls, "90 days before the earliest join by default");
        Response explicit = get(key, "/api/v1.0/leads/clicks?leadId=" + a + "&fromDate=2020-01-01");
        assertEquals(3, explicit.body().get("result").size());
        assertEquals("https://too-old.test", explicit.body().get("result").get(0).get("trackedUrl").asText());
        assertEquals(b, get(key, "/api/v1.0/leads/clicks?email=cb@example.com").body().get("result").get(0).get("leadId").asText());
    }

    @Test
    void unresolvableLeadGivesEmptyResult() {
        Response r = get(key, "/api/v1.0/leads/clicks?leadId=ld_nobody");
        assertEquals(200, r.status());
        assertEquals(0, r.body().get("result").size());
    }

    @Test
    void dateRangeRules() {
        Response r = get(key, "/api/v1.0/leads/clicks?leadId=x&fromDate=2024-02-02&toDate=2024-02-01");
        assertEquals("fromDate cannot be later than toDate", r.message());
        Response f = get(key, "/api/v1.0/leads/clicks?leadId=x&toDate=2099-01-01");
        assertEquals("'toDate' cannot be in a future month: 2099-01-01", f.message());
    }
}
