package dev.attribution.command.leads;

import jakarta.inject.Singleton;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;

/**
 * The door other features (orders, calls, carts, subscriptions) use to find or create the lead a write names,
 * inside the worker's transaction. It goes through {@link LeadStore}, so leads are written one way only.
 * Phone numbers sent with a purchase are added to the lead (never replacing the stored ones).
 */
@Singleton
public class LeadResolver {

    /** The person a write names: email, or phone numbers when there is no email. */
    public record Person(String email, List<String> phones, String firstName, String lastName, List<String> ips, String stage) {
        public Person {
            phones = phones == null ? List.of() : List.copyOf(phones);
            ips = ips == null ? List.of() : List.copyOf(ips);
        }
    }

    /** The lead found or created. */
    public record Resolved(String id, boolean created) {
    }

    private final LeadStore store;
    private final String placeholderDomain;

    LeadResolver(LeadStore store, LeadSettings settings) {
        this.store = store;
        this.placeholderDomain = settings.getPlaceholderEmailDomain();
    }

    /** Finds the lead by email (or by phone when there is none) or creates it; applies names, phones, IPs, stage. */
    public Resolved resolve(Connection c, String accountId, Person p, Instant now) throws SQLException {
        String email = p.email() != null ? p.email()
                : store.findByPhone(c, accountId, p.phones().get(0)).orElse(p.phones().get(0).replaceAll("[^0-9]", "") + "@" + placeholderDomain);
        LeadStore.Upsert upsert = store.upsertByEmail(c, accountId, email, p.firstName(), p.lastName(), null, now);
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO lead_phones (account_id, lead_id, phone) VALUES (?, ?, ?) ON CONFLICT DO NOTHING")) {
            for (String phone : p.phones()) {
                ps.setString(1, accountId);
                ps.setString(2, upsert.id());
                ps.setString(3, phone);
                ps.addBatch();
            }
            ps.executeBatch();
        }
        store.addIps(c, accountId, upsert.id(), p.ips());
        if (p.stage() != null) {
            store.setStage(c, accountId, upsert.id(), p.stage(), now);
        }
        return new Resolved(upsert.id(), upsert.created());
    }

    /** The lead with this email, created bare when absent (an origin lead named by {@code parentEmail}). */
    public Resolved byEmail(Connection c, String accountId, String email, Instant now) throws SQLException {
        LeadStore.Upsert upsert = store.upsertByEmail(c, accountId, email, null, null, null, now);
        return new Resolved(upsert.id(), upsert.created());
    }

    /** Applies {@code stage} to a known lead (an order update names the stage without the buyer). */
    public void applyStage(Connection c, String accountId, String leadId, String stage, Instant now) throws SQLException {
        store.setStage(c, accountId, leadId, stage, now);
    }

    /** Makes {@code originId} the origin lead of {@code leadId} (an order with {@code parentEmail}, spec 3.2). */
    public void assignOrigin(Connection c, dev.attribution.api.auth.Account account, String leadId, String originId, Instant now)
            throws SQLException {
        store.assignOrigin(c, account, leadId, originId, now);
    }
}
