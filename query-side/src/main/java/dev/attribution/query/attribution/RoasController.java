package dev.attribution.query.attribution;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.attribution.api.QueryParams;
import dev.attribution.api.RequestIds;
import dev.attribution.api.auth.Caller;
import dev.attribution.api.auth.RequiresRole;
import dev.attribution.api.auth.Roles;
import io.micronaut.context.annotation.Requires;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;

import java.time.Clock;

/**
 * {@code GET /api/v1.0/attribution/roas} and {@code GET /api/v1.0/attribution/marginal-cac-curve} (spec 4.5).
 * Both enforce unknown/repeated parameters (4.0). The curve's role is not named by the spec (5): it uses Get ROAS.
 */
@Controller("/api/v1.0/attribution")
@Requires(beans = {RoasReport.class, MarginalCacCurve.class})
class RoasController {

    /** {@code result} is left out when the entity has no row for the range. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Response(@JsonProperty("request_id") String requestId, Object result) {
    }

    private final RoasReport roas;
    private final MarginalCacCurve curve;

    RoasController(RoasReport roas, MarginalCacCurve curve) {
        this.roas = roas;
        this.curve = curve;
    }

    @Get("/roas")
    @RequiresRole(Roles.GET_ROAS)
    Response roas(HttpRequest<?> request, Caller caller) {
        QueryParams q = QueryParams.strict(request.getParameters(), RoasReport.Request.PARAMETERS);
        RoasReport.Request r = RoasReport.Request.read(q, caller.account().timeZone(), Clock.systemUTC());
        return new Response(RequestIds.next(), roas.report(caller.accountId(), caller.account().timeZone(), r).orElse(null));
    }

    @Get("/marginal-cac-curve")
    @RequiresRole(Roles.GET_ROAS)
    Response marginalCacCurve(HttpRequest<?> request, Caller caller) {
        QueryParams q = QueryParams.strict(request.getParameters(), MarginalCacCurve.Request.PARAMETERS);
        MarginalCacCurve.Request r = MarginalCacCurve.Request.read(q, caller.account().timeZone(), Clock.systemUTC());
        return new Response(RequestIds.next(), curve.curve(caller.accountId(), caller.account().timeZone(), r));
    }
}
