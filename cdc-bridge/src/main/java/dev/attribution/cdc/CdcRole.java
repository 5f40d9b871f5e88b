package dev.attribution.cdc;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The CDC role of one deployment (one replication slot): a session-level PostgreSQL advisory lock, keyed by the slot's
 * name, held on a connection of its own for as long as this node runs the engine. Every node with
 * {@code attribution.roles.cdc} on tries it; the one that gets it streams, the others stand by and try again every
 * {@link CdcSettings#getRoleLockPollMs()}. PostgreSQL frees the lock when the holder's session ends: a stop, a
 * {@code kill -9} (the kernel closes the socket, the idle backend sees it at once), a lost network (TCP keepalive or
 * the server's timeouts end the session), so a standby takes over without any node having to say so
 * (docs/scaling.md "The CDC role").
 */
final class CdcRole implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(CdcRole.class);

    /** First key of the lock, a namespace of this project's session locks ("CD"); the second is the slot's hash. */
    static final int LOCK_NAMESPACE = 0x4344;

    private final String jdbcUrl;
    private final String username;
    private final String password;
    private final String slot;
    private final long pollMillis;
    private final CdcStatus status;
    private Connection connection;
    private boolean held;

    /** The engine the role keeper starts when this node takes the role and stops when it loses it. */
    interface Engine {
        boolean running();

        boolean stopping();

        void start();

        /** Stops the engine without waiting for its batch in flight: another node may stream already. */
        void stopLost();
    }

    CdcRole(String jdbcUrl, String username, String password, CdcSettings settings, CdcStatus status) {
        this.jdbcUrl = jdbcUrl;
        this.username = username;
        this.password = password;
        this.slot = settings.getSlotName();
        this.pollMillis = settings.getRoleLockPollMs();
        this.status = status;
    }

    /**
     * The role keeper's loop, every {@link CdcSettings#getRoleLockPollMs()} until the engine is stopping or the thread
     * interrupted: a standby tries to take the role and starts the engine when it has it; the active node checks it
     * still holds it and stops the engine if not (its session ended: another node may have taken over).
     */
    void keep(Engine engine) {
        while (!engine.stopping()) {
            try {
                if (!engine.running()) {
                    if (tryAcquire()) {
                        takeOver(engine);
                    } else if (status.state() != CdcStatus.State.STANDBY) {
                        LOG.info("CDC role (slot {}) held by another node: standing by", slot);
                        status.state(CdcStatus.State.STANDBY, null);
                    }
                } else if (!held()) {
                    LOG.warn("CDC role (slot {}) lost: its PostgreSQL session ended; stopping the engine", slot);
                    engine.stopLost();
                    status.state(CdcStatus.State.STANDBY, "the CDC role's PostgreSQL session ended");
                    close();
                }
            } catch (SQLException e) {
                LOG.warn("CDC role (slot {}): {}", slot, e.getMessage());
                if (!engine.running()) {
                    status.state(CdcStatus.State.FAILED, "cannot take the CDC role: " + e.getMessage());
                }
            }
            if (!pause(pollMillis)) {
                return;
            }
        }
    }

    /** This node holds the role: waits until no other session reads the slot (a dead holder's), then streams. */
    private void takeOver(Engine engine) throws SQLException {
        boolean told = false;
        while (!slotFree()) {
            if (!told) {
                LOG.info("CDC role (slot {}) taken; waiting for the slot's previous reader to go", slot);
                status.state(CdcStatus.State.STARTING, "waiting for the previous reader of slot " + slot + " to go");
                told = true;
            }
            if (engine.stopping() || !pause(pollMillis / 4 + 1)) {
                return;
            }
        }
        LOG.info("CDC role (slot {}) taken: streaming from this node", slot);
        engine.start();
    }

    /** Sleeps; false when interrupted (a stop). */
    private static boolean pause(long millis) {
        try {
            Thread.sleep(millis);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Takes the role when it is free; true when this node holds it (now or already). */
    synchronized boolean tryAcquire() throws SQLException {
        if (held && held()) {
            return true;
        }
        if (connection == null || !connection.isValid(5)) {
            closeQuietly();
            connection = DriverManager.getConnection(jdbcUrl, username, password == null ? "" : password);
            connection.setAutoCommit(true);
        }
        try (PreparedStatement ps = connection.prepareStatement("SELECT pg_try_advisory_lock(?, hashtext(?))")) {
            ps.setInt(1, LOCK_NAMESPACE);
            ps.setString(2, slot);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                held = rs.getBoolean(1);
            }
        }
        return held;
    }

    /** Whether this node still holds the role: the session that took the lock is alive (it keeps it until it ends). */
    synchronized boolean held() {
        try {
            return held && connection != null && connection.isValid(5);
        } catch (SQLException e) {
            return false;
        }
    }

    /**
     * Whether no other session reads the slot now. After a holder died, its walsender may outlive the role lock by a
     * moment; an engine started before it is gone fails with "replication slot is active".
     */
    synchronized boolean slotFree() throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(
                "SELECT count(*) FROM pg_replication_slots WHERE slot_name = ? AND active")) {
            ps.setString(1, slot);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1) == 0;
            }
        }
    }

    /** Gives the role up (ends the session holding the lock). */
    @Override
    public synchronized void close() {
        held = false;
        closeQuietly();
    }

    private void closeQuietly() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // the session is gone either way
            }
            connection = null;
        }
    }
}
