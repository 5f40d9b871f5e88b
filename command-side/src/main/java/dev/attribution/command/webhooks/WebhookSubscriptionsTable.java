package dev.attribution.command.webhooks;

import dev.attribution.api.ApiDates;
import dev.attribution.command.webhooks.WebhookCommands.CreateSubscription;
import dev.attribution.command.webhooks.WebhookCommands.SubscriptionChanges;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import jakarta.inject.Singleton;

import javax.sql.DataSource;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * The only writer of the {@code webhook_subscriptions} table (V70): what clients change (name, URL, event types,
 * state; each call its own transaction) and the delivery bookkeeping {@link WebhookDelivery} records on the
 * delivery's connection ({@code last_delivery_at}, {@code failing_since}, AUTOMATIC_PAUSED).
 */
@Singleton
class WebhookSubscriptionsTable {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String COLUMNS = "external_id, name, target_url, event_types, state, created_at, last_delivery_at";

    private final DataSource dataSource;

    WebhookSubscriptionsTable(DataSource dataSource) {
        this.dataSource = DelegatingDataSource.unwrapDataSource(dataSource);
    }

    static String newExternalId() {
        byte[] bytes = new byte[16];
        RANDOM.nextBytes(bytes);
        return "sub-" + HexFormat.of().formatHex(bytes);
    }

    /** A Standard Webhooks secret: {@code whsec_} and 32 random bytes in base64. */
    static String newSecret() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return "whsec_" + Base64.getEncoder().encodeToString(bytes);
    }

    WebhookSubscriptionView create(String accountId, CreateSubscription s, String secret) {
        return sql(c -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO webhook_subscriptions "
                    + "(external_id, account_id, name, target_url, event_types, secret_key) VALUES (?, ?, ?, ?, ?, ?) RETURNING " + COLUMNS)) {
                ps.setString(1, newExternalId());
                ps.setString(2, accountId);
                ps.setString(3, s.name());
                ps.setString(4, s.targetUrl());
                ps.setArray(5, c.createArrayOf("text", s.eventTypes().toArray()));
                ps.setString(6, secret);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return view(rs);
                }
            }
        });
    }

    /** The account's subscriptions that are not DELETED, oldest first. */
    List<WebhookSubscriptionView> list(String accountId) {
        return sql(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS
                    + " FROM webhook_subscriptions WHERE account_id = ? AND state <> 'DELETED' ORDER BY id")) {
                ps.setString(1, accountId);
                List<WebhookSubscriptionView> out = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(view(rs));
                    }
                }
                return out;
            }
        });
    }

    Optional<WebhookSubscriptionView> find(String accountId, String externalId) {
        return sql(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS
                    + " FROM webhook_subscriptions WHERE account_id = ? AND external_id = ? AND state <> 'DELETED'")) {
                ps.setString(1, accountId);
                ps.setString(2, externalId);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(view(rs)) : Optional.empty();
                }
            }
        });
    }

    /** Applies the non-null changes; a move to ACTIVE clears the failure run. Empty when not found. */
    Optional<WebhookSubscriptionView> update(String accountId, String externalId, SubscriptionChanges changes) {
        return update(accountId, externalId, changes.name(), changes.targetUrl(), changes.eventTypes(),
                changes.state() == null ? null : changes.state().name());
    }

    private Optional<WebhookSubscriptionView> update(String accountId, String externalId, String name, String targetUrl,
                                                     List<String> eventTypes, String state) {
        return sql(c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE webhook_subscriptions SET "
                    + "name = coalesce(?, name), target_url = coalesce(?, target_url), "
                    + "event_types = coalesce(?, event_types), state = coalesce(?, state), "
                    + "failing_since = CASE WHEN ? = 'ACTIVE' THEN NULL ELSE failing_since END "
                    + "WHERE account_id = ? AND external_id = ? AND state <> 'DELETED' RETURNING " + COLUMNS)) {
                ps.setString(1, name);
                ps.setString(2, targetUrl);
                ps.setArray(3, eventTypes == null ? null : c.createArrayOf("text", eventTypes.toArray()));
                ps.setString(4, state);
                ps.setString(5, state);
                ps.setString(6, accountId);
                ps.setString(7, externalId);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(view(rs)) : Optional.empty();
                }
            }
        });
    }

    Optional<WebhookSubscriptionView> delete(String accountId, String externalId) {
        return update(accountId, externalId, null, null, null, "DELETED");
    }

    /** The run of failed deliveries of a subscription: since when (null: none) and its last delivery (null: none). */
    record FailureRun(Timestamp failingSince, Timestamp lastDeliveryAt) {
    }

    /** A delivery to the subscription succeeded: its last delivery is now, its run of failures ends. */
    static void delivered(Connection c, long subscriptionId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE webhook_subscriptions SET last_delivery_at = now(), "
                + "failing_since = NULL WHERE id = ?")) {
            ps.setLong(1, subscriptionId);
            ps.executeUpdate();
        }
    }

    /**
     * A delivery to the subscription failed: its run of failures starts (or goes on), and an ACTIVE subscription is
     * AUTOMATIC_PAUSED once the run has lasted {@code period} (an interval). Empty when the subscription is gone.
     */
    static Optional<FailureRun> failed(Connection c, long subscriptionId, String period) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE webhook_subscriptions SET failing_since = coalesce(failing_since, now()),
                       state = CASE WHEN state = 'ACTIVE' AND coalesce(failing_since, now()) <= now() - ?::interval
                                    THEN 'AUTOMATIC_PAUSED' ELSE state END
                WHERE id = ? RETURNING failing_since, last_delivery_at""")) {
            ps.setString(1, period);
            ps.setLong(2, subscriptionId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(new FailureRun(rs.getTimestamp(1), rs.getTimestamp(2))) : Optional.empty();
            }
        }
    }

    private static WebhookSubscriptionView view(ResultSet rs) throws SQLException {
        Timestamp last = rs.getTimestamp("last_delivery_at");
        return new WebhookSubscriptionView(rs.getString("external_id"), rs.getString("name"), rs.getString("target_url"),
                Arrays.asList((String[]) rs.getArray("event_types").getArray()), rs.getString("state"), null,
                ApiDates.formatUtc(rs.getTimestamp("created_at").toInstant()),
                last == null ? null : ApiDates.formatUtc(last.toInstant()));
    }

    interface Work<T> {
        T run(Connection c) throws SQLException;
    }

    private <T> T sql(Work<T> work) {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(true);
            return work.run(c);
        } catch (SQLException e) {
            throw new IllegalStateException("webhook subscriptions: " + e.getMessage(), e);
        }
    }
}
