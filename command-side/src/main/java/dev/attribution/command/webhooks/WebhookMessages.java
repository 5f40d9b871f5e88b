package dev.attribution.command.webhooks;

/** Every validation message of the webhook subscription endpoints, in one place. */
final class WebhookMessages {

    static final String NAME_REQUIRED = "name is required";
    static final String NAME_TOO_LONG = "name must be at most 255 characters";
    static final String TARGET_URL_REQUIRED = "targetUrl is required";
    static final String TARGET_URL_SCHEME = "targetUrl must be an absolute http or https URL";
    static final String TARGET_URL_UNRESOLVABLE = "targetUrl host could not be resolved";
    static final String TARGET_URL_NOT_PUBLIC = "targetUrl must resolve to a public address";
    static final String EVENT_TYPES_REQUIRED = "At least one event type is required";
    static final String STATE_INVALID = "state must be ACTIVE or MANUALLY_PAUSED";
    static final String NOT_FOUND = "Webhook subscription not found";

    static String unknownEventType(String type) {
        return "Invalid event type: " + type;
    }

    private WebhookMessages() {
    }
}
