package dev.attribution.command.leads;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.auth.Account;
import dev.attribution.command.requests.WriteHandler;
import jakarta.inject.Singleton;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static dev.attribution.command.leads.CreateLeadHandler.text;
import static dev.attribution.command.leads.CreateLeadHandler.texts;

/**
 * Applies UPDATE_LEAD ({@code PUT /leads}, spec 4.1, 3.2): tags added without re-dating those held, tags and
 * stages removed, phones and IPs added, consent changed only when sent, {@code leadStage} applied with its date.
 */
@Singleton
class UpdateLeadHandler implements WriteHandler {

    private final LeadStore store;

    UpdateLeadHandler(LeadStore store) {
        this.store = store;
    }

    @Override
    public String eventType() {
        return "UPDATE_LEAD";
    }

    @Override
    public JsonNode apply(Connection c, Write write) throws SQLException {
        JsonNode p = write.payload();
        Account account = write.account();
        Instant now = write.acceptedAt();
        LeadStore.Current lead = select(c, account.id(), p).orElseThrow(() -> new WriteFailure(LeadWrites.LEAD_NOT_FOUND));
        String newEmail = text(p, "email");
        if (newEmail != null && !newEmail.equalsIgnoreCase(lead.email())) {
            Optional<LeadStore.Current> holder = store.findByEmail(c, account.id(), newEmail);
            if (holder.isPresent()) {
                throw new WriteFailure("Another lead already has the email " + newEmail);
            }
        }
        String consent = text(p, "adOptimizationConsent");
        store.updateFields(c, account.id(), lead.id(), newEmail, text(p, "firstName"), text(p, "lastName"), consent, now);
        store.consentChanged(c, account, lead.id(), lead.consent(), consent, now);
        store.addPhones(c, account.id(), lead.id(), texts(p.get("phoneNumbers")));
        store.addIpsAndConnectClicks(c, account, lead.id(), texts(p.get("leadIps")), now);
        Instant tagsDate = p.hasNonNull("tagsDate") ? Instant.parse(p.get("tagsDate").asText()) : now;
        store.addTagsReturningNew(c, account, lead.id(), texts(p.get("tags")), tagsDate);
        store.removeTags(c, account, lead.id(), texts(p.get("removeTags")), now);
        store.removeStages(c, account, lead.id(), texts(p.get("removeLeadStages")), now);
        if (p.hasNonNull("leadStage")) {
            JsonNode stage = p.get("leadStage");
            Instant date = stage.hasNonNull("date") ? Instant.parse(stage.get("date").asText()) : now;
            store.applyStage(c, account, lead.id(), stage.get("name").asText(), date);
        }
        store.touch(c, account.id(), lead.id(), now);
        return store.render(c, account, lead.id());
    }

    /** The lead named by the query: id first, then email, then phone. */
    private Optional<LeadStore.Current> select(Connection c, String accountId, JsonNode p) throws SQLException {
        if (p.hasNonNull("selectId")) {
            return store.findById(c, accountId, p.get("selectId").asText());
        }
        if (p.hasNonNull("selectEmail")) {
            return store.findByEmail(c, accountId, p.get("selectEmail").asText());
        }
        return store.findByPhoneDigits(c, accountId, p.get("selectPhone").asText());
    }

    static List<String> none() {
        return List.of();
    }
}
