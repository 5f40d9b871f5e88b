package dev.attribution.command.commerce;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.attribution.api.ApiException;
import dev.attribution.api.IpAddresses;
import dev.attribution.api.StringOrList;
import dev.attribution.command.leads.LeadResolver;

import java.util.List;

/**
 * The person fields of a commerce write: who bought, called or subscribed. In a command
 * record ({@code @JsonUnwrapped}) as the body sends them and, once {@link #checked}, as the payload stores them.
 */
public record PersonFields(
        @JsonPropertyDescription("email (email or phoneNumbers required where a person is)") String email,
        @JsonPropertyDescription("phone numbers") StringOrList phoneNumbers,
        String firstName,
        String lastName,
        @JsonPropertyDescription("the person's IP addresses") StringOrList leadIps,
        @JsonPropertyDescription("lead stage name to apply") String stage) {

    /**
     * The person rules of the commerce writes: one of email and phones when {@code required}, trimmed, blanks dropped,
     * email ({@code checkEmail}) and IPs checked, at most {@code maxIps}. Null when nobody is named.
     */
    public static PersonFields checked(PersonFields p, boolean required, boolean checkEmail, int maxIps) {
        String email = p == null ? null : nonBlank(p.email());
        List<String> phones = p == null ? List.of() : values(p.phoneNumbers());
        if (email == null && phones.isEmpty()) {
            if (required) {
                throw ApiException.badRequest(CommerceInput.EMAIL_OR_PHONE);
            }
            return null;
        }
        if (checkEmail && email != null) {
            CommerceInput.checkEmail("email", email);
        }
        List<String> ips = IpAddresses.checked("leadIps", values(p.leadIps()));
        if (ips.size() > maxIps) {
            throw ApiException.badRequest("The maximum number of leadIps is " + maxIps);
        }
        return new PersonFields(email, new StringOrList(phones), nonBlank(p.firstName()), nonBlank(p.lastName()),
                new StringOrList(ips), nonBlank(p.stage()));
    }

    /** The person a checked command names, or null when it names none. */
    public static LeadResolver.Person person(PersonFields p) {
        if (p == null || p.email() == null && values(p.phoneNumbers()).isEmpty()) {
            return null;
        }
        return new LeadResolver.Person(p.email(), values(p.phoneNumbers()), p.firstName(), p.lastName(), values(p.leadIps()), p.stage());
    }

    /** The lane of a write naming this person: the lead writes' (email, else first phone), else {@code fallback}. */
    public static String laneKey(PersonFields p, String fallback) {
        if (p != null && p.email() != null) {
            return p.email();
        }
        List<String> phones = p == null ? List.of() : values(p.phoneNumbers());
        return phones.isEmpty() ? fallback : phones.get(0);
    }

    static List<String> values(StringOrList list) {
        return list == null || list.values() == null ? List.of() : list.values();
    }

    /** Trimmed, or null when blank or absent ({@code JsonBody#nonBlankString}). */
    public static String nonBlank(String s) {
        if (s == null) {
            return null;
        }
        String t = s.trim();
        return t.isEmpty() ? null : t;
    }
}
