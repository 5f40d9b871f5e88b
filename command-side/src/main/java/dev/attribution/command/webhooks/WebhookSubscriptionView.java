package dev.attribution.command.webhooks;

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
        String creationDate,
        String lastDeliveryDate) {

    WebhookSubscriptionView withSecret(String secret) {
        return new WebhookSubscriptionView(externalId, name, targetUrl, eventTypes, state, secret, creationDate,
                lastDeliveryDate);
    }
}
