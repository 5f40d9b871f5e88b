package dev.attribution.query.attribution;

import java.util.Arrays;
import io.swagger.v3.oas.annotations.Operation;
import dev.attribution.api.QueryParameters;
import dev.attribution.api.QueryParameter;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.attribution.api.QueryParams;
import dev.attribution.api.RequestIds;
import dev.attribution.api.auth.Caller;
import dev.attribution.api.auth.RequiresRole;
import dev.attribution.api.auth.Roles;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;

import java.time.Clock;
import java.util.List;
import java.util.Map;

/** {@code GET /api/v1.0/attribution/ad-account} (spec 4.5). */
@Controller("/api/v1.0/attribution/ad-account")
class AdAccountAttributionController {

    /** The response: rows, and a message when the ad account does not exist. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Response(List<Map<String, Object>> result, @JsonProperty("request_id") String requestId, List<String> message) {
    }

    private final AdAccountAttributionReport report;

    AdAccountAttributionController(AdAccountAttributionReport report) {
        this.report = report;
    }

    @Get
    @Operation(summary = "Attribution of one ad account over time.")
    @RequiresRole(Roles.GET_AD_ACCOUNT_ATTRIBUTION)
    @QueryParameters(Query.class)
    Response adAccount(QueryParams q, Caller caller) {
        AdAccountAttributionRequest r = AdAccountAttributionRequest.read(q, caller.account().timeZone(), Clock.systemUTC());
        AdAccountAttributionReport.Result result = report.report(caller.accountId(), caller.account().timeZone(), r);
        return new Response(result.rows(), RequestIds.next(), result.found() ? null : List.of("Ad account not found: " + r.adAccountId()));
    }

    interface Query extends QueryParameter {
        Spec attributionModel = Spec.string("required: one of " + Arrays.toString(AttributionRequest.Model.values()));
        Spec startDate = Spec.date("required: first day of the report");
        Spec endDate = Spec.date("required: last day of the report");
        Spec fields = Spec.string("required: comma-separated metrics (spec 4.5.1)");
        Spec ids = Spec.list(50, "required: one ad account id");
        Spec currency = Spec.string("usd or user_currency (default)");
        Spec dayOfAttribution = Spec.bool("count sales on the click's day");
        Spec sourceConfiguration = Spec.string("one of " + Arrays.toString(AttributionRequest.SourceConfiguration.values())
                + " (default prioritize_paid)");
        Spec scientificDaysRange = Spec.integer(1, 30, "scientific model look-back in days (default 30)");
        Spec windowAttributionDaysRange = Spec.integer(0, 365, "attribution window in days (default 0: no limit)");
        Spec adLevelDateGroupingOption = Spec.string("ad_account (default), day, week, month or year");
        Spec newCustomerConfiguration = Spec.string("one of " + Arrays.toString(AttributionFilters.NewCustomers.values()));
        Spec ignoreRecurringSales = Spec.bool("leave recurring sales out");
        Spec excludeHardCosts = Spec.bool("leave hard costs out");
        Spec forecastingOption = Spec.string("one of " + Arrays.toString(AttributionFilters.Forecasting.values()));
        Spec lead_stage = Spec.string("comma-separated lead stage names");
        Spec reportSourceVisibility = Spec.bool("report the sources' visibility");
    }
}
