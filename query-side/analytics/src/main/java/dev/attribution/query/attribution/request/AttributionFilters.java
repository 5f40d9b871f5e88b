package dev.attribution.query.attribution.request;

import dev.attribution.api.ApiException;
import dev.attribution.api.QueryParameter;
import dev.attribution.api.QueryParams;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The options of spec 4.5 that narrow which conversions a report counts, shared by {@code /attribution} and
 * {@code /attribution/ad-account}. What each one changes is in docs/attribution-models.md.
 *
 * @param leadStages stage names as sent (trimmed); empty = no stage filter. Checked against the account's stages
 *                   by {@link LeadStageNames}.
 */
public record AttributionFilters(NewCustomers newCustomers, boolean ignoreRecurringSales, boolean excludeHardCosts,
                                 List<String> leadStages, Forecasting forecasting, boolean reportSourceVisibility) {

    public enum NewCustomers { all_customers, only_returning_customers, only_unique_customers }

    public enum Forecasting { first_sale, total_sales }

    /** The filters' query parameters ({@code reportSourceVisibility} is declared where the endpoint reads it). */
    public interface Parameters extends QueryParameter {
        Spec newCustomerConfiguration = Spec.string("which customers count as new").oneOf((Object[]) NewCustomers.values());
        Spec ignoreRecurringSales = Spec.bool("leave recurring sales out");
        Spec excludeHardCosts = Spec.bool("leave hard costs out");
        Spec forecastingOption = Spec.string("forecasting of future sales").oneOf((Object[]) Forecasting.values());
        Spec lead_stage = Spec.string("comma-separated lead stage names");
    }

    public static final AttributionFilters NONE = new AttributionFilters(NewCustomers.all_customers, false, false,
            List.of(), Forecasting.first_sale, false);

    /** Reads the options; {@code reportSourceVisibility} is only read where the endpoint has it. */
    static AttributionFilters read(QueryParams q, boolean withSourceVisibility) {
        NewCustomers nc = q.string("newCustomerConfiguration").map(v -> oneOf(v, NewCustomers.class, "newCustomerConfiguration"))
                .orElse(NewCustomers.all_customers);
        boolean ignoreRecurring = q.bool("ignoreRecurringSales").orElse(false);
        boolean excludeHard = q.bool("excludeHardCosts").orElse(false);
        Forecasting forecasting = q.string("forecastingOption").map(v -> oneOf(v, Forecasting.class, "forecastingOption"))
                .orElse(Forecasting.first_sale);
        List<String> stages = new ArrayList<>();
        q.string("lead_stage").ifPresent(v -> Arrays.stream(v.split(",")).map(s -> s.trim().replace("\"", ""))
                .filter(s -> !s.isEmpty()).filter(s -> stages.stream().noneMatch(x -> x.equalsIgnoreCase(s))).forEach(stages::add));
        boolean visibility = withSourceVisibility && q.bool("reportSourceVisibility").orElse(false);
        return new AttributionFilters(nc, ignoreRecurring, excludeHard, List.copyOf(stages), forecasting, visibility);
    }

    /** {@code Invalid <name>: <value>. Accepted values: a, b} — the style of the spec's enum errors. */
    static <E extends Enum<E>> E oneOf(String value, Class<E> type, String name) {
        for (E e : type.getEnumConstants()) {
            if (e.name().equals(value.toLowerCase(Locale.ROOT))) {
                return e;
            }
        }
        throw ApiException.badRequest("Invalid " + name + ": " + value + ". Accepted values: "
                + String.join(", ", Arrays.stream(type.getEnumConstants()).map(Enum::name).toList()));
    }
}
