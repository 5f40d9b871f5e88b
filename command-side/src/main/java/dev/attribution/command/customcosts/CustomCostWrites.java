package dev.attribution.command.customcosts;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.attribution.api.ApiDates;
import dev.attribution.api.ApiException;
import dev.attribution.api.FixedSet;
import dev.attribution.api.JsonBody;
import dev.attribution.api.RequestIds;
import dev.attribution.api.auth.Caller;
import dev.attribution.command.requests.WriteRequestLog;
import jakarta.inject.Singleton;

import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Validation of custom cost writes (spec 4.10, 2.2.8): dates keep the wall clock (an offset is discarded, not
 * converted), frequency DAILY or ONE_TIME, cost above zero, at most 10 source tags; PUT is a full replacement.
 */
@Singleton
public class CustomCostWrites {

    public static final List<String> FREQUENCIES = java.util.Arrays.stream(CustomCostBody.Frequency.values()).map(Enum::name).toList();
    /** An update or delete of an id the account does not have: FAILED when applied (docs/clients.md "Unknown ids on writes"). */
    public static final String NOT_FOUND = "Custom cost not found";
    static final Set<String> FIELDS = JsonBody.fieldsOf(CustomCostBody.class);

    private final WriteRequestLog log;

    public CustomCostWrites(WriteRequestLog log) {
        this.log = log;
    }

    /** {@code POST /custom-costs}: CREATE_CUSTOM_COST. */
    public String create(Caller caller, JsonBody body) {
        ObjectNode p = validate(body);
        String id = RequestIds.next("cc_");
        p.put("id", id);
        return log.accept(caller.accountId(), "CREATE_CUSTOM_COST", "cost:" + id, p);
    }

    /** {@code PUT /custom-costs/{id}}: strict, full replacement (UPDATE_CUSTOM_COST). */
    public String update(Caller caller, String id, JsonBody body) {
        body.rejectUnknown(FIELDS);
        ObjectNode p = validate(body);
        p.put("id", id);
        return log.accept(caller.accountId(), "UPDATE_CUSTOM_COST", "cost:" + id, p);
    }

    /** {@code DELETE /custom-costs/{id}}: strict (DELETE_CUSTOM_COST). */
    public String delete(Caller caller, String id) {
        return log.accept(caller.accountId(), "DELETE_CUSTOM_COST", "cost:" + id, JsonBody.mapper().createObjectNode().put("id", id));
    }

    static ObjectNode validate(JsonBody body) {
        String start = required(body, "startDate");
        String frequencyText = required(body, "frequency");
        if (!body.present("cost")) {
            throw ApiException.badRequest("Missing required field: cost");
        }
        if (!body.present("tags")) {
            throw ApiException.badRequest("Missing required field: tags");
        }
        String frequency = FixedSet.require("frequency", frequencyText, FREQUENCIES);
        BigDecimal cost = body.decimal("cost").orElseThrow();
        if (cost.signum() <= 0) {
            throw ApiException.badRequest("cost must be greater than 0");
        }
        if (cost.scale() > 2 || cost.precision() - cost.scale() > 16) {
            throw ApiException.badRequest("cost must have at most 16 integer digits and 2 decimals");
        }
        List<String> tags = body.stringList("tags").orElse(List.of());
        if (tags.isEmpty()) {
            throw ApiException.badRequest("Missing required field: tags");
        }
        if (tags.size() > 10) {
            throw ApiException.badRequest("The maximum number of tags to be provided is 10");
        }
        Set<String> sourceTags = new LinkedHashSet<>();
        for (String t : tags) {
            if (t.startsWith("!") || t.startsWith("$") || t.startsWith("#")) {
                throw ApiException.badRequest("Invalid tag: " + t + ". Custom costs take source tags (@)");
            }
            sourceTags.add(t.startsWith("@") ? t : "@" + t);
        }
        LocalDateTime startDate = wallClock(start);
        LocalDateTime endDate = body.nonBlankString("endDate").map(CustomCostWrites::wallClock).orElse(null);
        if (frequency.equals("ONE_TIME")) {
            endDate = startDate;
        }
        if (endDate != null && endDate.isBefore(startDate)) {
            throw ApiException.badRequest("'endDate' cannot be before 'startDate'");
        }
        ObjectNode p = JsonBody.mapper().createObjectNode();
        p.put("startDate", startDate.toString());
        if (endDate != null) {
            p.put("endDate", endDate.toString());
        }
        p.put("frequency", frequency);
        p.put("cost", cost);
        ArrayNode t = p.putArray("tags");
        sourceTags.forEach(t::add);
        body.nonBlankString("name").ifPresent(n -> p.put("name", n));
        return p;
    }

    /** 2.2.8: the date-time as written; an offset is discarded, a missing time is the start of the day. */
    static LocalDateTime wallClock(String text) {
        return ApiDates.parse(text).local();
    }

    private static String required(JsonBody body, String field) {
        return body.nonBlankString(field).orElseThrow(() -> ApiException.badRequest("Missing required field: " + field));
    }
}
