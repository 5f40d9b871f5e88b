package dev.attribution.server.marketing;

import dev.attribution.command.urlrules.UrlRuleEngine;
import dev.attribution.command.urlrules.UrlRuleEngine.Rule;
import dev.attribution.command.urlrules.UrlRuleEngine.Score;
import dev.attribution.command.urlrules.UrlRuleEngine.SourceRuleType;
import dev.attribution.command.urlrules.UrlRuleEngine.Visit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The URL rule engine (spec 2.15) as a table of URL × rule cases, plus rule priority. */
class UrlRuleEngineTest {

    static final List<SourceRuleType> PREV = List.of(SourceRuleType.PREVIOUS_URL);
    static final List<SourceRuleType> REF = List.of(SourceRuleType.REFERRER_URL);
    static final List<SourceRuleType> BOTH = List.of(SourceRuleType.PREVIOUS_URL, SourceRuleType.REFERRER_URL);

    static Rule rule(List<String> words, List<String> not, List<SourceRuleType> types, boolean baseDomain) {
        return new Rule("ur-1", "@fb", "SOURCE_LINK", words, not, types, baseDomain, false, true, List.of(), null, null);
    }

    static Rule scored(List<Score> scores) {
        return new Rule("ur-s", "@s", "SOURCE_LINK", List.of("shop"), List.of(), BOTH, false, false, true, scores, null, null);
    }

    static Score score(int value, String... keywords) {
        return new Score(List.of(keywords), BigDecimal.valueOf(value));
    }

    /** previous URL, referrer URL, rule, expected match, expected via (or null). */
    static Stream<Arguments> cases() {
        Rule fb = rule(List.of("facebook"), List.of(), BOTH, false);
        Rule fbPrev = rule(List.of("facebook"), List.of(), PREV, false);
        Rule fbRef = rule(List.of("facebook"), List.of(), REF, false);
        Rule anyOf = rule(List.of("utm_source=fb", "fbclid"), List.of(), BOTH, false);
        Rule notOrganic = rule(List.of("facebook"), List.of("organic", "utm_medium=social"), BOTH, false);
        Rule upper = rule(List.of("FaceBook"), List.of("ORGANIC"), BOTH, false);
        Rule base = rule(List.of("facebook.com"), List.of(), BOTH, true);
        Rule baseShop = rule(List.of("shop"), List.of(), BOTH, true);
        Rule baseNot = rule(List.of("example"), List.of("blog"), BOTH, true);
        Rule disabled = new Rule("ur-d", "@d", "SOURCE_LINK", List.of("facebook"), List.of(), BOTH, false, false, false, List.of(), null, null);
        return Stream.of(
                // wordsToMatch: any one
                Arguments.of("https://facebook.com/ad", null, fb, true, "PREVIOUS_URL"),
                Arguments.of(null, "https://facebook.com/ad", fb, true, "REFERRER_URL"),
                Arguments.of("https://google.com", null, fb, false, null),
                Arguments.of("https://site.com/?utm_source=fb", null, anyOf, true, "PREVIOUS_URL"),
                Arguments.of("https://site.com/?fbclid=123", null, anyOf, true, "PREVIOUS_URL"),
                Arguments.of("https://site.com/?utm_source=google", null, anyOf, false, null),
                Arguments.of("https://site.com/?utm_source=fb&fbclid=1", null, anyOf, true, "PREVIOUS_URL"),
                Arguments.of("", "", fb, false, null),
                Arguments.of(null, null, fb, false, null),
                // case-insensitive
                Arguments.of("https://FACEBOOK.com/x", null, fb, true, "PREVIOUS_URL"),
                Arguments.of("https://facebook.com/x", null, upper, true, "PREVIOUS_URL"),
                Arguments.of("https://facebook.com/Organic", null, upper, false, null),
                // wordsNotToMatch: none
                Arguments.of("https://facebook.com/organic", null, notOrganic, false, null),
                Arguments.of("https://facebook.com/?utm_medium=social", null, notOrganic, false, null),
                Arguments.of("https://facebook.com/?utm_medium=paid", null, notOrganic, true, "PREVIOUS_URL"),
                Arguments.of("https://facebook.com/ORGANIC", null, notOrganic, false, null),
                Arguments.of("https://facebook.com/organic", "https://facebook.com/paid", notOrganic, true, "REFERRER_URL"),
                // PREVIOUS_URL vs REFERRER_URL
                Arguments.of("https://facebook.com", null, fbPrev, true, "PREVIOUS_URL"),
                Arguments.of(null, "https://facebook.com", fbPrev, false, null),
                Arguments.of("https://facebook.com", null, fbRef, false, null),
                Arguments.of(null, "https://facebook.com", fbRef, true, "REFERRER_URL"),
                Arguments.of("https://google.com", "https://facebook.com", fbPrev, false, null),
                Arguments.of("https://facebook.com", "https://google.com", fbRef, false, null),
                Arguments.of("https://facebook.com/a", "https://facebook.com/b", fb, true, "PREVIOUS_URL"),
                Arguments.of("https://google.com", "https://facebook.com/b", fb, true, "REFERRER_URL"),
                // applyBaseDomain: only the host (without www.) is inspected
                Arguments.of("https://www.facebook.com/page", null, base, true, "PREVIOUS_URL"),
                Arguments.of("https://site.com/?ref=facebook.com", null, base, false, null),
                Arguments.of("https://site.com/?ref=facebook.com", null, rule(List.of("facebook.com"), List.of(), BOTH, false), true, "PREVIOUS_URL"),
                Arguments.of("https://shop.example.com/x", null, baseShop, true, "PREVIOUS_URL"),
                Arguments.of("https://example.com/shop", null, baseShop, false, null),
                Arguments.of("https://example.com/blog", null, baseNot, true, "PREVIOUS_URL"),
                Arguments.of("https://blog.example.com/", null, baseNot, false, null),
                Arguments.of("facebook.com/no-scheme", null, base, true, "PREVIOUS_URL"),
                Arguments.of("HTTPS://WWW.FACEBOOK.COM/", null, base, true, "PREVIOUS_URL"),
                Arguments.of("https://m.facebook.com/", null, base, true, "PREVIOUS_URL"),
                // disabled rules never match
                Arguments.of("https://facebook.com", null, disabled, false, null),
                Arguments.of(null, "https://facebook.com", disabled, false, null),
                // substrings
                Arguments.of("https://notfacebook.net", null, fb, true, "PREVIOUS_URL"),
                Arguments.of("https://face-book.com", null, fb, false, null),
                Arguments.of("https://site.com/path?q=FACEBOOK", null, fb, true, "PREVIOUS_URL"),
                Arguments.of("https://site.com/#facebook", null, fb, true, "PREVIOUS_URL"),
                Arguments.of("https://google.com", "https://bing.com", anyOf, false, null));
    }

    @ParameterizedTest(name = "[{index}] prev={0} ref={1} → {3}")
    @MethodSource("cases")
    void urlTimesRule(String previous, String referrer, Rule rule, boolean matches, String via) {
        Optional<UrlRuleEngine.Match> m = UrlRuleEngine.match(rule, new Visit(previous, referrer));
        assertEquals(matches, m.isPresent());
        if (matches) {
            assertEquals(via, m.get().via().name());
        }
    }

    static Stream<Arguments> scoreCases() {
        List<Score> s = List.of(score(0, "free"), score(5, "webinar"), score(9, "webinar", "vip"), score(3, "VIP"));
        return Stream.of(
                Arguments.of("https://shop.com/", s, null),
                Arguments.of("https://shop.com/free", s, 0),
                Arguments.of("https://shop.com/webinar", s, 5),
                Arguments.of("https://shop.com/webinar?vip=1", s, 9),
                Arguments.of("https://shop.com/vip", s, 3),
                Arguments.of("https://shop.com/WEBINAR/VIP", s, 9),
                Arguments.of("https://shop.com/free-webinar", s, 5),
                Arguments.of("https://shop.com/free/vip", s, 3));
    }

    @ParameterizedTest(name = "[{index}] {0} → score {2}")
    @MethodSource("scoreCases")
    void highestMatchingScoreWins(String url, List<Score> scores, Integer expected) {
        UrlRuleEngine.Match m = UrlRuleEngine.match(scored(scores), new Visit(url, null)).orElseThrow();
        assertEquals(expected == null ? null : BigDecimal.valueOf(expected), m.score());
    }

    @Test
    void disregardSourceIsLowPriorityAndNeverOverridesAnExistingSource() {
        Rule low = new Rule("ur-low", "@low", "SOURCE_LINK", List.of("facebook"), List.of(), BOTH, false, true, true, List.of(), null, null);
        Rule high = new Rule("ur-high", "@high", "SOURCE_LINK", List.of("fbclid"), List.of(), BOTH, false, false, true, List.of(), null, null);
        Visit both = new Visit("https://facebook.com/?fbclid=1", null);
        assertEquals("ur-high", UrlRuleEngine.sourceFor(List.of(low, high), both, false).orElseThrow().rule().id());
        assertEquals("ur-high", UrlRuleEngine.sourceFor(List.of(low, high), both, true).orElseThrow().rule().id());
        Visit onlyLow = new Visit("https://facebook.com/", null);
        assertEquals("ur-low", UrlRuleEngine.sourceFor(List.of(low, high), onlyLow, false).orElseThrow().rule().id());
        assertFalse(UrlRuleEngine.sourceFor(List.of(low, high), onlyLow, true).isPresent());
    }

    @Test
    void matchAllPutsHighPriorityFirstAndKeepsOtherRules() {
        Rule low = new Rule("ur-low", "@low", "SOURCE_LINK", List.of("x"), List.of(), BOTH, false, true, true, List.of(), null, null);
        Rule action = new Rule("ur-act", "!clicked", "ACTION", List.of("x"), List.of(), BOTH, false, false, true, List.of(), null, null);
        List<UrlRuleEngine.Match> all = UrlRuleEngine.matchAll(List.of(low, action), new Visit("https://x.com", null));
        assertEquals(List.of("ur-act", "ur-low"), all.stream().map(m -> m.rule().id()).toList());
    }

    @Test
    void dynamicTrafficSourceIsReadFromTheMatchedUrl() {
        Rule dyn = new Rule("ur-t", "@t", "SOURCE_LINK", List.of("utm"), List.of(), BOTH, false, false, true, List.of(), "utm_source", null);
        assertEquals("news letter", UrlRuleEngine.match(dyn, new Visit("https://a.com/?utm_source=news%20letter", null)).orElseThrow().trafficSource());
        Rule fixed = new Rule("ur-f", "@f", "SOURCE_LINK", List.of("utm"), List.of(), BOTH, false, false, true, List.of(), null, "Paid Social");
        assertEquals("Paid Social", UrlRuleEngine.match(fixed, new Visit("https://a.com/?utm_source=x", null)).orElseThrow().trafficSource());
        assertTrue(UrlRuleEngine.match(dyn, new Visit("https://a.com/utm", null)).orElseThrow().trafficSource() == null);
    }
}
