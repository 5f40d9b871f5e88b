package dev.attribution.command.requests;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.attribution.api.RequestIds;
import io.micronaut.data.jdbc.runtime.JdbcOperations;
import io.micronaut.transaction.annotation.Transactional;
import jakarta.inject.Singleton;

import java.util.Locale;

/**
 * The durable request log (spec 1, 3.1): an accepted write is committed here before the caller gets its
 * {@code request_id}; {@link WriteWorker} applies it later. Writes concerning one lead share a lane, and a lane
 * is applied in order.
 */
@Singleton
public class WriteRequestLog {

    public static final int LANES = 16;
    static final String CHANNEL = "write_requests";

    private final JdbcOperations jdbc;

    public WriteRequestLog(JdbcOperations jdbc) {
        this.jdbc = jdbc;
    }

    /** Records a validated write and wakes the workers; returns its request id. */
    @Transactional
    public String accept(String accountId, String eventType, String laneKey, ObjectNode payload) {
        String id = RequestIds.next();
        jdbc.prepareStatement("INSERT INTO write_requests (id, account_id, event_type, lane, payload) VALUES (?, ?, ?, ?, ?::jsonb)", ps -> {
            ps.setString(1, id);
            ps.setString(2, accountId);
            ps.setString(3, eventType);
            ps.setInt(4, lane(accountId, laneKey));
            ps.setString(5, payload.toString());
            return ps.executeUpdate();
        });
        jdbc.prepareStatement("SELECT pg_notify('" + CHANNEL + "', '')", ps -> ps.execute());
        return id;
    }

    static int lane(String accountId, String laneKey) {
        return Math.floorMod((accountId + '\u0000' + laneKey.toLowerCase(Locale.ROOT)).hashCode(), LANES);
    }
}
