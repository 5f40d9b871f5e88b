package dev.attribution.server.marketing;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.auth.Roles;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** URL rules (spec 4.9, 2.15, 3.2): synchronous writes, every validation message, flavours and paging. */
@MicronautTest(transactional = false)
class UrlRulesApiTest extends AccountApiTest {

    static final String PATH = "/api/v1.0/url-rules";
    static String body(String tag, String word) {
        return """
                {"name":"Rule %s","tag":"%s","wordsToMatch":["%s"],"sourceRuleTypes":["REFERRER_URL"]}""".formatted(word, tag, word);
    }

    String create(String json) {
        Response r = post(key, PATH, json);
        assertEquals(200, r.status(), r.raw());
        return r.body().get("result").asText();
    }

    JsonNode one(String id) {
        Response r = get(key, PATH + "/" + id);
        assertEquals(200, r.status(), r.raw());
        assertEquals(1, r.body().get("result").size(), r.raw());
        return r.body().get("result").get(0);
    }

    void assertError(Response r, String message) {
        assertEquals(400, r.status(), r.raw());
        assertEquals("ERROR", r.body().get("result").asText());
        assertEquals(message, r.message());
    }

    void postError(String json, String message) {
        assertError(post(key, PATH, json), message);
    }

    @Test
    void createAnswersAnOpaqueIdAndTheRuleReadsBack() {
        String id = create("""
                {"name":"FB","tag":"@facebook","wordsToMatch":["facebook","fbclid"],"sourceRuleTypes":["PREVIOUS_URL","REFERRER_URL"],
                 "wordsNotToMatch":["organic"],"applyBaseDomain":true,"disregardSource":true,"trafficSourceToMatch":["utm_source"],
                 "sourceCategory":"Paid","scores":[{"keywords":["vip"],"score":7}]}""");
        assertTrue(id.matches("ur-[0-9a-f]{16}"), id);
        JsonNode rule = one(id);
        assertEquals(id, rule.get("id").asText());
        assertEquals("FB", rule.get("name").asText());
        assertEquals("@facebook", rule.get("tag").asText());
        assertEquals("[\"facebook\",\"fbclid\"]", rule.get("wordsToMatch").toString());
        assertEquals("[\"organic\"]", rule.get("wordsNotToMatch").toString());
        assertEquals("[\"PREVIOUS_URL\",\"REFERRER_URL\"]", rule.get("sourceRuleTypes").toString());
        assertTrue(rule.get("applyBaseDomain").asBoolean());
        assertTrue(rule.get("disregardSource").asBoolean());
        assertEquals("[\"utm_source\"]", rule.get("trafficSourceToMatch").toString());
        assertEquals("Paid", rule.get("sourceCategory").asText());
        assertEquals(7, rule.get("scores").get(0).get("score").asInt());
        assertEquals("SOURCE_LINK", rule.get("urlRuleActionType").asText());
        assertEquals("SIMPLE", rule.get("urlRuleType").asText());
        assertTrue(rule.get("isEnabled").asBoolean());
        assertFalse(rule.get("createLeadStage").asBoolean());
        assertTrue(rule.get("creationDate").asText().matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ"), rule.toString());
    }

    @Test
    void emptyListsAndAbsentCategoriesAreOmitted() {
        JsonNode rule = one(create(body("!clicked", "pricing")));
        assertFalse(rule.has("wordsNotToMatch"));
        assertFalse(rule.has("trafficSourceToMatch"));
        assertFalse(rule.has("sourceCategoryToMatch"));
        assertFalse(rule.has("trafficSourceCategory"));
        assertFalse(rule.has("sourceCategory"));
        assertFalse(rule.has("scores"));
        assertEquals("ACTION", rule.get("urlRuleActionType").asText());
        assertFalse(rule.get("applyBaseDomain").asBoolean());
    }

    @Test
    void prefixGivesTheFlavour() {
        assertEquals("SALE", one(create(body("$sale", "checkout"))).get("urlRuleActionType").asText());
        assertEquals("SUBSCRIPTION", one(create(body("#sub", "subscribe"))).get("urlRuleActionType").asText());
    }

    @Test
    void missingNameIsRefused() {
        postError("""
                {"tag":"!a","wordsToMatch":["a"],"sourceRuleTypes":["REFERRER_URL"]}""", "Missing required field: name");
        postError("""
                {"name":"  ","tag":"!a","wordsToMatch":["a"],"sourceRuleTypes":["REFERRER_URL"]}""", "Missing required field: name");
    }

    @Test
    void nameLongerThan255IsRefused() {
        postError("""
                {"name":"%s","tag":"!a","wordsToMatch":["a"],"sourceRuleTypes":["REFERRER_URL"]}""".formatted("n".repeat(256)),
                "Invalid field: name must be at most 255 characters");
        create("""
                {"name":"%s","tag":"!a","wordsToMatch":["a"],"sourceRuleTypes":["REFERRER_URL"]}""".formatted("n".repeat(255)));
    }

    @Test
    void blankTagIsRefused() {
        postError(body("", "a"), "Missing required field: tag");
    }

    @Test
    void tagWithoutPrefixIsRefusedOnOrdinaryRules() {
        postError(body("plain", "a"), "Invalid tag: a URL rule tag must start with ! (action tag), @ (source tag), "
                + "$ (sale tag) or # (subscription tag); for a lead-stage rule send createLeadStage=true and a tag without prefix");
    }

    @Test
    void prefixedTagIsRefusedOnLeadStageRules() {
        postError("""
                {"name":"S","tag":"!stage","wordsToMatch":["a"],"sourceRuleTypes":["REFERRER_URL"],"createLeadStage":true}""",
                "Invalid tag: a lead-stage rule (createLeadStage=true) takes a tag without prefix, which becomes the lead stage name");
    }

    @Test
    void wordsToMatchNeedsOneNonEmptyValue() {
        postError("""
                {"name":"n","tag":"!a","wordsToMatch":["", " "],"sourceRuleTypes":["REFERRER_URL"]}""",
                "Invalid field: wordsToMatch must contain at least one non-empty value");
        postError("""
                {"name":"n","tag":"!a","sourceRuleTypes":["REFERRER_URL"]}""", "Missing required field: wordsToMatch");
    }

    @Test
    void wordsMayNotContainCommas() {
        postError("""
                {"name":"n","tag":"!a","wordsToMatch":["a,b"],"sourceRuleTypes":["REFERRER_URL"]}""",
                "Invalid field: wordsToMatch values cannot contain a comma");
        postError("""
                {"name":"n","tag":"!a","wordsToMatch":["a"],"wordsNotToMatch":["x,y"],"sourceRuleTypes":["REFERRER_URL"]}""",
                "Invalid field: wordsNotToMatch values cannot contain a comma");
    }

    @Test
    void sourceRuleTypesAreAFixedSetOfAtLeastOne() {
        postError("""
                {"name":"n","tag":"!a","wordsToMatch":["a"],"sourceRuleTypes":["LANDING_URL"]}""",
                "Invalid sourceRuleTypes 'LANDING_URL'. Accepted values: PREVIOUS_URL, REFERRER_URL");
        postError("""
                {"name":"n","tag":"!a","wordsToMatch":["a"],"sourceRuleTypes":[]}""",
                "Invalid field: sourceRuleTypes must contain at least one value");
        postError("""
                {"name":"n","tag":"!a","wordsToMatch":["a"]}""", "Missing required field: sourceRuleTypes");
    }

    @Test
    void dynamicParametersTakeOneShortValueWithoutCommas() {
        for (String f : List.of("trafficSourceToMatch", "sourceCategoryToMatch")) {
            postError("""
                    {"name":"n","tag":"!a","wordsToMatch":["a"],"sourceRuleTypes":["REFERRER_URL"],"%s":["a","b"]}""".formatted(f),
                    "Invalid field: " + f + " accepts at most one value");
            postError("""
                    {"name":"n","tag":"!a","wordsToMatch":["a"],"sourceRuleTypes":["REFERRER_URL"],"%s":["a,b"]}""".formatted(f),
                    "Invalid field: " + f + " values cannot contain a comma");
            postError("""
                    {"name":"n","tag":"!a","wordsToMatch":["a"],"sourceRuleTypes":["REFERRER_URL"],"%s":["%s"]}""".formatted(f, "x".repeat(256)),
                    "Invalid field: " + f + " values must be at most 255 characters");
        }
    }

    @Test
    void dynamicAndManualCategoriesAreExclusive() {
        postError("""
                {"name":"n","tag":"!a","wordsToMatch":["a"],"sourceRuleTypes":["REFERRER_URL"],"trafficSourceToMatch":["utm_source"],"trafficSourceCategory":"Paid"}""",
                "Provide either the dynamic parameter trafficSourceToMatch or the manual category trafficSourceCategory, not both");
        postError("""
                {"name":"n","tag":"!a","wordsToMatch":["a"],"sourceRuleTypes":["REFERRER_URL"],"sourceCategoryToMatch":["cat"],"sourceCategory":"Paid"}""",
                "Provide either the dynamic parameter sourceCategoryToMatch or the manual category sourceCategory, not both");
    }

    @Test
    void everyScoreNeedsAKeyword() {
        postError("""
                {"name":"n","tag":"!a","wordsToMatch":["a"],"sourceRuleTypes":["REFERRER_URL"],"scores":[{"keywords":[" "],"score":3}]}""",
                "Invalid field: every entry in scores must contain at least one non-empty keyword");
        postError("""
                {"name":"n","tag":"!a","wordsToMatch":["a"],"sourceRuleTypes":["REFERRER_URL"],"scores":[{"score":3}]}""",
                "Invalid field: every entry in scores must contain at least one non-empty keyword");
    }

    @Test
    void scoreDefaultsToZero() {
        JsonNode rule = one(create("""
                {"name":"n","tag":"!a","wordsToMatch":["a"],"sourceRuleTypes":["REFERRER_URL"],"scores":[{"keywords":["k"]}]}"""));
        assertEquals(0, rule.get("scores").get(0).get("score").asInt());
    }

    @Test
    void duplicateTagOrWordsIsRefused() {
        create(body("!dup", "alpha"));
        postError(body("!dup", "beta"), "A URL rule with this tag or matching words already exists");
        postError(body("!other", "ALPHA"), "A URL rule with this tag or matching words already exists");
    }

    @Test
    void unknownFieldsAndParametersAreRefused() {
        postError("""
                {"name":"n","tag":"!a","wordsToMatch":["a"],"sourceRuleTypes":["REFERRER_URL"],"colour":"red"}""", "Unknown field: colour");
        assertError(post(key, PATH + "?x=1", body("!a", "a")), "Unknown parameter: x");
        assertError(get(key, PATH + "?foo=1"), "Unknown parameter: foo");
        assertError(get(key, PATH + "?tag=a&tag=b"), "Duplicate parameter: tag");
    }

    @Test
    void leadStageRuleCreatesTheStage() {
        JsonNode rule = one(create("""
                {"name":"S","tag":"Qualified","wordsToMatch":["thank-you"],"sourceRuleTypes":["PREVIOUS_URL"],"createLeadStage":true}"""));
        assertEquals("LEAD_STAGE", rule.get("urlRuleActionType").asText());
        assertTrue(rule.get("createLeadStage").asBoolean());
        assertEquals("Qualified", rule.get("tag").asText());
    }

    @Test
    void putChangesFlavourToLeadStageAndBack() {
        String id = create(body("!clicked", "pricing"));
        assertEquals(200, put(key, PATH + "/" + id, "{\"createLeadStage\":true,\"tag\":\"Hot\"}").status());
        JsonNode stage = one(id);
        assertEquals("LEAD_STAGE", stage.get("urlRuleActionType").asText());
        assertEquals("Hot", stage.get("tag").asText());
        assertTrue(stage.get("createLeadStage").asBoolean());
        assertEquals(200, put(key, PATH + "/" + id, "{\"createLeadStage\":false,\"tag\":\"@pricing\"}").status());
        JsonNode back = one(id);
        assertEquals("SOURCE_LINK", back.get("urlRuleActionType").asText());
        assertFalse(back.get("createLeadStage").asBoolean());
    }

    @Test
    void putJudgesTheTagAgainstTheInheritedFlavour() {
        String stage = create("""
                {"name":"S","tag":"Warm","wordsToMatch":["warm"],"sourceRuleTypes":["PREVIOUS_URL"],"createLeadStage":true}""");
        assertError(put(key, PATH + "/" + stage, "{\"tag\":\"!warm\"}"),
                "Invalid tag: a lead-stage rule (createLeadStage=true) takes a tag without prefix, which becomes the lead stage name");
        assertEquals(200, put(key, PATH + "/" + stage, "{\"tag\":\"Warmer\"}").status());
        assertEquals("Warmer", one(stage).get("tag").asText());
        String plain = create(body("!plain", "plain"));
        assertError(put(key, PATH + "/" + plain, "{\"tag\":\"NoPrefix\"}"), "Invalid tag: a URL rule tag must start with ! "
                + "(action tag), @ (source tag), $ (sale tag) or # (subscription tag); for a lead-stage rule send "
                + "createLeadStage=true and a tag without prefix");
        assertError(put(key, PATH + "/" + plain, "{\"createLeadStage\":true}"),
                "Invalid tag: a lead-stage rule (createLeadStage=true) takes a tag without prefix, which becomes the lead stage name");
    }

    @Test
    void isEnabledPausesAndResumesWithoutTouchingOtherFields() {
        String id = create(body("!pause", "pause"));
        assertEquals(200, put(key, PATH + "/" + id, "{\"isEnabled\":false}").status());
        JsonNode paused = one(id);
        assertFalse(paused.get("isEnabled").asBoolean());
        assertEquals("!pause", paused.get("tag").asText());
        assertEquals("[\"pause\"]", paused.get("wordsToMatch").toString());
        assertEquals(200, put(key, PATH + "/" + id, "{\"isEnabled\":true}").status());
        assertTrue(one(id).get("isEnabled").asBoolean());
    }

    @Test
    void putReplacesSentFieldsAndClearsWithEmptyValues() {
        String id = create("""
                {"name":"n","tag":"!a","wordsToMatch":["a"],"wordsNotToMatch":["z"],"sourceRuleTypes":["REFERRER_URL"],"sourceCategory":"Cat"}""");
        assertEquals(200, put(key, PATH + "/" + id, "{\"wordsNotToMatch\":[],\"sourceCategory\":\"\",\"name\":\"renamed\"}").status());
        JsonNode rule = one(id);
        assertFalse(rule.has("wordsNotToMatch"));
        assertFalse(rule.has("sourceCategory"));
        assertEquals("renamed", rule.get("name").asText());
    }

    @Test
    void putCannotEmptyRequiredFields() {
        String id = create(body("!req", "req"));
        assertError(put(key, PATH + "/" + id, "{\"name\":\"\"}"), "Missing required field: name");
        assertError(put(key, PATH + "/" + id, "{\"tag\":\"\"}"), "Missing required field: tag");
        assertError(put(key, PATH + "/" + id, "{\"wordsToMatch\":[]}"), "Invalid field: wordsToMatch must contain at least one non-empty value");
        assertError(put(key, PATH + "/" + id, "{\"sourceRuleTypes\":[]}"), "Invalid field: sourceRuleTypes must contain at least one value");
    }

    @Test
    void putDynamicParameterClearsTheManualCategoryAndViceVersa() {
        String id = create("""
                {"name":"n","tag":"!a","wordsToMatch":["a"],"sourceRuleTypes":["REFERRER_URL"],"trafficSourceCategory":"Email"}""");
        assertEquals(200, put(key, PATH + "/" + id, "{\"trafficSourceToMatch\":[\"utm_source\"]}").status());
        JsonNode dyn = one(id);
        assertEquals("[\"utm_source\"]", dyn.get("trafficSourceToMatch").toString());
        assertFalse(dyn.has("trafficSourceCategory"));
        assertEquals(200, put(key, PATH + "/" + id, "{\"trafficSourceCategory\":\"Social\"}").status());
        JsonNode manual = one(id);
        assertEquals("Social", manual.get("trafficSourceCategory").asText());
        assertFalse(manual.has("trafficSourceToMatch"));
        assertEquals(200, put(key, PATH + "/" + id, "{\"trafficSourceToMatch\":[]}").status());
        assertEquals("Social", one(id).get("trafficSourceCategory").asText());
    }

    @Test
    void unknownIdOnPutAndDeleteIsRefused() {
        assertError(put(key, PATH + "/ur-0000000000000000", "{\"isEnabled\":false}"), "The externalId does not exist for this user");
        assertError(delete(key, PATH + "/ur-0000000000000000"), "The externalId does not exist for this user");
        String other = newAccount();
        String id = create(body("!mine", "mine"));
        assertError(put(other, PATH + "/" + id, "{\"isEnabled\":false}"), "The externalId does not exist for this user");
    }

    @Test
    void builtInDefaultRulesAreNeitherListedNorManaged() throws Exception {
        String account = directory.findActiveKey(dev.attribution.api.auth.ApiKeys.hash(key)).orElseThrow().account().id();
        try (var c = dev.attribution.testing.TestStack.get().connect(); var st = c.createStatement()) {
            st.executeUpdate("INSERT INTO url_rules (account_id, external_id, rule_type, name, tag, action_type, words_to_match, "
                    + "source_rule_types) VALUES ('" + account + "', 'ur-00000000000000aa', 'DEFAULT', 'Built-in', '@organic', "
                    + "'SOURCE_LINK', '{google.com}', '{REFERRER_URL}')");
        }
        assertEquals(0, get(key, PATH).body().get("result").size());
        assertEquals(0, get(key, PATH + "/ur-00000000000000aa").body().get("result").size());
        assertError(put(key, PATH + "/ur-00000000000000aa", "{\"isEnabled\":false}"), "The externalId does not exist for this user");
        assertError(delete(key, PATH + "/ur-00000000000000aa"), "The externalId does not exist for this user");
    }

    @Test
    void deleteRemovesTheRule() {
        String id = create(body("!gone", "gone"));
        assertEquals(200, delete(key, PATH + "/" + id).status());
        assertEquals(0, get(key, PATH + "/" + id).body().get("result").size());
    }

    @Test
    void getOneOfAnUnknownIdIsEmpty() {
        Response r = get(key, PATH + "/ur-0123456789abcdef");
        assertEquals(200, r.status());
        assertEquals(0, r.body().get("result").size());
    }

    @Test
    void listFiltersByIdsTagAndType() {
        String a = create(body("!one", "one"));
        create(body("@two", "two"));
        assertEquals(a, get(key, PATH + "?ids=" + list(a)).body().get("result").get(0).get("id").asText());
        assertEquals(1, get(key, PATH + "?tag=" + enc("@two")).body().get("result").size());
        assertEquals(1, get(key, PATH + "?urlRuleActionType=SOURCE_LINK").body().get("result").size());
        assertEquals(0, get(key, PATH + "?urlRuleActionType=CALL_QUALIFICATION").body().get("result").size());
        assertEquals(2, get(key, PATH + "?fromDate=2020-01-01").body().get("result").size());
    }

    @Test
    void listRefusesBadIdsAndActionTypes() {
        assertError(get(key, PATH + "?ids=" + list("123")), "Invalid field format: ids");
        assertError(get(key, PATH + "?urlRuleActionType=CLICK"),
                "Invalid urlRuleActionType 'CLICK'. Accepted values: ACTION, SOURCE_LINK, SALE, SUBSCRIPTION, LEAD_STAGE, CALL_QUALIFICATION");
    }

    @Test
    void pagingAndExpiredPageIds() {
        for (int i = 0; i < 3; i++) {
            create(body("!p" + i, "page" + i));
        }
        Response first = get(key, PATH + "?pageSize=2");
        assertEquals(2, first.body().get("result").size(), first.raw());
        String next = first.body().get("nextPageId").asText();
        Response second = get(key, PATH + "?pageSize=2&pageId=" + enc(next));
        assertEquals(1, second.body().get("result").size());
        assertTrue(second.body().get("nextPageId").isNull());
        assertError(get(key, PATH + "?pageId=garbage"), "The provided pageId is invalid or has expired");
    }

    @Test
    void rolesAreRequired() {
        String readOnly = newAccount("UTC", List.of(Roles.GET_URL_RULES));
        Response r = post(readOnly, PATH, body("!x", "x"));
        assertEquals(403, r.status());
        assertEquals("Forbidden, missing api key roles | Create URL Rules", r.message());
    }
}
