package dev.attribution.command.calls;

import java.util.List;

/**
 * {@code PUT /calls} (UPDATE_CALL): every input in the query string ({@link CallRules#update}); the calls named by
 * {@code ids}, or else by {@code externalIds}, get the name and, when sent, the qualification and state.
 */
public record UpdateCalls(List<String> ids, List<String> externalIds, String name, String qualification,
                          CreateCall.State state, Boolean qualified) {

    /** Whether the calls are named by externalIds (no ids given). */
    boolean byExternalId() {
        return ids == null || ids.isEmpty();
    }

    List<String> keys() {
        return byExternalId() ? externalIds : ids;
    }
}
