package dev.attribution.api.auth;

import java.util.List;

/** Role names of spec 5, exactly as they appear in 403 messages. */
public final class Roles {

    public static final String GET_LEADS = "Get Leads";
    public static final String CREATE_LEADS = "Create Leads";
    public static final String UPDATE_LEADS = "Update Leads";
    public static final String DELETE_LEADS = "Delete Leads";
    public static final String ADD_TAGS_TO_LEADS = "Add Tags to Leads";
    public static final String GET_LEAD_JOURNEY = "Get Lead Journey";
    public static final String GET_LEAD_AGGREGATION = "Get Lead Aggregation";
    public static final String GET_LEAD_CLICKS = "Get Lead Clicks";
    public static final String GET_SALES = "Get Sales";
    public static final String UPDATE_SALES = "Update Sales";
    public static final String DELETE_SALES = "Delete Sales";
    public static final String CREATE_ORDERS = "Create Orders";
    public static final String UPDATE_ORDERS = "Update Orders";
    public static final String DELETE_ORDERS = "Delete Orders";
    public static final String GET_CALLS = "Get Calls";
    public static final String CREATE_CALLS = "Create Calls";
    public static final String UPDATE_CALLS = "Update Calls";
    public static final String DELETE_CALLS = "Delete Calls";
    public static final String GET_CONVERSION_PATHS = "Get Conversion Paths";
    public static final String GET_ATTRIBUTION = "Get Attribution";
    public static final String GET_ROAS = "Get ROAS";
    public static final String GET_AD_ACCOUNT_ATTRIBUTION = "Get Ad Account Attribution";
    public static final String GET_AD_ACCOUNTS = "Get Ad Accounts";
    public static final String CREATE_PRODUCTS = "Create Products";
    public static final String GET_PRODUCTS = "Get Products";
    public static final String UPDATE_PRODUCTS = "Update Products";
    public static final String DELETE_PRODUCTS = "Delete Products";
    public static final String GET_TAGS = "Get Tags";
    public static final String GET_SOURCES = "Get Sources";
    public static final String CREATE_SOURCES = "Create Sources";
    public static final String UPDATE_SOURCES = "Update Sources";
    public static final String DELETE_SOURCES = "Delete Sources";
    public static final String GET_ADS = "Get Ads";
    public static final String GET_URL_RULES = "Get URL Rules";
    public static final String CREATE_URL_RULES = "Create URL Rules";
    public static final String UPDATE_URL_RULES = "Update URL Rules";
    public static final String DELETE_URL_RULES = "Delete URL Rules";
    public static final String GET_CUSTOM_COSTS = "Get Custom Costs";
    public static final String CREATE_CUSTOM_COSTS = "Create Custom Costs";
    public static final String UPDATE_CUSTOM_COSTS = "Update Custom Costs";
    public static final String DELETE_CUSTOM_COSTS = "Delete Custom Costs";
    public static final String CREATE_CLICKS = "Create Clicks";
    public static final String GET_CARTS = "Get Carts";
    public static final String CREATE_CARTS = "Create Carts";
    // Subscriptions: roles not shown in spec 5; named like the others.
    public static final String GET_SUBSCRIPTIONS = "Get Subscriptions";
    public static final String CREATE_SUBSCRIPTIONS = "Create Subscriptions";
    public static final String UPDATE_SUBSCRIPTIONS = "Update Subscriptions";
    // Webhook subscriptions: roles not shown in spec 5; named like the others (read-only keys may list, not change).
    public static final String GET_WEBHOOK_SUBSCRIPTIONS = "Get Webhook Subscriptions";
    public static final String CREATE_WEBHOOK_SUBSCRIPTIONS = "Create Webhook Subscriptions";
    public static final String UPDATE_WEBHOOK_SUBSCRIPTIONS = "Update Webhook Subscriptions";
    public static final String DELETE_WEBHOOK_SUBSCRIPTIONS = "Delete Webhook Subscriptions";
    /** Not in the spec: the ad-spend import of this service (docs/ad-spend-import.md). */
    public static final String IMPORT_AD_SPEND = "Import Ad Spend";
    /** Not in the spec: the email-event import of this service (docs/email-events.md). */
    public static final String IMPORT_EMAIL_EVENTS = "Import Email Events";

    /** Every role, in the order of the spec's table; a new account's first key holds them all. */
    public static final List<String> ALL = List.of(
            GET_LEADS, CREATE_LEADS, UPDATE_LEADS, DELETE_LEADS, ADD_TAGS_TO_LEADS, GET_LEAD_JOURNEY,
            GET_LEAD_AGGREGATION, GET_LEAD_CLICKS, GET_SALES, UPDATE_SALES, DELETE_SALES, CREATE_ORDERS,
            UPDATE_ORDERS, DELETE_ORDERS, GET_CALLS, CREATE_CALLS, UPDATE_CALLS, DELETE_CALLS,
            GET_CONVERSION_PATHS, GET_ATTRIBUTION, GET_ROAS, GET_AD_ACCOUNT_ATTRIBUTION, GET_AD_ACCOUNTS,
            CREATE_PRODUCTS, GET_PRODUCTS, UPDATE_PRODUCTS, DELETE_PRODUCTS, GET_TAGS, GET_SOURCES,
            CREATE_SOURCES, UPDATE_SOURCES, DELETE_SOURCES, GET_ADS, GET_URL_RULES, CREATE_URL_RULES,
            UPDATE_URL_RULES, DELETE_URL_RULES, GET_CUSTOM_COSTS, CREATE_CUSTOM_COSTS, UPDATE_CUSTOM_COSTS,
            DELETE_CUSTOM_COSTS, CREATE_CLICKS, GET_CARTS, CREATE_CARTS,
            GET_SUBSCRIPTIONS, CREATE_SUBSCRIPTIONS, UPDATE_SUBSCRIPTIONS, IMPORT_AD_SPEND, IMPORT_EMAIL_EVENTS,
            GET_WEBHOOK_SUBSCRIPTIONS, CREATE_WEBHOOK_SUBSCRIPTIONS, UPDATE_WEBHOOK_SUBSCRIPTIONS, DELETE_WEBHOOK_SUBSCRIPTIONS);

    private Roles() {
    }

    /** True for roles that only read (granted to read-only sub-user keys, spec 5.4). */
    public static boolean isReadRole(String role) {
        return role.startsWith("Get ");
    }
}
