package dev.attribution.command.commerce;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.attribution.api.ApiDates;
import dev.attribution.api.ApiException;
import dev.attribution.api.JsonBody;
import dev.attribution.command.blacklist.Blacklist;
import dev.attribution.command.leads.LeadResolver;
import dev.attribution.command.leads.LeadWrites;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Body rules the commerce writes share (orders, carts, calls, subscriptions), each message written once: who the
 * write names (email or phones, names, IPs, stage), email shape, write dates. Validated values are copied into the
 * request payload under the same names; handlers read them back with {@link #person}.
 */
public final class CommerceInput {

    public static final String EMAIL_OR_PHONE = "Either email or phoneNumbers must be provided";
    private static final Pattern EMAIL = Pattern.compile("^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$");

    private CommerceInput() {
    }

    public static boolean isEmail(String email) {
        return email != null && email.length() <= 320 && EMAIL.matcher(email).matches();
    }

    public static String checkEmail(String field, String email) {
        if (!isEmail(email)) {
            throw ApiException.badRequest("Invalid " + field + ": " + email);
        }
        return email;
    }

    /**
     * Copies the person fields into {@code payload}: {@code email} (checked), {@code phoneNumbers} (string or array),
     * {@code firstName}, {@code lastName}, {@code leadIps} (at most {@code maxIps}), {@code stage}. With
     * {@code required}, one of email and phones must be present. Returns whether anyone is named.
     */
    public static boolean copyPerson(JsonBody body, ObjectNode payload, boolean required, boolean checkEmail, int maxIps) {
        Optional<String> email = body.nonBlankString("email");
        List<String> phones = body.stringOrList("phoneNumbers").orElse(List.of());
        if (email.isEmpty() && phones.isEmpty()) {
            if (required) {
                throw ApiException.badRequest(EMAIL_OR_PHONE);
            }
            return false;
        }
        if (checkEmail) {
            email.ifPresent(e -> checkEmail("email", e));
        }
        email.ifPresent(e -> payload.put("email", e));
        payload.set("phoneNumbers", strings(phones));
        LeadWrites.copyNames(body, payload);
        List<String> ips = dev.attribution.api.IpAddresses.checked("leadIps", body.stringOrList("leadIps").orElse(List.of()));
        if (ips.size() > maxIps) {
            throw ApiException.badRequest("The maximum number of leadIps is " + maxIps);
        }
        payload.set("leadIps", strings(ips));
        body.nonBlankString("stage").ifPresent(v -> payload.put("stage", v));
        return true;
    }

    /**
     * Refuses (400, no request_id) a commerce write whose payload carries a blacklisted email, parent email or phone
     * (spec 3.2, 7.2.8). Call it after the person fields were copied into {@code payload}.
     */
    public static void checkBlacklist(Blacklist blacklist, String accountId, JsonNode payload) {
        blacklist.check(accountId, text(payload, "email"), texts(payload.get("phoneNumbers")));
        if (payload.hasNonNull("parentEmail")) {
            blacklist.checkEmail(accountId, payload.get("parentEmail").asText());
        }
    }

    /** The person a payload names, or null when it names none. */
    public static LeadResolver.Person person(JsonNode p) {
        if (!p.hasNonNull("email") && texts(p.get("phoneNumbers")).isEmpty()) {
            return null;
        }
        return new LeadResolver.Person(text(p, "email"), texts(p.get("phoneNumbers")), text(p, "firstName"),
                text(p, "lastName"), texts(p.get("leadIps")), text(p, "stage"));
    }

    /** A write date field (2.2.3) as an ISO instant string, when present. */
    public static void copyDate(JsonBody body, ObjectNode payload, String field) {
        body.nonBlankString(field).ifPresent(d -> payload.put(field, ApiDates.parseWrite(d).toString()));
    }

    public static String text(JsonNode p, String field) {
        return p != null && p.hasNonNull(field) ? p.get(field).asText() : null;
    }

    public static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        if (array != null && array.isArray()) {
            array.forEach(n -> out.add(n.asText()));
        }
        return out;
    }

    public static ArrayNode strings(List<String> values) {
        ArrayNode array = JsonBody.mapper().createArrayNode();
        values.forEach(array::add);
        return array;
    }

    /** The lane of a write that names a person: the same as the lead writes' (email, else first phone). */
    public static String laneKey(ObjectNode payload, String fallback) {
        if (payload.hasNonNull("email")) {
            return payload.get("email").asText();
        }
        List<String> phones = texts(payload.get("phoneNumbers"));
        return phones.isEmpty() ? fallback : phones.get(0);
    }
}
