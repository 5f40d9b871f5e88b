package dev.attribution.command.leads;

import dev.attribution.api.auth.Account;
import dev.attribution.command.clicks.ClicksTable;
import dev.attribution.command.requests.WriteHandler;
import jakarta.inject.Singleton;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The door other features (orders, calls, carts, subscriptions, clicks) use to find, create or change the lead a
 * write names, inside the worker's transaction. Each change goes to the owner of its table ({@link LeadsTable},
 * {@link LeadPhones}, {@link LeadIps}, {@link LeadTags}, {@link LeadStages}), so leads are written one way only.
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

    private final LeadsTable leads;
    private final LeadPhones phones;
    private final LeadIps ips;
    private final LeadTags tags;
    private final LeadStages stages;
    private final String placeholderDomain;

    LeadResolver(LeadsTable leads, LeadPhones phones, LeadIps ips, LeadTags tags, LeadStages stages, LeadSettings settings) {
        this.leads = leads;
        this.phones = phones;
        this.ips = ips;
        this.tags = tags;
        this.stages = stages;
        this.placeholderDomain = settings.getPlaceholderEmailDomain();
    }

    /** Finds the lead by email (or by phone when there is none) or creates it; applies names, phones, IPs, stage. */
    public Resolved resolve(Connection c, String accountId, Person p, Instant now) throws SQLException {
        String email = p.email() != null ? p.email()
                : leads.emailByPhone(c, accountId, p.phones().get(0)).orElse(placeholder(p.phones().get(0)));
        LeadsTable.Upsert upsert = leads.upsert(c, new LeadsTable.Row(accountId, email, p.firstName(), p.lastName(), null, now));
        phones.add(c, accountId, upsert.id(), p.phones());
        ips.add(c, accountId, upsert.id(), p.ips());
        if (p.stage() != null) {
            stages.setStage(c, accountId, upsert.id(), p.stage(), now);
        }
        return new Resolved(upsert.id(), upsert.created());
    }

    /** The lead with this email, created bare when absent (an origin lead named by {@code parentEmail}). */
    public Resolved byEmail(Connection c, String accountId, String email, Instant now) throws SQLException {
        LeadsTable.Upsert upsert = leads.upsert(c, new LeadsTable.Row(accountId, email, null, null, null, now));
        return new Resolved(upsert.id(), upsert.created());
    }

    /** Applies {@code stage} to a known lead (an order update names the stage without the buyer). */
    public void applyStage(Connection c, String accountId, String leadId, String stage, Instant now) throws SQLException {
        stages.setStage(c, accountId, leadId, stage, now);
    }

    /** Makes {@code originId} the origin lead of {@code leadId} (an order with {@code parentEmail}, spec 3.2). */
    public void assignOrigin(Connection c, Account account, String leadId, String originId, Instant now) throws SQLException {
        leads.assignOrigin(c, account, leadId, originId, now);
    }

    /** The lead of a click's email, created when absent, with the opt-in events of {@link LeadsTable#upsertWithEvents}. */
    public LeadsTable.Upsert upsertWithEvents(Connection c, Account account, String email, String firstName, String lastName,
                                              String consent, Instant now) throws SQLException {
        return leads.upsertWithEvents(c, account, email, firstName, lastName, consent, now);
    }

    /**
     * The lead of each (account, email, now), created bare when absent (no names or consent, so no event), in one
     * statement; the pairs must be distinct. Returns their ids in order (group apply of clicks).
     */
    public List<String> upsertBare(Connection c, List<String> accountIds, List<String> emails, List<Instant> nows) throws SQLException {
        List<LeadsTable.Row> rows = new ArrayList<>();
        for (int i = 0; i < emails.size(); i++) {
            rows.add(new LeadsTable.Row(accountIds.get(i), emails.get(i), null, null, null, nows.get(i)));
        }
        return leads.upsertMany(c, rows).stream().map(LeadsTable.Upsert::id).toList();
    }

    /**
     * {@link #resolve} of many buyers named by email alone (no phones, IPs or stage): each (account, email) created
     * or its names updated, in one statement; the pairs must be distinct. Returns their ids in order (group apply of
     * orders).
     */
    public List<String> upsertNamed(Connection c, List<String> accountIds, List<String> emails, List<String> firstNames,
                                    List<String> lastNames, List<Instant> nows) throws SQLException {
        List<LeadsTable.Row> rows = new ArrayList<>();
        for (int i = 0; i < emails.size(); i++) {
            rows.add(new LeadsTable.Row(accountIds.get(i), emails.get(i), firstNames.get(i), lastNames.get(i), null, nows.get(i)));
        }
        return leads.upsertMany(c, rows).stream().map(LeadsTable.Upsert::id).toList();
    }

    /** The oldest live lead holding a phone with the same digits as {@code phone}. */
    public Optional<LeadsTable.Current> findByPhoneDigits(Connection c, String accountId, String phone) throws SQLException {
        return leads.findByPhoneDigits(c, accountId, phone);
    }

    public void addPhones(Connection c, String accountId, String leadId, List<String> numbers) throws SQLException {
        phones.add(c, accountId, leadId, numbers);
    }

    public void addIps(Connection c, String accountId, String leadId, List<String> addresses) throws SQLException {
        ips.add(c, accountId, leadId, addresses);
    }

    /** {@link #addIps} and then {@link #touch} of many (account, lead) pairs: one IP each (null: none), in two statements. */
    public void addIpsAndTouchMany(Connection c, List<String> accountIds, List<String> leadIds, List<String> addresses,
                                   List<Instant> nows) throws SQLException {
        ips.addMany(c, accountIds, leadIds, addresses);
        leads.touchMany(c, accountIds, leadIds, nows);
    }

    /** Marks the lead as changed now (its {@code lastUpdatedDate}). */
    public void touch(Connection c, String accountId, String leadId, Instant now) throws SQLException {
        leads.touch(c, accountId, leadId, now);
    }

    /** {@link LeadTags#addTagsReturningNew}: tags not yet held, with their events and listeners; returns the new ones. */
    public List<String> addTagsReturningNew(Connection c, Account account, String leadId, List<String> added, Instant assignedAt)
            throws SQLException {
        return tags.addTagsReturningNew(c, account, leadId, added, assignedAt);
    }

    /** Adds IPs and connects the account's unassigned recent clicks from those IPs to the lead, with their source tags. */
    void addIpsAndConnectClicks(Connection c, Account account, String leadId, List<String> addresses, Instant now) throws SQLException {
        if (addresses.isEmpty()) {
            return;
        }
        ips.add(c, account.id(), leadId, addresses);
        for (ClicksTable.Connected click : ClicksTable.connectUnassigned(c, account.id(), leadId, addresses, now)) {
            tags.addTagsReturningNew(c, account, leadId, List.of(click.sourceLinkTag()), click.date());
        }
    }

    /**
     * The advisory lock ({@code WriteHandler.advisoryLocks}) a batch takes ahead for each lead it names by email: the
     * writes of one lead under different ordering keys (its create and clicks under its email, its orders under their
     * order ids) can be claimed by two transactions at once; taking their leads' locks first, in one order, makes them
     * wait for each other once instead of deadlocking on the leads' rows (issue 23 point 3).
     */
    public static String lockName(String accountId, String email) {
        return "lead:" + accountId + ":" + email.toLowerCase(java.util.Locale.ROOT);
    }

    /**
     * The {@link #lockName} of every email each write names ({@code emails}: nulls skipped), for a handler's
     * {@code advisoryLocks}; a write whose payload cannot be read takes none (it fails when applied), the others keep
     * theirs.
     */
    public static List<String> lockNames(List<WriteHandler.Write> writes,
                                         java.util.function.Function<WriteHandler.Write, List<String>> emails) {
        List<String> names = new ArrayList<>();
        for (WriteHandler.Write w : writes) {
            List<String> named;
            try {
                named = emails.apply(w);
            } catch (RuntimeException e) {
                continue;
            }
            for (String email : named) {
                if (email != null) {
                    names.add(lockName(w.account().id(), email));
                }
            }
        }
        return names;
    }

    /** The generated email of a phone-only lead, on the service's own domain (spec 4.1). */
    String placeholder(String phone) {
        return phone.replaceAll("[^0-9]", "") + "@" + placeholderDomain;
    }
}
