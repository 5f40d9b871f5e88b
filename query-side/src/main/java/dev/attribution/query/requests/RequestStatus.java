package dev.attribution.query.requests;

import dev.attribution.api.ApiDate;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * Request status of spec 2.20: {@code processedAt} only once done, {@code errorMessage} only on FAILED,
 * {@code result} only on PROCESSED (and not for deletes other than an order refund).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RequestStatus(
        String requestId,
        String status,
        String eventType,
        String errorMessage,
        @ApiDate(ApiDate.Encoding.UTC) String createdAt,
        @ApiDate(ApiDate.Encoding.UTC) String processedAt,
        JsonNode result) {
}
