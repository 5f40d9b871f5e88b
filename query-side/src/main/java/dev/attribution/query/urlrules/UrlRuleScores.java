package dev.attribution.query.urlrules;

import java.util.List;

/** The stored form of a rule's scores (jsonb {@code [{keywords:[..], score:n}]}). */
public final class UrlRuleScores {

    private UrlRuleScores() {
    }

    public static List<UrlRuleView.Score> parse(String json) {
        return UrlRuleReader.scores(json);
    }
}
