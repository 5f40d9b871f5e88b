package dev.attribution.query.emailevents;

import dev.attribution.query.support.SqlQuery;
import jakarta.inject.Singleton;

import java.sql.Connection;
import java.time.Instant;
import java.util.List;

/**
 * Reads the imported email events of a lead (table {@code lead_email_events}, docs/email-events.md) for its journey
 * (spec 2.17): {@code email} for a message sent to the lead, {@code email-open} for one it opened.
 */
@Singleton
public class EmailEventReader {

    /** One email event: its journey type, the provider's message id, when, the subject or campaign, the platform. */
    public record EmailEvent(String type, String messageId, Instant at, String name, String provider) {
    }

    public List<EmailEvent> byLead(Connection c, String accountId, String leadId) {
        return new SqlQuery("""
                SELECT CASE kind WHEN 'sent' THEN 'email' ELSE 'email-open' END AS type, message_id, occurred_at, name, provider
                FROM lead_email_events WHERE account_id = ? AND lead_id = ? ORDER BY occurred_at, message_id, kind DESC""",
                accountId, leadId).list(c, rs -> new EmailEvent(rs.getString("type"), rs.getString("message_id"),
                SqlQuery.instant(rs, "occurred_at"), rs.getString("name"), rs.getString("provider")));
    }
}
