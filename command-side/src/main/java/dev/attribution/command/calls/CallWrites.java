package dev.attribution.command.calls;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.attribution.api.ApiException;
import dev.attribution.api.FixedSet;
import dev.attribution.api.JsonBody;
import dev.attribution.api.QueryParams;
import dev.attribution.api.auth.Caller;
import dev.attribution.command.blacklist.Blacklist;
import dev.attribution.command.commerce.CommerceInput;
import dev.attribution.command.requests.WriteRequestLog;
import jakarta.inject.Singleton;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/** Validation of call writes (spec 4.3). */
@Singleton
public class CallWrites {

    /** CallState of spec 2.4; a refused value gives {@code Invalid state '<value>'. Accepted values: ...}. */
    public static final List<String> STATES = java.util.Arrays.stream(State.values()).map(Enum::name).toList();

    /** A call's state. */
    public enum State { QUALIFIED, UNQUALIFIED, CANCELLED, NO_SHOW }
    public static final String IDS_OR_EXTERNAL_IDS = "Either ids or externalIds must be provided";
    public static final String NOT_BOTH = "Provide either ids or externalIds, not both";

    private final WriteRequestLog log;
    private final Blacklist blacklist;

    public CallWrites(WriteRequestLog log, Blacklist blacklist) {
        this.log = log;
        this.blacklist = blacklist;
    }

    /** {@code POST /calls}: an existing call with the same externalId (or deprecated id) is updated. */
    public CompletableFuture<String> create(Caller caller, JsonBody body) {
        ObjectNode payload = JsonBody.mapper().createObjectNode();
        payload.put("name", body.nonBlankString("name").orElseThrow(() -> ApiException.badRequest("Missing required field: name")));
        if (body.nonBlankString("email").isEmpty()) {
            throw ApiException.badRequest("Missing required field: email");
        }
        CommerceInput.copyPerson(body, payload, true, true, Integer.MAX_VALUE);
        body.nonBlankString("externalId").or(() -> body.nonBlankString("id")).ifPresent(v -> payload.put("externalId", v));
        CommerceInput.copyDate(body, payload, "date");
        body.bool("qualified").ifPresent(v -> payload.put("qualified", v));
        body.nonBlankString("qualification").ifPresent(v -> payload.put("qualification", v));
        body.string("state").ifPresent(v -> payload.put("state", FixedSet.require("state", v, STATES)));
        CommerceInput.checkBlacklist(blacklist, caller.accountId(), payload);
        return log.submit(caller.accountId(), "CREATE_CALL", payload.get("email").asText(), payload);
    }

    /** {@code PUT /calls}: every input in the query string; {@code ids} or {@code externalIds}, not both. */
    public CompletableFuture<String> update(Caller caller, QueryParams q) {
        List<String> ids = q.list("ids");
        List<String> externalIds = q.list("externalIds");
        if (ids.isEmpty() && externalIds.isEmpty()) {
            throw ApiException.badRequest(IDS_OR_EXTERNAL_IDS);
        }
        if (!ids.isEmpty() && !externalIds.isEmpty()) {
            throw ApiException.badRequest(NOT_BOTH);
        }
        ObjectNode payload = JsonBody.mapper().createObjectNode();
        payload.set("ids", CommerceInput.strings(ids));
        payload.set("externalIds", CommerceInput.strings(externalIds));
        payload.put("name", q.required("name"));
        q.string("qualification").ifPresent(v -> payload.put("qualification", v));
        q.string("state").ifPresent(v -> payload.put("state", FixedSet.require("state", v, STATES)));
        q.bool("qualified").ifPresent(v -> payload.put("qualified", v));
        String lane = "call:" + (ids.isEmpty() ? externalIds.get(0) : ids.get(0));
        return log.submit(caller.accountId(), "UPDATE_CALL", lane, payload);
    }

    /** {@code DELETE /calls/{id}}. */
    public CompletableFuture<String> delete(Caller caller, String id) {
        return log.submit(caller.accountId(), "DELETE_CALL", "call:" + id, JsonBody.mapper().createObjectNode().put("id", id));
    }
}
