package dev.attribution.command.webhooks;

import dev.attribution.api.Envelopes;
import dev.attribution.api.JsonBody;
import dev.attribution.api.QueryParameters;
import dev.attribution.api.QueryParams;
import dev.attribution.api.RequestBodyType;
import dev.attribution.api.RequestIds;
import dev.attribution.api.auth.Caller;
import dev.attribution.api.auth.RequiresRole;
import dev.attribution.api.auth.Roles;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Put;
import io.swagger.v3.oas.annotations.Operation;

import java.util.List;

/** Webhook subscriptions (spec 2.19, 6) at the paths real clients use; synchronous. */
@Controller("/api/v1.0/webhook-subscriptions")
class WebhookSubscriptionsController {

    private final WebhookWrites writes;

    WebhookSubscriptionsController(WebhookWrites writes) {
        this.writes = writes;
    }

    @Post(consumes = MediaType.ALL)
    @RequestBodyType(value = WebhookCreateBody.class, enforcing = true, example = """
            {"name": "CRM sync", "targetUrl": "https://203.0.113.10/hooks/attribution", "eventTypes": ["lead.tag.added"]}""")
    @Operation(summary = "Create a webhook subscription; the answer holds its secretKey, shown only once.")
    @QueryParameters(enforcing = true)
    @RequiresRole(Roles.CREATE_WEBHOOK_SUBSCRIPTIONS)
    Envelopes.Single<WebhookSubscriptionView> create(QueryParams q, @Nullable @Body String body, Caller caller) {
        return new Envelopes.Single<>(writes.create(caller.accountId(), JsonBody.parse(body, WebhookCreateBody.class)), RequestIds.current());
    }

    @Get
    @Operation(summary = "List the webhook subscriptions.")
    @QueryParameters(enforcing = true)
    @RequiresRole(Roles.GET_WEBHOOK_SUBSCRIPTIONS)
    Envelopes.Page<WebhookSubscriptionView> list(QueryParams q, Caller caller) {
        List<WebhookSubscriptionView> all = writes.list(caller.accountId());
        return new Envelopes.Page<>(all, null, RequestIds.current());
    }

    @Get("/{externalId}")
    @Operation(summary = "One webhook subscription.")
    @QueryParameters(enforcing = true)
    @RequiresRole(Roles.GET_WEBHOOK_SUBSCRIPTIONS)
    Envelopes.Single<WebhookSubscriptionView> get(@PathVariable String externalId, QueryParams q, Caller caller) {
        return new Envelopes.Single<>(writes.get(caller.accountId(), externalId), RequestIds.current());
    }

    @Put(value = "/{externalId}", consumes = MediaType.ALL)
    @RequestBodyType(value = WebhookUpdateBody.class, enforcing = true, example = """
            {"state": "MANUALLY_PAUSED"}""")
    @Operation(summary = "Update a webhook subscription (name, targetUrl, eventTypes, state).")
    @QueryParameters(enforcing = true)
    @RequiresRole(Roles.UPDATE_WEBHOOK_SUBSCRIPTIONS)
    Envelopes.Single<WebhookSubscriptionView> update(@PathVariable String externalId, QueryParams q,
                                                     @Nullable @Body String body, Caller caller) {
        return new Envelopes.Single<>(writes.update(caller.accountId(), externalId, JsonBody.parse(body, WebhookUpdateBody.class)), RequestIds.current());
    }

    @Delete("/{externalId}")
    @Operation(summary = "Delete a webhook subscription.")
    @QueryParameters(enforcing = true)
    @RequiresRole(Roles.DELETE_WEBHOOK_SUBSCRIPTIONS)
    Envelopes.Single<WebhookSubscriptionView> delete(@PathVariable String externalId, QueryParams q, Caller caller) {
        return new Envelopes.Single<>(writes.delete(caller.accountId(), externalId), RequestIds.current());
    }
}
