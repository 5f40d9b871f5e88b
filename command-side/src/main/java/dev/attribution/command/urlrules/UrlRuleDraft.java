package dev.attribution.command.urlrules;

import java.util.List;

/**
 * A URL rule as it will be stored: the result of a create's defaults or of an update applied to the stored rule.
 * Categories are names ({@code null} = none); {@code leadStage} is the createLeadStage flavour.
 */
record UrlRuleDraft(String name, String tag, List<String> wordsToMatch, List<String> wordsNotToMatch,
                    List<String> sourceRuleTypes, boolean applyBaseDomain, boolean disregardSource,
                    List<String> trafficSourceToMatch, List<String> sourceCategoryToMatch,
                    String trafficSourceCategory, String sourceCategory, List<UrlRuleEngine.Score> scores,
                    boolean isEnabled, boolean leadStage) {

    /** ACTION, SOURCE_LINK, SALE, SUBSCRIPTION from the tag prefix; LEAD_STAGE for lead-stage rules. */
    String actionType() {
        if (leadStage) {
            return "LEAD_STAGE";
        }
        return switch (tag.charAt(0)) {
            case '!' -> "ACTION";
            case '@' -> "SOURCE_LINK";
            case '$' -> "SALE";
            case '#' -> "SUBSCRIPTION";
            default -> throw new IllegalStateException("unvalidated tag " + tag);
        };
    }
}
