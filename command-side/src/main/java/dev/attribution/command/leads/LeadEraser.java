package dev.attribution.command.leads;

import dev.attribution.api.auth.Account;
import dev.attribution.command.blacklist.Blacklist;
import dev.attribution.command.events.DomainEvents;
import dev.attribution.command.requests.Redaction;
import dev.attribution.command.requests.WriteRequestLog;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The erasure of a lead ({@link LeadStore#erase}). */
final class LeadEraser {

    private final List<LeadErasure> erasures;

    LeadEraser(List<LeadErasure> erasures) {
        this.erasures = erasures;
    }

    /**
     * Erases a lead (spec 3.2, DELETE /leads): contacts blacklisted (hashed), personal data redacted, phones, IPs,
     * tags, stage history, clicks and imported email events deleted, its copies in the request log and the outbox
     * redacted, and every {@link LeadErasure} (sales, subscriptions) run. The row stays, marked erased, so ids held elsewhere still resolve to nothing personal.
     */
    void erase(Connection c, Account account, String leadId, String placeholderDomain, Instant now, String requestId)
            throws SQLException {
        LeadStore.Current lead = LeadStore.current(c, account.id(), leadId).orElse(null);
        if (lead == null) {
            return;
        }
        List<String> phones = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT phone FROM lead_phones WHERE account_id = ? AND lead_id = ?")) {
            ps.setString(1, account.id());
            ps.setString(2, leadId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    phones.add(rs.getString(1));
                }
            }
        }
        List<String> ips = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT ip FROM lead_ips WHERE account_id = ? AND lead_id = ?")) {
            ps.setString(1, account.id());
            ps.setString(2, leadId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    ips.add(rs.getString(1));
                }
            }
        }
        Blacklist.add(c, account.id(), lead.email(), phones);
        for (LeadErasure erasure : erasures) {
            erasure.erase(c, account, leadId, now);
        }
        for (String table : List.of("lead_phones", "lead_ips", "lead_tags", "lead_stage_history",
                "lead_email_events")) {
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM " + table + " WHERE account_id = ? AND lead_id = ?")) {
                ps.setString(1, account.id());
                ps.setString(2, leadId);
                ps.executeUpdate();
            }
        }
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE leads SET email = ?, first_name = NULL, last_name = NULL, stage_name = NULL, stage_date = NULL,
                       erased = true, updated_at = ? WHERE account_id = ? AND id = ?""")) {
            ps.setString(1, "erased-" + leadId.toLowerCase(Locale.ROOT) + "@" + placeholderDomain);
            ps.setTimestamp(2, Timestamp.from(now));
            ps.setString(3, account.id());
            ps.setString(4, leadId);
            ps.executeUpdate();
        }
        // last, after any event the steps above recorded: the copies outside the lead's rows, in the request log
        // (GET /requests/{id} of its writes) and the outbox
        Redaction redaction = Redaction.of(leadId, lead.email(), phones, ips);
        WriteRequestLog.redact(c, account.id(), redaction, requestId);
        DomainEvents.redact(c, account.id(), leadId, redaction);
    }
}
