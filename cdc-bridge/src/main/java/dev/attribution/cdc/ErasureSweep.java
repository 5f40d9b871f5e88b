package dev.attribution.cdc;

import io.micronaut.context.annotation.Requires;
import io.micronaut.scheduling.annotation.Scheduled;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs {@link Erasure} for the leads {@code DELETE /leads} queued in {@code clickhouse_erasures} (spec 3.2), in the
 * background so the write worker never waits for the stream or the ClickHouse mutations. A failed attempt (bridge not
 * running yet, ClickHouse down) stays queued and is retried on the next sweep.
 */
@Singleton
@Requires(beans = Erasure.class)
@Requires(property = "attribution.cdc.erasure-sweep.enabled", notEquals = "false")
public class ErasureSweep {

    private static final Logger LOG = LoggerFactory.getLogger(ErasureSweep.class);
    private static final int BATCH = 20;

    private final Erasure erasure;
    private final DataSource postgres;

    public ErasureSweep(Erasure erasure, DataSource postgres) {
        this.erasure = erasure;
        this.postgres = io.micronaut.data.connection.jdbc.advice.DelegatingDataSource.unwrapDataSource(postgres);
    }

    @Scheduled(fixedDelay = "${attribution.cdc.erasure-sweep-interval:2s}", initialDelay = "5s")
    void sweep() {
        List<String[]> pending = new ArrayList<>();
        try (Connection c = postgres.getConnection(); PreparedStatement ps = c.prepareStatement("""
                SELECT account_id, lead_id FROM clickhouse_erasures WHERE done_at IS NULL
                ORDER BY requested_at LIMIT ?""")) {
            ps.setInt(1, BATCH);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    pending.add(new String[]{rs.getString(1), rs.getString(2)});
                }
            }
        } catch (SQLException e) {
            LOG.warn("erasure sweep: cannot read the queue: {}", e.getMessage());
            return;
        }
        for (String[] lead : pending) {
            String error = null;
            try {
                LOG.info("ClickHouse erasure of lead {}: {}", lead[1], erasure.erase(lead[0], lead[1]));
            } catch (RuntimeException e) {
                error = String.valueOf(e.getMessage());
                LOG.warn("ClickHouse erasure of lead {} failed, retried later: {}", lead[1], error);
            }
            mark(lead[0], lead[1], error);
            if (error != null) {
                return;
            }
        }
    }

    private void mark(String accountId, String leadId, String error) {
        try (Connection c = postgres.getConnection(); PreparedStatement ps = c.prepareStatement("""
                UPDATE clickhouse_erasures SET done_at = CASE WHEN ? THEN now() END, attempts = attempts + 1, last_error = ?
                WHERE account_id = ? AND lead_id = ?""")) {
            ps.setBoolean(1, error == null);
            ps.setString(2, error);
            ps.setString(3, accountId);
            ps.setString(4, leadId);
            ps.executeUpdate();
        } catch (SQLException e) {
            LOG.warn("erasure sweep: cannot mark lead {}: {}", leadId, e.getMessage());
        }
    }
}
