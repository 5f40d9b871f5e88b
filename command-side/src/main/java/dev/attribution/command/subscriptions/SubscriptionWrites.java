package dev.attribution.command.subscriptions;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.attribution.api.ApiException;
import dev.attribution.api.FixedSet;
import dev.attribution.api.JsonBody;
import dev.attribution.api.auth.Caller;
import dev.attribution.command.blacklist.Blacklist;
import dev.attribution.command.commerce.CommerceInput;
import dev.attribution.command.requests.WriteRequestLog;
import jakarta.inject.Singleton;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Validation of subscription writes: statuses from the write set of spec 2.4 (UNKNOWN refused), periodicity,
 * dates in order, and a cancel date with CANCELED on update (as the real client documents).
 */
@Singleton
public class SubscriptionWrites {

    /** SubscriptionStatusWrite of spec 2.4: the read set without UNKNOWN. */
    public static final List<String> STATUS_WRITE = java.util.Arrays.stream(SubscriptionCreateBody.Status.values())
            .map(Enum::name).toList();
    public static final String CANCEL_DATE_REQUIRED = "cancelAtDate is required when status is CANCELED";
    static final List<String> DATES = List.of("startDate", "endDate", "cancelAtDate", "trialStartDate", "trialEndDate");

    private final WriteRequestLog log;
    private final Blacklist blacklist;

    public SubscriptionWrites(WriteRequestLog log, Blacklist blacklist) {
        this.log = log;
        this.blacklist = blacklist;
    }

    /** {@code POST /subscriptions}; an existing {@code subscriptionId} is updated. */
    public CompletableFuture<String> create(Caller caller, JsonBody body) {
        ObjectNode payload = JsonBody.mapper().createObjectNode();
        payload.put("status", FixedSet.require("status",
                body.nonBlankString("status").orElseThrow(() -> ApiException.badRequest("Missing required field: status")), STATUS_WRITE));
        if (body.nonBlankString("startDate").isEmpty()) {
            throw ApiException.badRequest("Missing required field: startDate");
        }
        payload.put("price", price(body).orElseThrow(() -> ApiException.badRequest("Missing required field: price")).toPlainString());
        payload.put("periodicity", SubscriptionCreateBody.Periodicity.read(
                body.nonBlankString("periodicity").orElseThrow(() -> ApiException.badRequest("Missing required field: periodicity"))).name());
        CommerceInput.copyPerson(body, payload, true, true, Integer.MAX_VALUE);
        body.nonBlankString("parentEmail").ifPresent(e -> payload.put("parentEmail", CommerceInput.checkEmail("parentEmail", e)));
        for (String field : List.of("planId", "name", "subscriptionId")) {
            body.nonBlankString(field).ifPresent(v -> payload.put(field, v));
        }
        copyDates(body, payload);
        CommerceInput.checkBlacklist(blacklist, caller.accountId(), payload);
        return log.submit(caller.accountId(), "CREATE_SUBSCRIPTION", CommerceInput.laneKey(payload, "subscription"), payload);
    }

    /** {@code PUT /subscriptions}: {@code ids} (required, at most 50) and the fields to change. */
    public CompletableFuture<String> update(Caller caller, JsonBody body) {
        List<String> ids = body.stringOrList("ids").orElse(List.of());
        if (ids.isEmpty()) {
            throw ApiException.badRequest("Missing required field: ids");
        }
        if (ids.size() > 50) {
            throw ApiException.badRequest("The maximum number of ids to be provided for update is 50");
        }
        ObjectNode payload = JsonBody.mapper().createObjectNode();
        payload.set("ids", CommerceInput.strings(ids));
        body.nonBlankString("status").ifPresent(s -> payload.put("status", FixedSet.require("status", s, STATUS_WRITE)));
        price(body).ifPresent(p -> payload.put("price", p.toPlainString()));
        body.nonBlankString("name").ifPresent(v -> payload.put("name", v));
        copyDates(body, payload);
        if ("CANCELED".equals(payload.path("status").asText()) && !payload.has("cancelAtDate")) {
            throw ApiException.badRequest(CANCEL_DATE_REQUIRED);
        }
        return log.submit(caller.accountId(), "UPDATE_SUBSCRIPTION", "subscription:" + ids.get(0), payload);
    }

    private static java.util.Optional<BigDecimal> price(JsonBody body) {
        return body.decimal("price").map(p -> {
            if (p.signum() < 0) {
                throw ApiException.badRequest("price must not be negative");
            }
            if (p.compareTo(new BigDecimal("99999999.99")) > 0) {
                throw ApiException.badRequest("price is above the maximum allowed amount");
            }
            return p;
        });
    }

    private static void copyDates(JsonBody body, ObjectNode payload) {
        for (String field : DATES) {
            CommerceInput.copyDate(body, payload, field);
        }
        order(payload, "startDate", "endDate");
        order(payload, "trialStartDate", "trialEndDate");
    }

    private static void order(ObjectNode payload, String from, String to) {
        if (payload.has(from) && payload.has(to)
                && Instant.parse(payload.get(from).asText()).isAfter(Instant.parse(payload.get(to).asText()))) {
            throw ApiException.badRequest(from + " cannot be later than " + to);
        }
    }
}
