package dev.attribution.command.commerce;

import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.attribution.api.ApiException;
import dev.attribution.api.JsonBody;

import java.util.List;
import java.util.regex.Pattern;

/**
 * Body rules the commerce writes share (orders, carts, calls, subscriptions), each message written once: who the
 * write names (email or phones: {@link PersonFields}) and the email's shape.
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

    public static ArrayNode strings(List<String> values) {
        ArrayNode array = JsonBody.mapper().createArrayNode();
        values.forEach(array::add);
        return array;
    }
}
