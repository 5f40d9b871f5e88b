package dev.attribution.server.mcp;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a tool tells an agent about its operation: a one-line summary and the query parameters the endpoint reads
 * (spec document 2). The operations themselves (method, path, role) come from the router, so an endpoint without a
 * line here still becomes a tool; its schema then lists only its path variables, {@code body} and any extra
 * argument, which goes to the query string as it is.
 */
final class OperationDocs {

    /** A query parameter: {@code list} is the spec 4.0 list form ({@code "a","b"}), sent from a JSON array. */
    record Param(String name, String type, String description) {
    }

    record Doc(String summary, List<Param> params, String body) {
    }

    private static final String DATE = "date yyyy-MM-dd or date-time (document 1, 2.2)";

    private static Param list(String name, String description) {
        return new Param(name, "list", description);
    }

    private static Param str(String name, String description) {
        return new Param(name, "string", description);
    }

    private static Param integer(String name, String description) {
        return new Param(name, "integer", description);
    }

    private static Param bool(String name, String description) {
        return new Param(name, "boolean", description);
    }

    private static final List<Param> PAGING = List.of(integer("pageSize", "1-250, default 50"),
            str("pageId", "the nextPageId of the previous page"));

    private static List<Param> with(List<Param> paging, Param... params) {
        List<Param> all = new java.util.ArrayList<>(List.of(params));
        all.addAll(paging);
        return List.copyOf(all);
    }

    private static final Map<String, Doc> DOCS = Map.ofEntries(
            Map.entry("GET /api/v1.0/leads", new Doc("List leads with their current stage; all filters optional.", with(PAGING,
                    list("ids", "lead ids, max 50"), list("emails", "emails or email prefixes, max 50"),
                    list("phones", "max 50"), list("tags", "any-match, max 50"),
                    str("tagFromDate", DATE), str("tagToDate", DATE), list("stage", "current stage names, max 50"),
                    str("fromDate", "join date lower bound, " + DATE), str("toDate", "join date upper bound, " + DATE),
                    str("updatedFromDate", DATE), str("updatedToDate", DATE)), null)),
            Map.entry("POST /api/v1.0/leads", new Doc("Create or update a lead and its tags (asynchronous: returns request_id).",
                    List.of(), "the lead: email and/or phoneNumbers, firstName, lastName, tags, leadIps, stage ... (spec 4.1)")),
            Map.entry("PUT /api/v1.0/leads", new Doc("Update leads selected by query (asynchronous).", List.of(
                    list("ids", "lead ids"), list("emails", "emails")), "fields to change (spec 4.1)")),
            Map.entry("DELETE /api/v1.0/leads", new Doc("Delete leads (asynchronous).", List.of(
                    list("ids", "lead ids"), list("emails", "emails")), null)),
            Map.entry("POST /api/v1.0/leads/tags", new Doc("Add tags to leads (asynchronous).", List.of(),
                    "{ids or emails, tags, date}")),
            Map.entry("GET /api/v1.0/leads/journey", new Doc("A lead's journey: clicks, sales, calls in order.", List.of(
                    list("ids", "lead ids"), list("emails", "emails"), str("fields", "comma-separated fields"),
                    bool("includeEvents", "include events")), null)),
            Map.entry("GET /api/v1.0/leads/aggregation", new Doc("Count leads grouped by an attribute.", List.of(
                    str("attribute", "the attribute to group by"), integer("groupsLimit", "max groups"),
                    str("fromDate", DATE), str("toDate", DATE)), null)),
            Map.entry("GET /api/v1.0/leads/clicks", new Doc("The clicks of leads.", with(PAGING,
                    str("leadId", "one lead id"), list("leadIds", "lead ids"), list("emails", "emails"),
                    str("email", "one email"), str("fromDate", DATE), str("toDate", DATE)), null)),
            Map.entry("GET /api/v1.0/sales", new Doc("List sales.", with(PAGING, list("ids", "sale ids"),
                    list("emails", "emails"), list("leadIds", "lead ids"), list("productTags", "product tags"),
                    str("isRecurringSale", "true or false"), str("saleRefundedState", "refund state"),
                    str("fromDate", DATE), str("toDate", DATE)), null)),
            Map.entry("GET /api/v1.0/calls", new Doc("List calls.", with(PAGING, list("ids", "call ids"),
                    list("emails", "emails"), list("leadIds", "lead ids"), list("productTags", "product tags"),
                    bool("qualified", "qualified calls only"), list("qualificationStages", "stages"),
                    str("fromDate", DATE), str("toDate", DATE)), null)),
            Map.entry("POST /api/v1.0/orders", new Doc("Record an order (asynchronous).", List.of(), "the order (spec 4.3)")),
            Map.entry("POST /api/v1.0/calls", new Doc("Record a call (asynchronous).", List.of(), "the call (spec 4.3)")),
            Map.entry("POST /api/v1.0/clicks", new Doc("Record a click (asynchronous).", List.of(), "the click (spec 4.12)")),
            Map.entry("GET /api/v1.0/conversion-paths", new Doc("Conversion paths of leads that converted.", with(PAGING,
                    str("conversionType", "required: the conversion to trace"),
                    str("windowAttributionDaysRange", "look-back window in days"),
                    str("fromDate", DATE), str("toDate", DATE)), null)),
            Map.entry("GET /api/v1.0/attribution", new Doc("Attribution report (last_click, first_click, scientific).", with(PAGING,
                    str("attributionModel", "required: last_click, first_click or scientific"),
                    str("startDate", "required"), str("endDate", "required"),
                    str("level", "required: the ad level"), str("fields", "required: comma-separated metrics"),
                    str("ids", "comma-separated ids at level"),
                    str("keywordsIds", "keyword levels only: <adGroupId>:[<keywordId>,...] separated by commas"),
                    str("currency", "usd or user_currency"),
                    bool("dayOfAttribution", "filter by click date"), integer("scientificDaysRange", "1-30, default 30"),
                    str("sourceConfiguration", "all_sources, only_organic, only_paid, prioritize_organic, prioritize_paid"),
                    str("timeGroupingOption", "source_link, day, week, month or year")), null)),
            Map.entry("GET /api/v1.0/products", new Doc("List products.", with(PAGING, str("tag", "product tag"),
                    str("name", "name"), str("category", "category"), str("isRecurringSale", "RECURRING, NON_RECURRING or ALL (default)")), null)),
            Map.entry("GET /api/v1.0/tags", new Doc("List the account's tags.", with(PAGING, str("name", "name prefix")), null)),
            Map.entry("GET /api/v1.0/carts", new Doc("List carts.", with(PAGING, list("emails", "emails"),
                    list("leadIds", "lead ids"), bool("purchased", "carts with an order"),
                    str("fromDate", DATE), str("toDate", DATE)), null)),
            Map.entry("GET /api/v1.0/requests/{requestId}", new Doc(
                    "Status of an asynchronous write: PENDING, PROCESSED or FAILED, with its result.", List.of(), null)),
            Map.entry("GET /api/v1.0/url-rules", new Doc("List URL rules.", with(PAGING, list("ids", "rule ids"),
                    str("tag", "source tag"), str("urlRuleActionType", "action type"),
                    str("fromDate", DATE), str("toDate", DATE)), null)),
            Map.entry("GET /api/v1.0/custom-costs", new Doc("List custom costs.", with(PAGING, list("ids", "ids"),
                    str("fromDate", DATE), str("toDate", DATE)), null)),
            Map.entry("GET /api/v1.0/user-info", new Doc("The calling account's details.", List.of(), null)),
            Map.entry("GET /api/v1.0/tags/count", new Doc("Tags with the number of leads carrying each.", with(PAGING,
                    str("name", "exact tag name")), null)),
            Map.entry("GET /api/v1.0/sources", new Doc("List traffic sources.", with(PAGING,
                    list("adSourceIds", "max 50"), bool("includeOrganic", "include organic sources"),
                    bool("includeDisregarded", "include disregarded sources"), str("integrationType", "ad platform"),
                    str("name", "full name, case-insensitive"), str("tag", "full tag, case-insensitive")), null)),
            Map.entry("POST /api/v1.0/sources", new Doc("Create a traffic source (asynchronous).", List.of(),
                    "{name (required), category, goal, trafficSource, isDisregard, isOrganic, integrationType, adSourceId, ...}")),
            Map.entry("GET /api/v1.0/ads", new Doc("List ads.", with(PAGING, str("integrationType", "ad platform"),
                    list("adSourceIds", "max 50")), null)),
            Map.entry("GET /api/v1.0/ad-accounts", new Doc("List ad accounts.", with(PAGING,
                    str("ids", "comma-separated, max 50"), str("fields", "name, type; default all")), null)),
            Map.entry("GET /api/v1.0/keywords", new Doc("List keywords.", with(PAGING, str("adgroupId", "ad group id"),
                    str("fromDate", DATE), str("toDate", DATE)), null)),
            Map.entry("GET /api/v1.0/stages", new Doc("Lead stages.", with(PAGING, str("name", "stage name"),
                    str("stageFromDate", DATE), str("stageToDate", DATE)), null)),
            Map.entry("GET /api/v1.0/subscriptions", new Doc("List subscriptions.", with(PAGING, list("ids", "ids"),
                    list("emails", "emails"), list("leadIds", "lead ids"), list("productTags", "product tags"),
                    str("status", "subscription status"), str("fromDate", DATE), str("toDate", DATE),
                    str("updatedFromDate", DATE), str("updatedToDate", DATE)), null)),
            Map.entry("POST /api/v1.0/products", new Doc("Create a product (asynchronous).", List.of(),
                    "{name (required, 3+ chars), price (required, plain number), category, packages}")),
            Map.entry("PUT /api/v1.0/products/{id}", new Doc("Update a product; only supplied fields change.", List.of(),
                    "{name, price, customCost, tag, sku, category, isRecurringSale, callProduct, packages}")),
            Map.entry("POST /api/v1.0/custom-costs", new Doc("Create a custom cost (asynchronous).", List.of(),
                    "{startDate, frequency (DAILY or ONE_TIME), cost, tags (source tags), name, endDate}")),
            Map.entry("POST /api/v1.0/carts", new Doc("Create a cart and, if absent, its lead (asynchronous).", List.of(),
                    "the cart with its items (spec 4.12)")),
            Map.entry("GET /api/v1.0/attribution/roas", new Doc("ROAS report.", List.of(
                    str("attributionModel", "required"), str("startDate", "required"), str("endDate", "required")), null)),
            Map.entry("GET /api/v1.0/attribution/ad-account", new Doc("Attribution of one ad account over time.", List.of(
                    str("attributionModel", "required"), str("startDate", "required"), str("endDate", "required"),
                    str("fields", "required: comma-separated metrics"), str("ids", "required: one ad account id"),
                    str("currency", "usd or user_currency"), str("adLevelDateGroupingOption",
                            "ad_account, day, week, month or year")), null)));

    private OperationDocs() {
    }

    static Optional<Doc> of(String method, String path) {
        return Optional.ofNullable(DOCS.get(method + " " + path));
    }
}
