package dev.attribution.command.leads;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.attribution.api.JsonBody;

/**
 * The two lead rules that writes of other features not yet turned into command records (clicks, commerce) still
 * apply to their {@link JsonBody}: the email rule and the names copied. Lead writes themselves are
 * {@link LeadRules}; remove this class once its last caller reads a command record.
 */
public final class LeadWrites {

    private LeadWrites() {
    }

    /** The email rule every write shares: {@code Invalid email: <value>} ({@link LeadRules#checkEmail}). */
    public static void validateEmail(String email) {
        LeadRules.checkEmail(email);
    }

    /**
     * The lead's {@code firstName} and {@code lastName} of a write (orders, calls, carts, subscriptions), into
     * {@code payload}: a blank name is no value, so the stored name is kept. Clients send {@code ""} for an optional
     * field left empty (docs/clients.md); a lead's name is never cleared by a write.
     */
    public static void copyNames(JsonBody body, ObjectNode payload) {
        body.nonBlankString("firstName").ifPresent(v -> payload.put("firstName", v));
        body.nonBlankString("lastName").ifPresent(v -> payload.put("lastName", v));
    }
}
