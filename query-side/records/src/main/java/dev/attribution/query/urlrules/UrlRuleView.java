package dev.attribution.query.urlrules;

import dev.attribution.api.ApiDate;
import com.fasterxml.jackson.annotation.JsonInclude;

import java.math.BigDecimal;
import java.util.List;

/** UrlRule of spec 2.15: empty lists and absent categories are omitted; booleans always present. */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record UrlRuleView(
        String id,
        String name,
        String tag,
        List<String> wordsToMatch,
        List<String> wordsNotToMatch,
        List<String> sourceRuleTypes,
        boolean applyBaseDomain,
        boolean disregardSource,
        List<String> trafficSourceToMatch,
        List<String> sourceCategoryToMatch,
        String trafficSourceCategory,
        String sourceCategory,
        List<Score> scores,
        String urlRuleActionType,
        String urlRuleType,
        boolean isEnabled,
        boolean createLeadStage,
        @ApiDate(ApiDate.Encoding.UTC) String creationDate) {

    /** UrlRuleScore: every keyword must be in the matched URL; the highest matching score wins. */
    public record Score(List<String> keywords, BigDecimal score) {
    }
}
