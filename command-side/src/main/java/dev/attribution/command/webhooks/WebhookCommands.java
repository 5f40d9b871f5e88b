package dev.attribution.command.webhooks;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import io.swagger.v3.oas.annotations.media.Schema;

import java.util.List;

/**
 * The webhook subscription commands (spec 2.19, 6), bound from the bodies and checked by {@link WebhookRules};
 * synchronous writes, applied by {@link WebhookSubscriptionsTable} when the request is answered.
 */
public final class WebhookCommands {

    private WebhookCommands() {
    }

    /** {@code POST /webhook-subscriptions}; other fields are refused. */
    @Schema(name = "WebhookCreateBody") // the contract's name for this body since 1.0 (generated clients' class name)
    public record CreateSubscription(
            @JsonProperty(required = true) @JsonPropertyDescription("a name for the subscription") String name,
            @JsonProperty(required = true)
            @JsonPropertyDescription("public http(s) URL receiving the events")
            String targetUrl,
            @JsonProperty(required = true)
            @JsonPropertyDescription("event types of spec 6 to deliver, at least one")
            @JsonDeserialize(using = WebhookRules.EventTypes.class) List<String> eventTypes) {
    }

    /** {@code PUT /webhook-subscriptions/{externalId}}: the fields sent (not null) change; others are refused. */
    @Schema(name = "WebhookUpdateBody")
    public record SubscriptionChanges(
            String name,
            @JsonPropertyDescription("public http(s) URL receiving the events") String targetUrl,
            @JsonPropertyDescription("event types of spec 6 to deliver, at least one")
            @JsonDeserialize(using = WebhookRules.EventTypes.class) List<String> eventTypes,
            @JsonPropertyDescription("pause (MANUALLY_PAUSED) or resume (ACTIVE)")
            @JsonDeserialize(using = WebhookRules.StateValue.class) State state) {
    }

    /** The states a client may set. */
    @Schema(name = "WebhookUpdateBodyState")
    public enum State { ACTIVE, MANUALLY_PAUSED }
}
