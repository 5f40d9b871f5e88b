package dev.attribution.command.clicks;

import dev.attribution.api.Envelopes;
import dev.attribution.api.JsonBody;
import dev.attribution.api.RequestBodyType;
import dev.attribution.api.auth.Caller;
import dev.attribution.api.auth.RequiresRole;
import dev.attribution.api.auth.Roles;
import dev.attribution.command.requests.AcceptsIdempotencyKey;
import dev.attribution.command.requests.WriteAcceptance;
import io.micronaut.core.annotation.NonBlocking;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Post;
import io.swagger.v3.oas.annotations.Operation;

import java.util.concurrent.CompletableFuture;

/** {@code POST /api/v1.0/clicks} (spec 4.11). */
@Controller("/api/v1.0/clicks")
class ClicksWriteController {

    private final ClickWrites writes;
    private final WriteAcceptance acceptance;

    ClicksWriteController(ClickWrites writes, WriteAcceptance acceptance) {
        this.writes = writes;
        this.acceptance = acceptance;
    }

    @Post(consumes = MediaType.ALL)
    @RequestBodyType(value = ClickBody.class, example = """
            {"referrerUrl": "https://shop.example.com/pricing?utm_source=newsletter", "email": "ada@example.com", "ip": "203.0.113.7"}""")
    @Operation(summary = "Record a click (asynchronous).")
    @RequiresRole(Roles.CREATE_CLICKS)
    @AcceptsIdempotencyKey
    @NonBlocking
    CompletableFuture<Envelopes.WriteAccepted> create(@Nullable @Body String body, Caller caller) {
        return acceptance.accept(() -> writes.create(caller, JsonBody.parse(body, ClickBody.class)));
    }
}
