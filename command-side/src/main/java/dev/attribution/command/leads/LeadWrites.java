package dev.attribution.command.leads;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.attribution.api.ApiDates;
import dev.attribution.api.ApiException;
import dev.attribution.api.FixedSet;
import dev.attribution.api.JsonBody;
import dev.attribution.api.auth.Caller;
import dev.attribution.command.requests.Blacklist;
import dev.attribution.command.requests.WriteRequestLog;
import jakarta.inject.Singleton;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Validation of lead writes (spec 4.1) and their hand-over to the request log. Everything that can be judged from
 * the request alone is judged here, synchronously, so a request that gets a {@code request_id} is well-formed.
 */
@Singleton
public class LeadWrites {

    public static final List<String> CONSENT = List.of("GRANTED", "DENIED", "UNSPECIFIED");
    private static final Pattern EMAIL = Pattern.compile("^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$");

    private final WriteRequestLog log;
    private final Blacklist blacklist;

    public LeadWrites(WriteRequestLog log, Blacklist blacklist) {
        this.log = log;
        this.blacklist = blacklist;
    }

    /** {@code POST /leads}: create or update by email (or phone). */
    public String create(Caller caller, JsonBody body) {
        Optional<String> email = body.nonBlankString("email");
        List<String> phones = body.stringOrList("phoneNumbers").orElse(List.of());
        if (email.isEmpty() && phones.isEmpty()) {
            throw ApiException.badRequest("Either email or phoneNumbers must be provided");
        }
        email.ifPresent(LeadWrites::checkEmail);
        ObjectNode payload = JsonBody.mapper().createObjectNode();
        email.ifPresent(e -> payload.put("email", e));
        payload.set("phoneNumbers", strings(phones));
        body.string("firstName").ifPresent(v -> payload.put("firstName", v));
        body.string("lastName").ifPresent(v -> payload.put("lastName", v));
        payload.set("tags", strings(body.stringOrList("tags").orElse(List.of())));
        body.nonBlankString("tagsDate").ifPresent(d -> payload.put("tagsDate", tagsDate(d).toString()));
        payload.set("leadIps", strings(body.stringList("leadIps").orElse(List.of())));
        body.nonBlankString("stage").ifPresent(v -> payload.put("stage", v));
        if (body.present("adOptimizationConsent")) {
            String consent = body.string("adOptimizationConsent").orElse("");
            payload.put("adOptimizationConsent", consent.isBlank() ? "UNSPECIFIED"
                    : FixedSet.require("adOptimizationConsent", consent, CONSENT));
        }
        blacklist.refuse(caller.accountId(), email.map(List::of).orElse(List.of()), phones);
        String laneKey = email.orElseGet(() -> phones.get(0));
        return log.accept(caller.accountId(), "CREATE_LEAD", laneKey, payload);
    }

    /** {@code tagsDate}: strict seconds form (2.2.5) and not in the future. */
    static Instant tagsDate(String text) {
        Instant date = ApiDates.parseStrictWrite(text);
        if (date.isAfter(Instant.now())) {
            throw ApiException.badRequest("The tags date cannot be in the future.");
        }
        return date;
    }

    static void checkEmail(String email) {
        if (!EMAIL.matcher(email).matches() || email.length() > 320) {
            throw ApiException.badRequest("Invalid email: " + email);
        }
    }

    private static ArrayNode strings(List<String> values) {
        ArrayNode array = JsonBody.mapper().createArrayNode();
        values.forEach(array::add);
        return array;
    }
}
