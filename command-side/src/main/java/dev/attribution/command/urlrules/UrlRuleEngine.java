package dev.attribution.command.urlrules;

import java.math.BigDecimal;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Decides which URL rules a visit matches (spec 2.15). Pure: no I/O, no clock, no state.
 *
 * <ul>
 *   <li>A rule inspects the URLs its {@code sourceRuleTypes} name: PREVIOUS_URL (the page before) and/or
 *       REFERRER_URL (the referrer); PREVIOUS_URL is tried first.</li>
 *   <li>It matches a URL when the URL contains any one of {@code wordsToMatch} and none of {@code wordsNotToMatch},
 *       ignoring case. With {@code applyBaseDomain} only the base domain (host without {@code www.}) is inspected.</li>
 *   <li>{@code scores}: among the entries whose keywords are all in the matched URL, the highest score wins; no
 *       entry matching leaves the score unset.</li>
 *   <li>Disabled rules never match. Among several matching rules, rules without {@code disregardSource} come first;
 *       a {@code disregardSource} match is low priority and never overrides a source the lead already has.</li>
 * </ul>
 */
public final class UrlRuleEngine {

    public enum SourceRuleType { PREVIOUS_URL, REFERRER_URL }

    public record Score(List<String> keywords, BigDecimal score) {
    }

    /** What the engine needs of a rule. {@code trafficSourceParameter} is the dynamic traffic-source parameter. */
    public record Rule(String id, String tag, String actionType, List<String> wordsToMatch, List<String> wordsNotToMatch,
                       List<SourceRuleType> sourceRuleTypes, boolean applyBaseDomain, boolean disregardSource,
                       boolean enabled, List<Score> scores, String trafficSourceParameter, String trafficSourceCategory) {
    }

    /** The URLs of one visit; either may be null. */
    public record Visit(String previousUrl, String referrerUrl) {
        String url(SourceRuleType type) {
            return type == SourceRuleType.PREVIOUS_URL ? previousUrl : referrerUrl;
        }
    }

    /** A matching rule, the URL and kind that matched, its score (null when no score entry matched) and traffic source. */
    public record Match(Rule rule, SourceRuleType via, String url, BigDecimal score, String trafficSource) {
    }

    private UrlRuleEngine() {
    }

    /** Whether one rule matches the visit, and how. */
    public static Optional<Match> match(Rule rule, Visit visit) {
        if (!rule.enabled()) {
            return Optional.empty();
        }
        for (SourceRuleType type : List.of(SourceRuleType.PREVIOUS_URL, SourceRuleType.REFERRER_URL)) {
            String url = visit.url(type);
            if (!rule.sourceRuleTypes().contains(type) || url == null || url.isBlank()) {
                continue;
            }
            String inspected = lower(rule.applyBaseDomain() ? baseDomain(url) : url);
            if (containsAny(inspected, rule.wordsToMatch()) && !containsAny(inspected, rule.wordsNotToMatch())) {
                return Optional.of(new Match(rule, type, url, score(rule.scores(), lower(url)), trafficSource(rule, url)));
            }
        }
        return Optional.empty();
    }

    /** Every matching rule, high priority (no disregardSource) first, then in the order given. */
    public static List<Match> matchAll(List<Rule> rules, Visit visit) {
        List<Match> out = new ArrayList<>();
        for (Rule r : rules) {
            match(r, visit).ifPresent(out::add);
        }
        out.sort(Comparator.comparing(m -> m.rule().disregardSource()));
        return out;
    }

    /**
     * The source-link rule that sets the visit's source: the first high-priority match; a low-priority
     * ({@code disregardSource}) match only when the lead has no source yet.
     */
    public static Optional<Match> sourceFor(List<Rule> rules, Visit visit, boolean leadHasSource) {
        return matchAll(rules, visit).stream()
                .filter(m -> "SOURCE_LINK".equals(m.rule().actionType()))
                .filter(m -> !m.rule().disregardSource() || !leadHasSource)
                .findFirst();
    }

    /** The highest score among entries whose keywords are all in {@code lowerUrl}; null when none matches. */
    static BigDecimal score(List<Score> scores, String lowerUrl) {
        BigDecimal best = null;
        for (Score s : scores) {
            boolean all = !s.keywords().isEmpty() && s.keywords().stream().allMatch(k -> lowerUrl.contains(lower(k)));
            if (all && (best == null || s.score().compareTo(best) > 0)) {
                best = s.score();
            }
        }
        return best;
    }

    /** Host without {@code www.}, lower case; a string that is not a URL is inspected as written. */
    public static String baseDomain(String url) {
        String u = url.trim();
        String withScheme = u.contains("://") ? u : "http://" + u;
        try {
            String host = URI.create(withScheme.replace(" ", "%20")).getHost();
            if (host == null) {
                return u;
            }
            host = lower(host);
            return host.startsWith("www.") ? host.substring(4) : host;
        } catch (IllegalArgumentException e) {
            return u;
        }
    }

    private static String trafficSource(Rule rule, String url) {
        if (rule.trafficSourceParameter() != null && !rule.trafficSourceParameter().isBlank()) {
            return queryParameter(url, rule.trafficSourceParameter()).orElse(null);
        }
        return rule.trafficSourceCategory();
    }

    /** The first value of a query parameter of {@code url}, decoded. */
    static Optional<String> queryParameter(String url, String name) {
        int q = url.indexOf('?');
        if (q < 0) {
            return Optional.empty();
        }
        int hash = url.indexOf('#', q);
        String query = hash < 0 ? url.substring(q + 1) : url.substring(q + 1, hash);
        for (String pair : query.split("&")) {
            int eq = pair.indexOf('=');
            String key = eq < 0 ? pair : pair.substring(0, eq);
            if (decode(key).equalsIgnoreCase(name)) {
                String v = eq < 0 ? "" : decode(pair.substring(eq + 1));
                return v.isEmpty() ? Optional.empty() : Optional.of(v);
            }
        }
        return Optional.empty();
    }

    private static String decode(String s) {
        try {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return s;
        }
    }

    private static boolean containsAny(String lowerText, List<String> words) {
        for (String w : words) {
            if (!w.isEmpty() && lowerText.contains(lower(w))) {
                return true;
            }
        }
        return false;
    }

    private static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }
}
