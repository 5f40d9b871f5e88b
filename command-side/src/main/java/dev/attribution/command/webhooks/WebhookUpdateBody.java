package dev.attribution.command.webhooks;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** The body of {@code PUT /webhook-subscriptions/{externalId}}: the fields sent change; others are refused. */
public record WebhookUpdateBody(
        String name,
        @JsonPropertyDescription("public http(s) URL receiving the events") String targetUrl,
        @JsonPropertyDescription("event types of spec 6 to deliver, at least one") java.util.List<String> eventTypes,
        @JsonPropertyDescription("pause (MANUALLY_PAUSED) or resume (ACTIVE)") State state) {

    /** The states a client may set. */
    public enum State { ACTIVE, MANUALLY_PAUSED }
}
