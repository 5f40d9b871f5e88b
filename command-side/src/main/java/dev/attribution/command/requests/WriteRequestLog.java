package dev.attribution.command.requests;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.attribution.api.RequestIds;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import jakarta.inject.Singleton;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Locale;

/**
 * The durable request log (spec 1, 3.1): an accepted write is committed here before the caller gets its
 * {@code request_id}; {@link WriteWorker} applies it later. Writes concerning one lead share a lane, and a lane
 * is applied in order.
 */
@Singleton
public class WriteRequestLog {

    public static final int LANES = 16;
    private final DataSource dataSource;
    private final WriteSignal signal;

    public WriteRequestLog(DataSource dataSource, WriteSignal signal) {
        // one autocommitted INSERT per accept: committed (fsync shared with concurrent commits) before returning
        this.dataSource = DelegatingDataSource.unwrapDataSource(dataSource);
        this.signal = signal;
    }

    /** Records a validated write durably, wakes this node's workers and returns the request id. */
    public String accept(String accountId, String eventType, String laneKey, ObjectNode payload) {
        String id = RequestIds.next();
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement(
                     "INSERT INTO write_requests (id, account_id, event_type, lane, payload) VALUES (?, ?, ?, ?, ?::jsonb)")) {
            if (!c.getAutoCommit()) {
                c.setAutoCommit(true);
            }
            ps.setString(1, id);
            ps.setString(2, accountId);
            ps.setString(3, eventType);
            ps.setInt(4, lane(accountId, laneKey));
            ps.setString(5, payload.toString());
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("the request log refused a write", e);
        }
        signal.wake();
        return id;
    }

    static int lane(String accountId, String laneKey) {
        return Math.floorMod((accountId + '\u0000' + laneKey.toLowerCase(Locale.ROOT)).hashCode(), LANES);
    }
}
