package dev.attribution.command.leads;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.attribution.api.DatabaseReads;
import dev.attribution.api.JsonBody;
import dev.attribution.api.RequestIds;
import dev.attribution.api.auth.Account;
import dev.attribution.command.imports.BatchInsert;
import io.micronaut.data.jdbc.runtime.JdbcOperations;
import io.micronaut.transaction.annotation.Transactional;
import jakarta.inject.Singleton;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The only writer of {@code lead_stages} (the account's stage names; a lead-stage URL rule registers its stage here
 * too, {@link #ensureAccountStage}) and of {@code lead_stage_history}; a lead's current stage is set through
 * {@link LeadsTable}, with the {@code lead.stage.changed} event. Also the accept-time check of the stages a
 * {@code PUT /leads} removes.
 */
@Singleton
public class LeadStages {

    private final LeadEvents events;
    private final LeadsTable leads;
    private final JdbcOperations jdbc;

    LeadStages(LeadEvents events, LeadsTable leads, JdbcOperations jdbc) {
        this.events = events;
        this.leads = leads;
        this.jdbc = jdbc;
    }

    /**
     * Accept-time check of {@code PUT /leads}: the first of {@code names} the account does not know (case-insensitive),
     * if any. May run on the event loop: it reads only after {@link DatabaseReads#beforeRead()}.
     */
    @Transactional(readOnly = true)
    public Optional<String> firstUnknown(String accountId, List<String> names) {
        if (names.isEmpty()) {
            return Optional.empty();
        }
        DatabaseReads.beforeRead();
        return jdbc.execute((Connection c) -> unknownStages(c, accountId, names)).stream().findFirst();
    }

    void setStage(Connection c, String accountId, String leadId, String stage, Instant date) throws SQLException {
        String[] idAndName = ensureStage(c, accountId, stage, date);
        leads.setStage(c, accountId, leadId, idAndName[1], date, null);
        addHistory(c, accountId, leadId, idAndName[0], date);
    }

    private static void addHistory(Connection c, String accountId, String leadId, String stageId, Instant date) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO lead_stage_history (account_id, lead_id, stage_id, entered_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING")) {
            ps.setString(1, accountId);
            ps.setString(2, leadId);
            ps.setString(3, stageId);
            ps.setTimestamp(4, Timestamp.from(date));
            ps.executeUpdate();
        }
    }

    /**
     * Applies a stage (spec 3.2): the account learns the name, the lead's current stage becomes it, the history
     * gains an entry, and {@code lead.stage.changed} is recorded when the current stage changed.
     */
    void applyStage(Connection c, Account account, String leadId, String stage, Instant date) throws SQLException {
        String[] idAndName = ensureStage(c, account.id(), stage, date);
        String before = leads.findById(c, account.id(), leadId).map(LeadsTable.Current::stageName).orElse(null);
        leads.setStage(c, account.id(), leadId, idAndName[1], date, null);
        addHistory(c, account.id(), leadId, idAndName[0], date);
        if (before == null || !before.equalsIgnoreCase(idAndName[1])) {
            ObjectNode detail = JsonBody.mapper().createObjectNode().put("stage", idAndName[1]);
            if (before != null) {
                detail.put("previousStage", before);
            }
            events.recordDetail(c, account, leadId, "lead.stage.changed", detail, date);
        }
    }

    /** Removes the named stages from the lead: its current stage is cleared when it is one of them. */
    void removeStages(Connection c, Account account, String leadId, List<String> names, Instant now) throws SQLException {
        String before = leads.findById(c, account.id(), leadId).map(LeadsTable.Current::stageName).orElse(null);
        if (before == null || names.stream().noneMatch(before::equalsIgnoreCase)) {
            return;
        }
        leads.setStage(c, account.id(), leadId, null, null, now);
        events.recordDetail(c, account, leadId, "lead.stage.changed",
                JsonBody.mapper().createObjectNode().putNull("stage").put("previousStage", before), now);
    }

    /** The names of {@code names} the account does not know (case-insensitive). */
    static List<String> unknownStages(Connection c, String accountId, Collection<String> names) throws SQLException {
        List<String> known = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT lower(name) FROM lead_stages WHERE account_id = ? AND lower(name) = ANY(?)")) {
            ps.setString(1, accountId);
            ps.setArray(2, c.createArrayOf("text", names.stream().map(n -> n.toLowerCase(Locale.ROOT)).toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    known.add(rs.getString(1));
                }
            }
        }
        return names.stream().filter(n -> !known.contains(n.toLowerCase(Locale.ROOT))).toList();
    }

    /**
     * Makes {@code name} one of the account's stages (spec 4.9 / 3.2 "created if absent"), as a lead-stage URL rule
     * does when it is written: GET /stages lists it and reports accept it as {@code lead_stage}.
     */
    public static void ensureAccountStage(Connection c, String accountId, String name) throws SQLException {
        ensureStage(c, accountId, name, Instant.now());
    }

    /** The stage's id and canonical name, creating it when the account does not know the name yet. */
    private static String[] ensureStage(Connection c, String accountId, String name, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO lead_stages (account_id, id, name, created_at) VALUES (?, ?, ?, ?)
                ON CONFLICT (account_id, lower(name)) DO NOTHING""")) {
            ps.setString(1, accountId);
            ps.setString(2, RequestIds.next("stg_"));
            ps.setString(3, name);
            ps.setTimestamp(4, Timestamp.from(now));
            ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT id, name FROM lead_stages WHERE account_id = ? AND lower(name) = lower(?)")) {
            ps.setString(1, accountId);
            ps.setString(2, name);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new String[]{rs.getString(1), rs.getString(2)};
            }
        }
    }

    /** The lead's stage history, gone with it ({@code DELETE /leads}, spec 3.2). */
    void eraseLead(Connection c, String accountId, String leadId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM lead_stage_history WHERE account_id = ? AND lead_id = ?")) {
            ps.setString(1, accountId);
            ps.setString(2, leadId);
            ps.executeUpdate();
        }
    }

    /** An account stage to have, by name (kept when the account has it already, in any case). */
    public record BulkStage(String accountId, String id, String name, Instant createdAt) {
    }

    /** A lead's entry into a stage, the stage named as the account holds it. */
    public record BulkEntry(String accountId, String leadId, String stageName, Instant enteredAt) {
    }

    /** Inserts the stages the account lacks, in one batch (the demo seed). */
    public static void insertBulkStages(Connection c, List<BulkStage> rows) throws SQLException {
        BatchInsert.run(c, "INSERT INTO lead_stages (account_id, id, name, created_at) VALUES (?, ?, ?, ?) "
                + "ON CONFLICT (account_id, lower(name)) DO NOTHING", rows,
                r -> new Object[]{r.accountId(), r.id(), r.name(), r.createdAt()});
    }

    /** Inserts stage entries in one batch (the demo seed), each stage by name: the account may have held it before. */
    public static void insertBulkEntries(Connection c, List<BulkEntry> rows) throws SQLException {
        BatchInsert.run(c, "INSERT INTO lead_stage_history (account_id, lead_id, stage_id, entered_at) VALUES (?, ?, "
                + "(SELECT id FROM lead_stages WHERE account_id = ? AND lower(name) = lower(?)), ?) ON CONFLICT DO NOTHING", rows,
                r -> new Object[]{r.accountId(), r.leadId(), r.accountId(), r.stageName(), r.enteredAt()});
    }
}
