package dev.attribution.command.leads;

/**
 * {@code DELETE /leads} (spec 3.2, DELETE_LEAD): the lead named by {@code selectId} or {@code selectEmail}, and the
 * {@code leadId} found when it was accepted (its contacts were blacklisted then), null when none was found.
 */
public record DeleteLead(String selectId, String selectEmail, String leadId) {
}
