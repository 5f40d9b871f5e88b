package dev.attribution.command.requests;

import com.fasterxml.jackson.databind.JsonNode;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * A {@link WriteHandler} that can also apply several writes of its type together, with set-based statements (group
 * apply, issue 23 point 3). {@link WriteWorker} hands it writes of distinct ordering keys only (no two concern the
 * same lead), each {@link #groupable}. The effects, results and events must be exactly those of {@link #apply} on each
 * write in turn. Any exception (a {@link WriteHandler.WriteFailure} too) makes the worker apply the whole batch again
 * one write at a time, each behind its own savepoint, as it does for a batch whose fast path failed.
 */
public interface GroupWriteHandler extends WriteHandler {

    /** Whether this write can be applied in a group (else it is applied alone, with {@link #apply}). */
    boolean groupable(Write write);

    /** Applies the writes together; returns each one's request-status result (or null), in the order of {@code writes}. */
    List<JsonNode> applyGroup(Connection connection, List<Write> writes) throws SQLException;
}
