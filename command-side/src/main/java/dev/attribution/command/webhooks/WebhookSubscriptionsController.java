package dev.attribution.command.webhooks;

import dev.attribution.api.Envelopes;
import dev.attribution.api.JsonBody;
import dev.attribution.api.QueryParams;
import dev.attribution.api.RequestIds;
import dev.attribution.api.auth.Caller;
import dev.attribution.api.auth.RequiresRole;
import dev.attribution.api.auth.Roles;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Put;

import java.util.List;
import java.util.Set;

/** Webhook subscriptions (spec 2.19, 6) at the paths real clients use; synchronous. */
@Controller("/api/v1.0/webhook-subscriptions")
class WebhookSubscriptionsController {

    private final WebhookWrites writes;

    WebhookSubscriptionsController(WebhookWrites writes) {
        this.writes = writes;
    }

    @Post(consumes = MediaType.ALL)
    @RequiresRole(Roles.CREATE_WEBHOOK_SUBSCRIPTIONS)
    Envelopes.Single<WebhookSubscriptionView> create(HttpRequest<?> request, @Nullable @Body String body, Caller caller) {
        QueryParams.strict(request.getParameters(), Set.of());
        return new Envelopes.Single<>(writes.create(caller.accountId(), JsonBody.parse(body)), RequestIds.next());
    }

    @Get
    @RequiresRole(Roles.GET_WEBHOOK_SUBSCRIPTIONS)
    Envelopes.Page<WebhookSubscriptionView> list(HttpRequest<?> request, Caller caller) {
        QueryParams.strict(request.getParameters(), Set.of());
        List<WebhookSubscriptionView> all = writes.list(caller.accountId());
        return new Envelopes.Page<>(all, null, RequestIds.next());
    }

    @Get("/{externalId}")
    @RequiresRole(Roles.GET_WEBHOOK_SUBSCRIPTIONS)
    Envelopes.Single<WebhookSubscriptionView> get(@PathVariable String externalId, HttpRequest<?> request, Caller caller) {
        QueryParams.strict(request.getParameters(), Set.of());
        return new Envelopes.Single<>(writes.get(caller.accountId(), externalId), RequestIds.next());
    }

    @Put(value = "/{externalId}", consumes = MediaType.ALL)
    @RequiresRole(Roles.UPDATE_WEBHOOK_SUBSCRIPTIONS)
    Envelopes.Single<WebhookSubscriptionView> update(@PathVariable String externalId, HttpRequest<?> request,
                                                     @Nullable @Body String body, Caller caller) {
        QueryParams.strict(request.getParameters(), Set.of());
        return new Envelopes.Single<>(writes.update(caller.accountId(), externalId, JsonBody.parse(body)), RequestIds.next());
    }

    @Delete("/{externalId}")
    @RequiresRole(Roles.DELETE_WEBHOOK_SUBSCRIPTIONS)
    Envelopes.Single<WebhookSubscriptionView> delete(@PathVariable String externalId, HttpRequest<?> request, Caller caller) {
        QueryParams.strict(request.getParameters(), Set.of());
        return new Envelopes.Single<>(writes.delete(caller.accountId(), externalId), RequestIds.next());
    }
}
