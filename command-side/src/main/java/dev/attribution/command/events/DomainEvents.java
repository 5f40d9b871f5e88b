package dev.attribution.command.events;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.RequestIds;
import dev.attribution.command.requests.Redaction;
import dev.attribution.command.requests.RetentionWindow;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * The one writer of the transactional outbox ({@code domain_events}): write handlers call {@link #record} on the
 * worker's connection, inside the transaction that makes the change, so an event is stored exactly when its
 * change commits. Webhook delivery (spec 6) reads the table; nothing else writes it.
 */
public final class DomainEvents {

    /** The event types a webhook subscription can select (spec 6). */
    public static final Set<String> TYPES = Set.of(
            "sale.attributed", "sale.refunded", "call.attributed", "lead.opted.in", "lead.opted.in.first.time",
            "lead.origin.assigned", "lead.stage.changed", "lead.tag.added", "lead.tag.removed",
            "subscription.created", "subscription.status.changed");

    private DomainEvents() {
    }

    /**
     * Redacts the events of an erased lead (issue 29): those about it and every other event whose payload names one
     * of its values (a sale's embedded lead) keep their type, subject and dates, their payload becomes
     * {@link Redaction#REDACTED}, also for deliveries not yet sent.
     */
    public static int redact(Connection connection, String accountId, String leadId, Redaction r) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement("UPDATE domain_events SET payload = ?::jsonb "
                + "WHERE account_id = ? AND (subject_id = ? OR payload::text ~* ANY(?)) AND payload <> ?::jsonb")) {
            ps.setString(1, Redaction.REDACTED);
            ps.setString(2, accountId);
            ps.setString(3, leadId);
            ps.setArray(4, r.array(connection));
            ps.setString(5, Redaction.REDACTED);
            return ps.executeUpdate();
        }
    }

    /**
     * A window of the outbox for retention ({@code LogRetention}): events created before the cutoff are purgeable once
     * fanned out and without a delivery still PENDING, except opt-ins, which the lead's journey shows (spec 2.17).
     */
    public static RetentionWindow purgeWindow(Connection c, long afterSeq, int limit, Instant cutoff) throws SQLException {
        return RetentionWindow.read(c, """
                SELECT w.seq, w.created_at, w.created_at < k.cutoff AND w.fanned_out AND w.event_type <> 'lead.opted.in'
                       AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_seq = w.seq AND d.state = 'PENDING')
                FROM (SELECT seq, created_at, fanned_out, event_type FROM domain_events WHERE seq > ? ORDER BY seq LIMIT ?) w,
                     (SELECT ?::timestamptz AS cutoff) k""", afterSeq, limit, cutoff);
    }

    /** Deletes purgeable events left without delivery records ({@code WebhookDelivery.deleteSettled} ran first). */
    public static int delete(Connection c, Long[] seqs) throws SQLException {
        if (seqs.length == 0) {
            return 0;
        }
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM domain_events e WHERE seq = ANY(?) "
                + "AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_seq = e.seq)")) {
            ps.setArray(1, c.createArrayOf("bigint", seqs));
            return ps.executeUpdate();
        }
    }

    /** Stores one event; {@code payload} is the subject in the shape of its GET. Returns the event id. */
    public static String record(Connection connection, String accountId, String eventType, String subjectId,
                                JsonNode payload, Instant occurredAt) throws SQLException {
        checkType(eventType);
        String id = RequestIds.next("evt_");
        try (PreparedStatement ps = connection.prepareStatement("INSERT INTO domain_events "
                + "(id, account_id, event_type, subject_id, payload, occurred_at) VALUES (?, ?, ?, ?, ?::jsonb, ?)")) {
            ps.setString(1, id);
            ps.setString(2, accountId);
            ps.setString(3, eventType);
            ps.setString(4, subjectId);
            ps.setString(5, payloadText(payload));
            ps.setTimestamp(6, Timestamp.from(occurredAt));
            ps.executeUpdate();
        }
        return id;
    }

    /** An event to store with {@link #recordAll}: the arguments of {@link #record}. */
    public record Event(String accountId, String eventType, String subjectId, JsonNode payload, Instant occurredAt) {
    }

    /**
     * Stores the events in one statement, in list order (their seq and ids as {@link #record} of each in turn gives
     * them): a group of writes records its events together (issue 23 point 3).
     */
    public static void recordAll(Connection connection, List<Event> events) throws SQLException {
        if (events.isEmpty()) {
            return;
        }
        int n = events.size();
        String[] ids = new String[n];
        String[] accounts = new String[n];
        String[] types = new String[n];
        String[] subjects = new String[n];
        String[] payloads = new String[n];
        String[] at = new String[n]; // ISO instants, read as timestamptz (as OrdersTable.insertAll)
        for (int i = 0; i < n; i++) {
            Event e = events.get(i);
            checkType(e.eventType());
            ids[i] = RequestIds.next("evt_");
            accounts[i] = e.accountId();
            types[i] = e.eventType();
            subjects[i] = e.subjectId();
            payloads[i] = payloadText(e.payload());
            at[i] = e.occurredAt().toString();
        }
        try (PreparedStatement ps = connection.prepareStatement("""
                INSERT INTO domain_events (id, account_id, event_type, subject_id, payload, occurred_at)
                SELECT id, account_id, event_type, subject_id, payload::jsonb, occurred_at::timestamptz
                FROM unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[]) WITH ORDINALITY
                     AS e(id, account_id, event_type, subject_id, payload, occurred_at, n)
                ORDER BY n""")) {
            ps.setArray(1, connection.createArrayOf("text", ids));
            ps.setArray(2, connection.createArrayOf("text", accounts));
            ps.setArray(3, connection.createArrayOf("text", types));
            ps.setArray(4, connection.createArrayOf("text", subjects));
            ps.setArray(5, connection.createArrayOf("text", payloads));
            ps.setArray(6, connection.createArrayOf("text", at));
            ps.executeUpdate();
        }
    }

    private static void checkType(String eventType) {
        if (!TYPES.contains(eventType)) {
            throw new IllegalArgumentException("unknown domain event type " + eventType);
        }
    }

    /** The stored payload: the subject's GET shape, {@code {}} when there is none. */
    private static String payloadText(JsonNode payload) {
        return payload == null ? "{}" : payload.toString();
    }

    /** Marks the events whose deliveries {@code WebhookDelivery} has expanded, so they are not fanned out again. */
    public static void markFannedOut(Connection c, List<Long> seqs) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE domain_events SET fanned_out = true WHERE seq = ANY (?)")) {
            ps.setArray(1, c.createArrayOf("bigint", seqs.toArray()));
            ps.executeUpdate();
        }
    }
}
