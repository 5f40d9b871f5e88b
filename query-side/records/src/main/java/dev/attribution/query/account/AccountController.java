package dev.attribution.query.account;

import dev.attribution.api.NodeSide;
import dev.attribution.api.ServedBy;
import dev.attribution.api.ApiException;
import dev.attribution.api.Envelopes;
import dev.attribution.api.QueryParameters;
import dev.attribution.api.QueryParams;
import dev.attribution.api.RequestIds;
import dev.attribution.api.auth.Caller;
import dev.attribution.api.auth.Roles;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.swagger.v3.oas.annotations.Operation;

import java.util.List;

/** Account endpoints of spec 4.13 in the shapes the real clients read: user info, domains, tracking script. */
@ServedBy(NodeSide.QUERY)
@Controller("/api/v1.0")
class AccountController {

    private final DomainDirectory domains;
    private final TrackingScript script;

    AccountController(DomainDirectory domains, TrackingScript script) {
        this.domains = domains;
        this.script = script;
    }

    /** {@code {request_id, result: {accountId, name, email, timeZone, currency, roles}}}. */
    @Get("/user-info")
    @Operation(summary = "The calling account's details and the roles of its key.")
    @QueryParameters(enforcing = true)
    Envelopes.Single<UserInfoView> userInfo(QueryParams q, Caller caller) {
        List<String> roles = Roles.ALL.stream().filter(caller.roles()::contains).toList();
        var a = caller.account();
        return new Envelopes.Single<>(new UserInfoView(a.id(), a.name(), a.email(), a.timeZone().getId(), a.currency(), roles),
                RequestIds.current());
    }

    /** A bare JSON array of domain names (the client maps each string to {@code {domain}}). */
    @Get("/domains")
    @Operation(operationId = "listDomains", summary = "The account's tracked domains.")
    @QueryParameters(enforcing = true)
    List<String> domains(QueryParams q, Caller caller) {
        return domains.list(caller.accountId());
    }

    /**
     * The tracking snippet as text/plain whenever the caller accepts text (no {@code Accept}, {@code text/plain},
     * {@code text/*}, {@code *}{@code /*}: the real n8n client sends {@code application/json, text/plain, *}{@code /*} and
     * reads the text); to a caller that accepts only JSON, the snippet in the single-object envelope
     * {@code {result: "<script…>", request_id}} (spec 001 §4.0, every response is JSON) instead of 406. Issue 22 item
     * 18, docs/clients.md "Where the spec is silent".
     */
    @Get(value = "/tracking-script", produces = {MediaType.TEXT_PLAIN, MediaType.APPLICATION_JSON})
    @Operation(summary = "The account's tracking snippet: text/plain, or {result, request_id} to a caller accepting only JSON.")
    @QueryParameters(value = TrackingScript.Query.class, enforcing = true)
    HttpResponse<?> trackingScript(HttpRequest<?> request, QueryParams q, Caller caller) {
        if (caller.roles().stream().allMatch(Roles::isReadRole)) {
            throw ApiException.forbidden(List.of(AccountMessages.READ_ONLY_SCRIPT));
        }
        String domain = request.getParameters().get("domain");
        if (domain != null && !domain.isBlank()) {
            String d;
            try {
                d = DomainDirectory.normalize(domain);
            } catch (IllegalArgumentException e) {
                throw ApiException.badRequest(AccountMessages.UNKNOWN_DOMAIN);
            }
            if (!domains.list(caller.accountId()).contains(d)) {
                throw ApiException.badRequest(AccountMessages.UNKNOWN_DOMAIN);
            }
        }
        String host = request.getHeaders().get("Host");
        String snippet = script.render(caller.accountId(), host, request.getParameters());
        if (acceptsText(request.accept())) {
            return HttpResponse.ok(snippet).contentType(MediaType.TEXT_PLAIN_TYPE);
        }
        return HttpResponse.ok(new Envelopes.Single<>(snippet, RequestIds.current())).contentType(MediaType.APPLICATION_JSON_TYPE);
    }

    private static boolean acceptsText(java.util.Collection<MediaType> accepted) {
        return accepted.isEmpty() || accepted.stream().anyMatch(m -> ("*".equals(m.getType()) || "text".equals(m.getType()))
                && ("*".equals(m.getSubtype()) || "plain".equals(m.getSubtype())));
    }
}
