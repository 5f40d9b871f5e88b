package dev.attribution.command.webhooks;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import dev.attribution.api.ApiException;
import dev.attribution.command.events.DomainEvents;
import dev.attribution.command.webhooks.WebhookCommands.CreateSubscription;
import dev.attribution.command.webhooks.WebhookCommands.State;
import dev.attribution.command.webhooks.WebhookCommands.SubscriptionChanges;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * The rules of webhook subscription writes (spec 2.19, 6) and every message of the webhook endpoints, written once.
 * The problems of a body's values are reported at once ({@code name is required | targetUrl is required}); a value
 * of the wrong JSON type, or a {@code state} clients may not set, is refused as it is read.
 */
final class WebhookRules {

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

    private WebhookRules() {
    }

    /** {@code POST}: every field required; the result is trimmed, event types without repeats. */
    static CreateSubscription create(CreateSubscription body, UrlGuard guard) {
        List<String> problems = new ArrayList<>();
        String name = name(body.name(), problems);
        String url = targetUrl(body.targetUrl(), problems, guard);
        List<String> types = eventTypes(body.eventTypes() == null ? List.of() : body.eventTypes(), problems);
        refuse(problems);
        return new CreateSubscription(name, url, types);
    }

    /** {@code PUT}: the fields sent (null: unchanged) follow the rules of {@link #create}. */
    static SubscriptionChanges update(SubscriptionChanges body, UrlGuard guard) {
        List<String> problems = new ArrayList<>();
        String name = body.name() == null ? null : name(body.name(), problems);
        String url = body.targetUrl() == null ? null : targetUrl(body.targetUrl(), problems, guard);
        List<String> types = body.eventTypes() == null ? null : eventTypes(body.eventTypes(), problems);
        refuse(problems);
        return new SubscriptionChanges(name, url, types, body.state());
    }

    private static void refuse(List<String> problems) {
        if (!problems.isEmpty()) {
            throw ApiException.badRequest(problems);
        }
    }

    private static String name(String value, List<String> problems) {
        String name = value == null ? "" : value.trim();
        if (name.isEmpty()) {
            problems.add(NAME_REQUIRED);
        } else if (name.length() > 255) {
            problems.add(NAME_TOO_LONG);
        }
        return name;
    }

    private static String targetUrl(String value, List<String> problems, UrlGuard guard) {
        String url = value == null ? "" : value.trim();
        if (url.isEmpty()) {
            problems.add(TARGET_URL_REQUIRED);
            return null;
        }
        guard.problem(url).ifPresent(problems::add);
        return url;
    }

    private static List<String> eventTypes(List<String> types, List<String> problems) {
        if (types.isEmpty()) {
            problems.add(EVENT_TYPES_REQUIRED);
        }
        for (String t : types) {
            if (!DomainEvents.TYPES.contains(t)) {
                problems.add(unknownEventType(t));
            }
        }
        return List.copyOf(new LinkedHashSet<>(types));
    }

    /** {@code eventTypes}: an array of strings, blank items dropped; null is as absent (no change on PUT). */
    static final class EventTypes extends JsonDeserializer<List<String>> {
        @Override
        public List<String> deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            return ctxt.readValue(p, ctxt.getTypeFactory().constructCollectionType(List.class, String.class));
        }

        @Override
        public List<String> getNullValue(DeserializationContext ctxt) {
            return null;
        }
    }

    /** {@code state}: a string, one of the states a client may set ({@link #STATE_INVALID} otherwise). */
    static final class StateValue extends JsonDeserializer<State> {
        @Override
        public State deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            if (!p.hasToken(JsonToken.VALUE_STRING)) {
                throw ApiException.badRequest("state must be a string");
            }
            String value = p.getText();
            return Arrays.stream(State.values()).filter(s -> s.name().equals(value)).findFirst()
                    .orElseThrow(() -> ApiException.badRequest(STATE_INVALID));
        }
    }
}
