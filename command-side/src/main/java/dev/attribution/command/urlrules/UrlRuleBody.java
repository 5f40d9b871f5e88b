package dev.attribution.command.urlrules;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/**
 * The body of {@code POST /url-rules} (name, tag, wordsToMatch and sourceRuleTypes required) and {@code PUT /url-
 * rules/{id}} (sent fields replace); other fields are refused (spec 4.9).
 */
public record UrlRuleBody(
        @JsonPropertyDescription("required on create; at most 255 characters") String name,
        @JsonPropertyDescription("required on create: the tag to apply (!, @, $ or # prefix; none with createLeadStage)")
        String tag,
        @JsonPropertyDescription("required on create: words the URL must contain (no commas)")
        java.util.List<String> wordsToMatch,
        @JsonPropertyDescription("words the URL must not contain") java.util.List<String> wordsNotToMatch,
        @JsonPropertyDescription("required on create: which URLs the rule looks at")
        java.util.List<SourceRuleType> sourceRuleTypes,
        Boolean applyBaseDomain,
        Boolean disregardSource,
        @JsonPropertyDescription("at most one dynamic parameter (not with trafficSourceCategory)")
        java.util.List<String> trafficSourceToMatch,
        String trafficSourceCategory,
        @JsonPropertyDescription("at most one dynamic parameter (not with sourceCategory)")
        java.util.List<String> sourceCategoryToMatch,
        String sourceCategory,
        @JsonPropertyDescription("keyword scores") java.util.List<Score> scores,
        Boolean isEnabled,
        @JsonPropertyDescription("the tag is a lead stage name") Boolean createLeadStage) {

    /** The URLs a rule looks at. */
    public enum SourceRuleType { PREVIOUS_URL, REFERRER_URL }

    /** A score given when all the keywords match. */
    public record Score(java.util.List<String> keywords, java.math.BigDecimal score) {
    }
}
