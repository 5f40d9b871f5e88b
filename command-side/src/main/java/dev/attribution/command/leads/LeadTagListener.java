package dev.attribution.command.leads;

import dev.attribution.api.auth.Account;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;

/**
 * Told, inside the write's transaction, when a lead gains a tag it did not hold (spec 3.2). The commerce side
 * implements it to turn a {@code $} tag matching a product tag into a sale dated {@code assignedAt}.
 */
public interface LeadTagListener {

    /**
     * Returns whether it wrote anything: when no listener did, the lead rendered for the tag's event is still the
     * lead as it stands, and the write's result reuses it instead of reading it again.
     */
    boolean tagAdded(Connection connection, Account account, String leadId, String tag, Instant assignedAt) throws SQLException;
}
