package dev.attribution.query.attribution.api;

import dev.attribution.query.attribution.roas.MarginalCacCurve;
import dev.attribution.query.attribution.roas.RoasReport;
import dev.attribution.api.NodeSide;
import dev.attribution.api.ServedBy;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.attribution.api.QueryParameter;
import dev.attribution.api.QueryParameters;
import dev.attribution.api.QueryParams;
import dev.attribution.api.RequestIds;
import dev.attribution.api.auth.Caller;
import dev.attribution.api.auth.RequiresRole;
import dev.attribution.api.auth.Roles;
import io.micronaut.context.annotation.Requires;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.swagger.v3.oas.annotations.Operation;

import java.time.Clock;

/**
 * {@code GET /api/v1.0/attribution/roas} and {@code GET /api/v1.0/attribution/marginal-cac-curve} (spec 4.5).
 * Both enforce unknown/repeated parameters (4.0). The curve's role is not named by the spec (5): it uses Get ROAS.
 */
@ServedBy(NodeSide.QUERY)
@Controller("/api/v1.0/attribution")
@Requires(beans = {RoasReport.class, MarginalCacCurve.class})
public class RoasController {

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
    @Operation(operationId = "getRoasReport", summary = "ROAS of one ad entity over a date range.")
    @RequiresRole(Roles.GET_ROAS)
    @QueryParameters(value = RoasQuery.class, enforcing = true)
    Response roas(QueryParams q, Caller caller) {
        RoasReport.Request r = RoasReport.Request.read(q, caller.account().timeZone(), Clock.systemUTC());
        return new Response(RequestIds.current(), roas.report(caller.accountId(), caller.account().timeZone(), r).orElse(null));
    }

    @Get("/marginal-cac-curve")
    @Operation(operationId = "getMarginalCacCurve",
            summary = "Marginal CAC curve of one ad entity: where more spend stops paying (docs/marginal-cac.md).")
    @RequiresRole(Roles.GET_ROAS)
    @QueryParameters(value = CurveQuery.class, enforcing = true)
    Response marginalCacCurve(QueryParams q, Caller caller) {
        MarginalCacCurve.Request r = MarginalCacCurve.Request.read(q, caller.account().timeZone(), Clock.systemUTC());
        return new Response(RequestIds.current(), curve.curve(caller.accountId(), caller.account().timeZone(), r));
    }

    /** The ad entity both reports are about. */
    interface Entity extends QueryParameter {
        Spec id = Spec.string("the entity's id").required();
        Spec level = Spec.string("the entity's level").required();
    }

    interface RoasQuery extends Entity {
        Spec startDate = Spec.date("first day of the report").required();
        Spec endDate = Spec.date("last day of the report").required();
        Spec basis = Spec.string("the date sales are counted on (default click_date)").oneOf("click_date", "sale_date");
    }

    interface CurveQuery extends Entity {
        Spec startDate = Spec.date("default: the history before endDate");
        Spec endDate = Spec.date("default: today");
        Spec ltvWindow = Spec.string("lifetime-value window");
        Spec cacCeiling = Spec.string("the CAC that still pays (a number)");
        Spec attributionModel = Spec.string("attribution model");
    }
}
