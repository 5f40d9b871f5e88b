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
 * Runs {@link Erasure} for every lead erased in PostgreSQL ({@code DELETE /leads} sets {@code leads.erased}) and not
 * swept yet ({@code cdc_erasures}): the redaction streams as new versions, and this removes the old versions that
 * still hold the email, phone and name. Runs where the bridge runs; idempotent, so two nodes sweeping the same lead
 * do no harm. A lead is recorded as swept only after its erasure succeeded; a failure is retried on the next round.
 */
@Singleton
@Requires(beans = CdcBridge.class)
public class ErasureSweep {

    private static final Logger LOG = LoggerFactory.getLogger(ErasureSweep.class);
    private static final int BATCH = 100;
    /** How often pending erasures are looked for (the key, with its default, for every sweeper). */
    public static final String INTERVAL = "${attribution.cdc.erasure-sweep-interval:1s}";

    private final Erasure erasure;
    private final DataSource postgres;

    public ErasureSweep(Erasure erasure, DataSource postgres) {
        this.erasure = erasure;
        this.postgres = io.micronaut.data.connection.jdbc.advice.DelegatingDataSource.unwrapDataSource(postgres);
    }

    @Scheduled(fixedDelay = INTERVAL, initialDelay = "1s")
    void scheduled() {
        try {
            sweep();
        } catch (RuntimeException e) {
            LOG.warn("erasure sweep failed, retried next round: {}", e.getMessage());
        }
    }

    /** Erases the pending leads in ClickHouse; returns how many were swept. */
    public int sweep() {
        List<String[]> pending = new ArrayList<>();
        try (Connection c = postgres.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT l.account_id, l.id FROM leads l WHERE l.erased AND NOT EXISTS "
                     + "(SELECT 1 FROM cdc_erasures e WHERE e.account_id = l.account_id AND e.lead_id = l.id) LIMIT " + BATCH)) {
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    pending.add(new String[] {rs.getString(1), rs.getString(2)});
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read erased leads: " + e.getMessage(), e);
        }
        for (String[] lead : pending) {
            LOG.info("erasing lead {} of account {} in ClickHouse: {}", lead[1], lead[0], erasure.erase(lead[0], lead[1]));
            try (Connection c = postgres.getConnection();
                 PreparedStatement ps = c.prepareStatement("INSERT INTO cdc_erasures (account_id, lead_id) VALUES (?, ?) ON CONFLICT DO NOTHING")) {
                c.setAutoCommit(true);
                ps.setString(1, lead[0]);
                ps.setString(2, lead[1]);
                ps.executeUpdate();
            } catch (SQLException e) {
                throw new IllegalStateException("cannot record the erasure of " + lead[1] + ": " + e.getMessage(), e);
            }
        }
        return pending.size();
    }
}
