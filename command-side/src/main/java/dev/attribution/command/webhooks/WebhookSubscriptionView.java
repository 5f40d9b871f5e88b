package dev.attribution.command.webhooks;

import dev.attribution.api.ApiDate;
import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.List;

/**
 * Webhook subscription of spec 2.19. {@code secretKey} is set only in the create response (omitted elsewhere);
 * {@code lastDeliveryDate} is always present, null until a first delivery.
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record WebhookSubscriptionView(
        String externalId,
        String name,
        String targetUrl,
        List<String> eventTypes,
        String state,
        @JsonInclude(JsonInclude.Include.NON_NULL) String secretKey,
        @ApiDate(ApiDate.Encoding.UTC) String creationDate,
        @ApiDate(ApiDate.Encoding.UTC) String lastDeliveryDate) {

    WebhookSubscriptionView withSecret(String secret) {
        return new WebhookSubscriptionView(externalId, name, targetUrl, eventTypes, state, secret, creationDate,
                lastDeliveryDate);
    }
}
