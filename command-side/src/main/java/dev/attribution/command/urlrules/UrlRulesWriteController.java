package dev.attribution.command.urlrules;

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
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Put;
import io.swagger.v3.oas.annotations.Operation;


/** URL rule writes of spec 4.9: synchronous, strict parameters and fields. */
@Controller("/api/v1.0/url-rules")
class UrlRulesWriteController {

    private final UrlRuleWrites writes;

    UrlRulesWriteController(UrlRuleWrites writes) {
        this.writes = writes;
    }

    @Post(consumes = MediaType.ALL)
    @RequestBodyType(value = UrlRuleBody.class, enforcing = true, example = """
            {"name": "Pricing page", "tag": "!viewed-pricing", "wordsToMatch": ["pricing"], "sourceRuleTypes": ["PREVIOUS_URL"]}""")
    @Operation(summary = "Create a URL rule.")
    @QueryParameters(enforcing = true)
    @RequiresRole(Roles.CREATE_URL_RULES)
    Envelopes.Single<String> create(QueryParams q, @Nullable @Body String body, Caller caller) {
        return new Envelopes.Single<>(writes.create(caller, JsonBody.parse(body, UrlRuleBody.class)), RequestIds.current());
    }

    @Put(value = "/{id}", consumes = MediaType.ALL)
    @RequestBodyType(value = UrlRuleBody.class, enforcing = true, example = """
            {"isEnabled": false}""")
    @Operation(summary = "Update a URL rule; sent fields replace.")
    @QueryParameters(enforcing = true)
    @RequiresRole(Roles.UPDATE_URL_RULES)
    Envelopes.WriteAccepted update(@PathVariable String id, QueryParams q, @Nullable @Body String body, Caller caller) {
        writes.update(caller, id, JsonBody.parse(body, UrlRuleBody.class));
        return Envelopes.WriteAccepted.of(RequestIds.current());
    }

    @Delete("/{id}")
    @Operation(summary = "Delete a URL rule.")
    @QueryParameters(enforcing = true)
    @RequiresRole(Roles.DELETE_URL_RULES)
    Envelopes.WriteAccepted delete(@PathVariable String id, QueryParams q, Caller caller) {
        writes.delete(caller, id);
        return Envelopes.WriteAccepted.of(RequestIds.current());
    }
}
