package dev.attribution.command.webhooks;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** The body of {@code POST /webhook-subscriptions} (spec 6); other fields are refused. */
public record WebhookCreateBody(
        @JsonProperty(required = true) @JsonPropertyDescription("a name for the subscription") String name,
        @JsonProperty(required = true)
        @JsonPropertyDescription("public http(s) URL receiving the events")
        String targetUrl,
        @JsonProperty(required = true)
        @JsonPropertyDescription("event types of spec 6 to deliver, at least one")
        java.util.List<String> eventTypes) {
}
