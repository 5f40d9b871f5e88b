package dev.attribution.command.leads;

import dev.attribution.api.auth.Account;
import dev.attribution.command.blacklist.Blacklist;
import dev.attribution.command.emailevents.EmailEventImport;
import dev.attribution.command.events.DomainEvents;
import dev.attribution.command.requests.Redaction;
import dev.attribution.command.requests.WriteRequestLog;
import jakarta.inject.Singleton;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;

/** The erasure of a lead ({@code DELETE /leads}, {@link LeadHandlers.Delete}), each table through its owner. */
@Singleton
class LeadEraser {

    private final List<LeadErasure> erasures;
    private final LeadsTable leads;
    private final LeadPhones phones;
    private final LeadIps ips;
    private final LeadTags tags;
    private final LeadStages stages;

    LeadEraser(List<LeadErasure> erasures, LeadsTable leads, LeadPhones phones, LeadIps ips, LeadTags tags, LeadStages stages) {
        this.erasures = erasures;
        this.leads = leads;
        this.phones = phones;
        this.ips = ips;
        this.tags = tags;
        this.stages = stages;
    }

    /**
     * Erases a lead (spec 3.2, DELETE /leads): contacts blacklisted (hashed), personal data redacted, phones, IPs,
     * tags, stage history, clicks and imported email events deleted, its copies in the request log and the outbox
     * redacted, and every {@link LeadErasure} (sales, subscriptions) run. The row stays, marked erased, so ids held
     * elsewhere still resolve to nothing personal.
     */
    void erase(Connection c, Account account, String leadId, String placeholderDomain, Instant now, String requestId)
            throws SQLException {
        String accountId = account.id();
        LeadsTable.Current lead = leads.findById(c, accountId, leadId).orElse(null);
        if (lead == null) {
            return;
        }
        List<String> leadPhones = phones.of(c, accountId, leadId);
        List<String> leadIps = ips.of(c, accountId, leadId);
        Blacklist.add(c, accountId, lead.email(), leadPhones);
        for (LeadErasure erasure : erasures) {
            erasure.erase(c, account, leadId, now);
        }
        phones.eraseLead(c, accountId, leadId);
        ips.eraseLead(c, accountId, leadId);
        tags.eraseLead(c, accountId, leadId);
        stages.eraseLead(c, accountId, leadId);
        // the lead's clicks go with it: ClicksTable, one of the LeadErasures above
        EmailEventImport.eraseLead(c, accountId, leadId);
        leads.redact(c, accountId, leadId, placeholderDomain, now);
        // last, after any event the steps above recorded: the copies outside the lead's rows, in the request log
        // (GET /requests/{id} of its writes) and the outbox
        Redaction redaction = Redaction.of(leadId, lead.email(), leadPhones, leadIps);
        WriteRequestLog.redact(c, accountId, redaction, requestId);
        DomainEvents.redact(c, accountId, leadId, redaction);
    }
}
