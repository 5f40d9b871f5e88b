package dev.attribution.server.reports;

import java.util.Set;

import static dev.attribution.server.support.ApiTest.enc;

/**
 * The options besides model, level, grouping and sources that the oracles model and a partner's account exercises:
 * newCustomerConfiguration (the first-sale flags read back), ignoreRecurringSales (the isRebill items),
 * dayOfAttribution (the credited click's date); mostly the defaults.
 */
record ApiWrittenExtra(String newCustomers, boolean ignoreRecurring, boolean byClick, boolean excludeHard, String stage, String status) {
    static final String[] NEW_CUSTOMERS = {"all_customers", "all_customers", "only_unique_customers", "all_customers", "only_returning_customers"};
    static final String[] STAGES = {"", "Hot", "", "hot,COLD", "", "cold"};
    static final String[] STATUSES = {"", "active", "", "paused"};

    static ApiWrittenExtra of(int n) {
        return new ApiWrittenExtra(NEW_CUSTOMERS[n % NEW_CUSTOMERS.length], n % 4 == 1, n % 3 == 2, n % 5 == 3, STAGES[n % STAGES.length],
                STATUSES[(n / 2) % STATUSES.length]);
    }

    /** Without lead_stage and status (GET /attribution/ad-account has neither; status needs source_link). */
    ApiWrittenExtra plain() {
        return new ApiWrittenExtra(newCustomers, ignoreRecurring, byClick, excludeHard, "", "");
    }

    ApiWrittenExtra withoutStatus() {
        return new ApiWrittenExtra(newCustomers, ignoreRecurring, byClick, excludeHard, stage, "");
    }

    String query() {
        return (newCustomers.equals("all_customers") ? "" : "&newCustomerConfiguration=" + newCustomers)
                + (ignoreRecurring ? "&ignoreRecurringSales=true" : "") + (byClick ? "&dayOfAttribution=true" : "")
                + (excludeHard ? "&excludeHardCosts=true" : "") + (stage.isEmpty() ? "" : "&lead_stage=" + enc(stage))
                + (status.isEmpty() ? "" : "&status=" + status);
    }

    AttributionOracle.Opts opts(ApiWrittenDataSet d, String grouping, Set<String> scope) {
        return opts(d, grouping, scope, Set.of());
    }

    /** {@code hidden}: the tags whose clicks reportSourceVisibility=true leaves out (deleted sources). */
    AttributionOracle.Opts opts(ApiWrittenDataSet d, String grouping, Set<String> scope, Set<String> hidden) {
        return new AttributionOracle.Opts(newCustomers, ignoreRecurring, grouping, byClick, excludeHard, d.stageLeads(stage), hidden, scope, d.zone);
    }
}

