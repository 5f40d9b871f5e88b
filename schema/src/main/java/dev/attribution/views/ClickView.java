package dev.attribution.views;

import dev.attribution.api.ApiDate;
import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.Map;

/**
 * Click of spec 2.11: an item of {@code GET /leads/clicks} and the result of CREATE_CLICK. {@code leadId} and
 * {@code email} are empty strings until the click is connected to a lead; {@code date} is in the legacy encoding.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ClickView(
        String id,
        String leadId,
        String email,
        @ApiDate(ApiDate.Encoding.LEGACY) String date,
        String trackedUrl,
        String previousUrl,
        String ip,
        String agent,
        String sourceLinkName,
        String sourceLinkTag,
        String adspendType,
        Long adSpendId,
        Map<String, String> deduplicationParams,
        Map<String, String> parsedParameters) {
}
