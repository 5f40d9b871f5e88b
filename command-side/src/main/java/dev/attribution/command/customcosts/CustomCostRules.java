package dev.attribution.command.customcosts;

import dev.attribution.api.ApiDates;
import dev.attribution.api.ApiException;
import dev.attribution.command.commerce.PersonFields;

import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The rules of custom cost writes (spec 4.10, 2.2.8), each message written once: dates keep the wall clock (an offset
 * is discarded, not converted), frequency DAILY or ONE_TIME, cost above zero, at most 10 source tags.
 */
final class CustomCostRules {

    /** An update or delete of an id the account does not have: FAILED when applied (docs/clients.md "Unknown ids on writes"). */
    static final String NOT_FOUND = "Custom cost not found";

    private CustomCostRules() {
    }

    static CustomCostFields check(CustomCostFields body) {
        String start = required(body.startDate(), "startDate");
        if (body.frequency() == null) {
            throw ApiException.badRequest("Missing required field: frequency");
        }
        if (body.cost() == null) {
            throw ApiException.badRequest("Missing required field: cost");
        }
        if (body.tags() == null || body.tags().isEmpty()) {
            throw ApiException.badRequest("Missing required field: tags");
        }
        BigDecimal cost = body.cost();
        if (cost.signum() <= 0) {
            throw ApiException.badRequest("cost must be greater than 0");
        }
        if (cost.scale() > 2 || cost.precision() - cost.scale() > 16) {
            throw ApiException.badRequest("cost must have at most 16 integer digits and 2 decimals");
        }
        if (body.tags().size() > 10) {
            throw ApiException.badRequest("The maximum number of tags to be provided is 10");
        }
        Set<String> sourceTags = new LinkedHashSet<>();
        for (String t : body.tags()) {
            if (t.startsWith("!") || t.startsWith("$") || t.startsWith("#")) {
                throw ApiException.badRequest("Invalid tag: " + t + ". Custom costs take source tags (@)");
            }
            sourceTags.add(t.startsWith("@") ? t : "@" + t);
        }
        LocalDateTime startDate = wallClock(start);
        String end = PersonFields.nonBlank(body.endDate());
        LocalDateTime endDate = end == null ? null : wallClock(end);
        if (body.frequency() == CustomCostFields.Frequency.ONE_TIME) {
            endDate = startDate;
        }
        if (endDate != null && endDate.isBefore(startDate)) {
            throw ApiException.badRequest("'endDate' cannot be before 'startDate'");
        }
        return new CustomCostFields(startDate.toString(), endDate == null ? null : endDate.toString(), body.frequency(),
                cost, new ArrayList<>(sourceTags), PersonFields.nonBlank(body.name()));
    }

    /** 2.2.8: the date-time as written; an offset is discarded, a missing time is the start of the day. */
    static LocalDateTime wallClock(String text) {
        return ApiDates.parse(text).local();
    }

    private static String required(String value, String field) {
        String v = PersonFields.nonBlank(value);
        if (v == null) {
            throw ApiException.badRequest("Missing required field: " + field);
        }
        return v;
    }
}
