package dev.attribution.query.requests;

import dev.attribution.api.ApiDate;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import io.swagger.v3.oas.annotations.media.Schema;

import java.util.List;

/**
 * Request status of spec 2.20: {@code processedAt} only once done, {@code errorMessage} only on FAILED,
 * {@code result} only on PROCESSED (and not for deletes other than an order refund).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RequestStatus(
        String requestId,
        @Schema(allowableValues = {"PENDING", "PROCESSED", "FAILED"}) String status,
        @Schema(description = "The original operation. The spec's list (2.20) and ten operations it names no event type "
                + "for: ADD_TAGS_TO_LEADS (POST /leads/tags), DELETE_LEAD, DELETE_SALE, DELETE_CALL, UPDATE_PRODUCT, "
                + "DELETE_PRODUCT, UPDATE_SOURCE_LINK, DELETE_SOURCE_LINK, UPDATE_CUSTOM_COST, DELETE_CUSTOM_COST "
                + "(docs/clients.md \"Where the spec is silent\")",
                allowableValues = {"CREATE_LEAD", "UPDATE_LEAD", "CREATE_CART", "UPDATE_CART", "CREATE_SOURCE_LINK",
                        "CREATE_CUSTOM_COST", "CREATE_PRODUCT", "CREATE_CLICK", "CREATE_CALL", "CREATE_SUBSCRIPTION",
                        "CREATE_ORDER", "UPDATE_ORDER", "REFUND_ORDER", "UPDATE_SALE", "UPDATE_CALL", "UPDATE_SUBSCRIPTION",
                        "ADD_TAGS_TO_LEADS", "DELETE_LEAD", "DELETE_SALE", "DELETE_CALL", "UPDATE_PRODUCT", "DELETE_PRODUCT",
                        "UPDATE_SOURCE_LINK", "DELETE_SOURCE_LINK", "UPDATE_CUSTOM_COST", "DELETE_CUSTOM_COST"})
        String eventType,
        String errorMessage,
        @ApiDate(ApiDate.Encoding.UTC) String createdAt,
        @ApiDate(ApiDate.Encoding.UTC) String processedAt,
        JsonNode result) {

    /** The event types of spec 2.20. */
    public static final List<String> SPEC_EVENT_TYPES = List.of("CREATE_LEAD", "UPDATE_LEAD", "CREATE_CART", "UPDATE_CART",
            "CREATE_SOURCE_LINK", "CREATE_CUSTOM_COST", "CREATE_PRODUCT", "CREATE_CLICK", "CREATE_CALL", "CREATE_SUBSCRIPTION",
            "CREATE_ORDER", "UPDATE_ORDER", "REFUND_ORDER", "UPDATE_SALE", "UPDATE_CALL", "UPDATE_SUBSCRIPTION");
}
