package dev.attribution.command.webhooks;

import dev.attribution.api.ApiException;
import dev.attribution.api.JsonBody;
import dev.attribution.command.events.DomainEvents;
import jakarta.inject.Singleton;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** Validation of webhook subscription writes (spec 2.19, 6); synchronous, every problem reported at once. */
@Singleton
class WebhookWrites {

    private static final Set<String> CREATE_FIELDS = JsonBody.fieldsOf(WebhookCreateBody.class);
    private static final Set<String> UPDATE_FIELDS = JsonBody.fieldsOf(WebhookUpdateBody.class);
    private static final Set<String> STATES = java.util.Arrays.stream(WebhookUpdateBody.State.values()).map(Enum::name)
            .collect(java.util.stream.Collectors.toSet());

    private final WebhookStore store;
    private final UrlGuard guard;

    WebhookWrites(WebhookStore store, UrlGuard guard) {
        this.store = store;
        this.guard = guard;
    }

    WebhookSubscriptionView create(String accountId, JsonBody body) {
        body.rejectUnknown(CREATE_FIELDS);
        List<String> problems = new ArrayList<>();
        String name = name(body, problems, true);
        String url = targetUrl(body, problems, true);
        List<String> types = eventTypes(body, problems, true);
        if (!problems.isEmpty()) {
            throw ApiException.badRequest(problems);
        }
        String secret = WebhookStore.newSecret();
        return store.create(accountId, name, url, types, secret).withSecret(secret);
    }

    WebhookSubscriptionView update(String accountId, String externalId, JsonBody body) {
        body.rejectUnknown(UPDATE_FIELDS);
        List<String> problems = new ArrayList<>();
        String name = name(body, problems, false);
        String url = targetUrl(body, problems, false);
        List<String> types = eventTypes(body, problems, false);
        String state = body.string("state").orElse(null);
        if (state != null && !STATES.contains(state)) {
            problems.add(WebhookMessages.STATE_INVALID);
        }
        if (!problems.isEmpty()) {
            throw ApiException.badRequest(problems);
        }
        return store.update(accountId, externalId, name, url, types, state)
                .orElseThrow(() -> ApiException.notFound(WebhookMessages.NOT_FOUND));
    }

    WebhookSubscriptionView get(String accountId, String externalId) {
        return store.find(accountId, externalId).orElseThrow(() -> ApiException.notFound(WebhookMessages.NOT_FOUND));
    }

    List<WebhookSubscriptionView> list(String accountId) {
        return store.list(accountId);
    }

    WebhookSubscriptionView delete(String accountId, String externalId) {
        return store.delete(accountId, externalId).orElseThrow(() -> ApiException.notFound(WebhookMessages.NOT_FOUND));
    }

    private static String name(JsonBody body, List<String> problems, boolean required) {
        if (!body.present("name") && !required) {
            return null;
        }
        String name = body.nonBlankString("name").orElse(null);
        if (name == null) {
            problems.add(WebhookMessages.NAME_REQUIRED);
        } else if (name.length() > 255) {
            problems.add(WebhookMessages.NAME_TOO_LONG);
        }
        return name;
    }

    private String targetUrl(JsonBody body, List<String> problems, boolean required) {
        if (!body.present("targetUrl") && !required) {
            return null;
        }
        String url = body.nonBlankString("targetUrl").orElse(null);
        if (url == null) {
            problems.add(WebhookMessages.TARGET_URL_REQUIRED);
            return null;
        }
        guard.problem(url).ifPresent(problems::add);
        return url;
    }

    private static List<String> eventTypes(JsonBody body, List<String> problems, boolean required) {
        if (!body.present("eventTypes") && !required) {
            return null;
        }
        List<String> types = body.stringList("eventTypes").orElse(List.of());
        if (types.isEmpty()) {
            problems.add(WebhookMessages.EVENT_TYPES_REQUIRED);
        }
        for (String t : types) {
            if (!DomainEvents.TYPES.contains(t)) {
                problems.add(WebhookMessages.unknownEventType(t));
            }
        }
        return List.copyOf(new LinkedHashSet<>(types));
    }
}
