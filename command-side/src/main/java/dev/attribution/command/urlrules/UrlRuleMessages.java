package dev.attribution.command.urlrules;

/** Every validation message of spec 4.9, written once. */
public final class UrlRuleMessages {

    public static final String NOT_FOUND = "The externalId does not exist for this user";
    public static final String DUPLICATE = "A URL rule with this tag or matching words already exists";
    public static final String NAME_TOO_LONG = "Invalid field: name must be at most 255 characters";
    public static final String WORDS_EMPTY = "Invalid field: wordsToMatch must contain at least one non-empty value";
    public static final String SOURCE_RULE_TYPES_EMPTY = "Invalid field: sourceRuleTypes must contain at least one value";
    public static final String SCORES_KEYWORDS = "Invalid field: every entry in scores must contain at least one non-empty keyword";
    public static final String TAG_PREFIX = "Invalid tag: a URL rule tag must start with ! (action tag), @ (source tag), "
            + "$ (sale tag) or # (subscription tag); for a lead-stage rule send createLeadStage=true and a tag without prefix";
    public static final String TAG_STAGE = "Invalid tag: a lead-stage rule (createLeadStage=true) takes a tag without "
            + "prefix, which becomes the lead stage name";
    public static final String TRAFFIC_SOURCE_BOTH = "Provide either the dynamic parameter trafficSourceToMatch or the "
            + "manual category trafficSourceCategory, not both";
    public static final String SOURCE_CATEGORY_BOTH = "Provide either the dynamic parameter sourceCategoryToMatch or the "
            + "manual category sourceCategory, not both";

    private UrlRuleMessages() {
    }

    public static String missing(String field) {
        return "Missing required field: " + field;
    }

    public static String comma(String field) {
        return "Invalid field: " + field + " values cannot contain a comma";
    }

    public static String atMostOne(String field) {
        return "Invalid field: " + field + " accepts at most one value";
    }

    public static String tooLong(String field) {
        return "Invalid field: " + field + " values must be at most 255 characters";
    }
}
