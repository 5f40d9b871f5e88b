package dev.attribution.command.leads;

import dev.attribution.api.auth.Account;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;

/**
 * A part of {@code DELETE /leads} owned by another feature (spec 3.2): sales deleted, subscriptions cancelled,
 * carts and calls unlinked. Runs inside the erasure's transaction, before the lead row is redacted.
 */
public interface LeadErasure {

    void erase(Connection connection, Account account, String leadId, Instant now) throws SQLException;
}
