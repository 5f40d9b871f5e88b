package dev.attribution.command.leads;

import java.util.List;

/**
 * {@code PUT /leads} (spec 4.1, UPDATE_LEAD) as stored: the lead named by the query ({@code selectId}, else
 * {@code selectEmail}, else {@code selectPhone}) and the body's checked changes ({@link LeadRules#update}). Lists
 * are never null once checked; a null value leaves its field unchanged.
 */
public record UpdateLead(
        String selectId,
        String selectEmail,
        String selectPhone,
        String email,
        String firstName,
        String lastName,
        List<String> tags,
        String tagsDate,
        List<String> removeTags,
        List<String> leadIps,
        List<String> phoneNumbers,
        CreateLead.Consent adOptimizationConsent,
        Stage leadStage,
        List<String> removeLeadStages) {

    /** A stage applied to the lead at {@code date} (an ISO instant; null: when accepted). */
    public record Stage(String name, String date) {
    }

    String consent() {
        return adOptimizationConsent == null ? null : adOptimizationConsent.name();
    }

    static List<String> orNone(List<String> values) {
        return values == null ? List.of() : values;
    }
}
