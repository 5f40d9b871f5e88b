package dev.attribution.command.leads;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.command.requests.WriteHandler;
import jakarta.inject.Singleton;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;

/** Applies DELETE_LEAD ({@code DELETE /leads}, spec 3.2): the erasure. No {@code result} (spec 2.20). */
@Singleton
class DeleteLeadHandler implements WriteHandler {

    private final LeadStore store;
    private final String placeholderDomain;

    DeleteLeadHandler(LeadStore store, LeadSettings settings) {
        this.store = store;
        this.placeholderDomain = settings.getPlaceholderEmailDomain();
    }

    @Override
    public String eventType() {
        return "DELETE_LEAD";
    }

    @Override
    public JsonNode apply(Connection c, Write write) throws SQLException {
        JsonNode p = write.payload();
        String accountId = write.account().id();
        Optional<LeadStore.Current> lead = Optional.empty();
        if (p.hasNonNull("leadId")) {
            lead = store.findById(c, accountId, p.get("leadId").asText());
        }
        if (lead.isEmpty() && p.hasNonNull("selectId")) {
            lead = store.findById(c, accountId, p.get("selectId").asText());
        }
        if (lead.isEmpty() && p.hasNonNull("selectEmail")) {
            lead = store.findByEmail(c, accountId, p.get("selectEmail").asText());
        }
        String leadId = lead.orElseThrow(() -> new WriteFailure(LeadWrites.LEAD_NOT_FOUND)).id();
        store.erase(c, write.account(), leadId, placeholderDomain, write.acceptedAt(), write.requestId());
        return null;
    }
}
