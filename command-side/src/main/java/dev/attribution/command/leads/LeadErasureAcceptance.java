package dev.attribution.command.leads;

import dev.attribution.api.NotifiedCache;
import dev.attribution.command.blacklist.Blacklist;
import dev.attribution.command.requests.Commands;
import io.micronaut.data.jdbc.runtime.JdbcOperations;
import io.micronaut.transaction.TransactionOperations;
import jakarta.inject.Singleton;

import java.sql.Connection;
import java.util.Optional;

/**
 * The acceptance of {@code DELETE /leads}: the erasure applies at once (spec 4.1): the lead's email and phones are
 * blacklisted in the transaction that accepts the request, so a write sent right after is already refused; the
 * worker then redacts and deletes ({@link LeadHandlers.Delete}). Once that transaction committed, this node's cached
 * blacklists are dropped (other nodes hear of it through the blacklist's trigger), so the next write here is checked
 * against the new entries.
 */
@Singleton
class LeadErasureAcceptance {

    private final Commands commands;
    private final LeadsTable leads;
    private final LeadPhones phones;
    private final JdbcOperations jdbc;
    private final TransactionOperations<Connection> tx;

    LeadErasureAcceptance(Commands commands, LeadsTable leads, LeadPhones phones, JdbcOperations jdbc,
                          TransactionOperations<Connection> tx) {
        this.commands = commands;
        this.leads = leads;
        this.phones = phones;
        this.jdbc = jdbc;
        this.tx = tx;
    }

    /** The request id, once the request and the blacklist entries are durable. */
    String accept(String accountId, DeleteLead delete) {
        String requestId = tx.executeWrite(status -> jdbc.execute((Connection c) -> {
            Optional<LeadsTable.Current> lead = Optional.empty();
            if (delete.selectId() != null) {
                lead = leads.findById(c, accountId, delete.selectId());
            }
            if (lead.isEmpty() && delete.selectEmail() != null) {
                lead = leads.findByEmail(c, accountId, delete.selectEmail());
            }
            DeleteLead found = delete;
            if (lead.isPresent()) {
                Blacklist.add(c, accountId, lead.get().email(), phones.of(c, accountId, lead.get().id()));
                found = new DeleteLead(delete.selectId(), delete.selectEmail(), lead.get().id());
            }
            return commands.accept(accountId, LeadRules.lane(delete), found);
        }));
        NotifiedCache.invalidateAll();
        return requestId;
    }
}
