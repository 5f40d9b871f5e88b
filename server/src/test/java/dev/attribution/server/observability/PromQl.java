package dev.attribution.server.observability;

import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The metric names a PromQL expression (or a line of a rules file) reads: the words with an underscore outside label
 * matchers, ranges, grouping clauses and quotes, not called as functions. Enough PromQL for our dashboard and rules.
 */
final class PromQl {

    /** Words with an underscore that are not metrics (a rules file's YAML keys and prose have none). */
    private static final Set<String> WORDS = Set.of("group_left", "group_right");
    private static final Pattern NAME = Pattern.compile("(?<![\\w$.])([a-z_][a-z0-9_]*)\\b(?!\\s*\\()");

    private PromQl() {
    }

    static Set<String> metricNames(String expression) {
        String e = expression
                .replaceAll("\"(?:[^\"\\\\]|\\\\.)*\"", "\"\"")            // label values, annotations
                .replaceAll("\\{[^}]*}", "")                              // label matchers
                .replaceAll("\\[[^]]*]", "")                              // ranges
                .replaceAll("\\b(by|without|on|ignoring)\\s*\\([^)]*\\)", "");  // grouping labels
        Set<String> names = new TreeSet<>();
        Matcher m = NAME.matcher(e);
        while (m.find()) {
            String n = m.group(1);
            if (!WORDS.contains(n) && n.contains("_")) {
                names.add(n);
            }
        }
        return names;
    }
}
