package dev.attribution.command.calls;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.attribution.command.commerce.PersonFields;
import io.swagger.v3.oas.annotations.media.Schema;

/**
 * {@code POST /calls} (spec 4.3, CREATE_CALL): bound from the body, checked by {@link CallRules#create} (trimmed,
 * deprecated {@code id} folded into {@code externalId}, {@code date} an ISO instant) and stored as such.
 */
@Schema(name = "CallCreateBody") // the contract's name for this body since 1.0 (generated clients' class name)
public record CreateCall(
        @JsonProperty(required = true) @JsonPropertyDescription("the call's name") String name,
        @JsonUnwrapped PersonFields person,
        @JsonPropertyDescription("your call id; an existing call with it is updated") String externalId,
        @JsonPropertyDescription("deprecated: externalId") String id,
        @JsonPropertyDescription("a date-time (spec 2.2)") String date,
        Boolean qualified,
        @JsonPropertyDescription("qualification stage name") String qualification,
        State state) {

    /** A call's state (CallState of spec 2.4). */
    public enum State { QUALIFIED, UNQUALIFIED, CANCELLED, NO_SHOW }

    /** {@code qualified}: from {@code state} when sent, else the deprecated flag, else {@code fallback}. */
    static boolean qualified(State state, Boolean qualified, boolean fallback) {
        if (state != null) {
            return state == State.QUALIFIED;
        }
        return qualified != null ? qualified : fallback;
    }
}
