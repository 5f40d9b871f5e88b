package dev.attribution.command.webhooks;

import dev.attribution.api.NodeSide;
import dev.attribution.api.ServedBy;
import dev.attribution.api.Envelopes;
import dev.attribution.api.ApiException;
import dev.attribution.api.CommandJson;
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
import dev.attribution.command.webhooks.WebhookCommands.CreateSubscription;
import dev.attribution.command.webhooks.WebhookCommands.SubscriptionChanges;
import io.swagger.v3.oas.annotations.Operation;

/**
 * Webhook subscriptions (spec 2.19, 6) at the paths real clients use; synchronous. Creating, changing and deleting
 * them are command routes; listing and reading them are query routes, served by read nodes like every other read of
 * PostgreSQL (README, "Node roles").
 */
@ServedBy(NodeSide.COMMAND)
@Controller("/api/v1.0/webhook-subscriptions")
class WebhookSubscriptionsController {

    private final WebhookSubscriptionsTable subscriptions;
    private final UrlGuard guard;

    WebhookSubscriptionsController(WebhookSubscriptionsTable subscriptions, UrlGuard guard) {
        this.subscriptions = subscriptions;
        this.guard = guard;
    }

    @Post(consumes = MediaType.ALL)
    @RequestBodyType(value = CreateSubscription.class, enforcing = true, example = """
            {"name": "CRM sync", "targetUrl": "https://203.0.113.10/hooks/attribution", "eventTypes": ["lead.tag.added"]}""")
    @Operation(summary = "Create a webhook subscription; the answer holds its secretKey, shown only once.")
    @QueryParameters(enforcing = true)
    @RequiresRole(Roles.CREATE_WEBHOOK_SUBSCRIPTIONS)
    Envelopes.Single<WebhookSubscriptionView> create(QueryParams q, @Nullable @Body String body, Caller caller) {
        CreateSubscription subscription = WebhookRules.create(CommandJson.bind(body, CreateSubscription.class, true), guard);
        String secret = WebhookSubscriptionsTable.newSecret();
        return new Envelopes.Single<>(subscriptions.create(caller.accountId(), subscription, secret).withSecret(secret),
                RequestIds.current());
    }

    @Get
    @ServedBy(NodeSide.QUERY)
    @Operation(summary = "List the webhook subscriptions.")
    @QueryParameters(enforcing = true)
    @RequiresRole(Roles.GET_WEBHOOK_SUBSCRIPTIONS)
    Envelopes.Page<WebhookSubscriptionView> list(QueryParams q, Caller caller) {
        return new Envelopes.Page<>(subscriptions.list(caller.accountId()), null, RequestIds.current());
    }

    @Get("/{externalId}")
    @ServedBy(NodeSide.QUERY)
    @Operation(summary = "One webhook subscription.")
    @QueryParameters(enforcing = true)
    @RequiresRole(Roles.GET_WEBHOOK_SUBSCRIPTIONS)
    Envelopes.Single<WebhookSubscriptionView> get(@PathVariable String externalId, QueryParams q, Caller caller) {
        return new Envelopes.Single<>(subscriptions.find(caller.accountId(), externalId).orElseThrow(WebhookSubscriptionsController::notFound),
                RequestIds.current());
    }

    @Put(value = "/{externalId}", consumes = MediaType.ALL)
    @RequestBodyType(value = SubscriptionChanges.class, enforcing = true, example = """
            {"state": "MANUALLY_PAUSED"}""")
    @Operation(summary = "Update a webhook subscription (name, targetUrl, eventTypes, state).")
    @QueryParameters(enforcing = true)
    @RequiresRole(Roles.UPDATE_WEBHOOK_SUBSCRIPTIONS)
    Envelopes.Single<WebhookSubscriptionView> update(@PathVariable String externalId, QueryParams q,
                                                     @Nullable @Body String body, Caller caller) {
        SubscriptionChanges changes = WebhookRules.update(CommandJson.bind(body, SubscriptionChanges.class, true), guard);
        return new Envelopes.Single<>(subscriptions.update(caller.accountId(), externalId, changes)
                .orElseThrow(WebhookSubscriptionsController::notFound), RequestIds.current());
    }

    @Delete("/{externalId}")
    @Operation(summary = "Delete a webhook subscription.")
    @QueryParameters(enforcing = true)
    @RequiresRole(Roles.DELETE_WEBHOOK_SUBSCRIPTIONS)
    Envelopes.Single<WebhookSubscriptionView> delete(@PathVariable String externalId, QueryParams q, Caller caller) {
        return new Envelopes.Single<>(subscriptions.delete(caller.accountId(), externalId)
                .orElseThrow(WebhookSubscriptionsController::notFound), RequestIds.current());
    }

    private static ApiException notFound() {
        return ApiException.notFound(WebhookRules.NOT_FOUND);
    }
}
