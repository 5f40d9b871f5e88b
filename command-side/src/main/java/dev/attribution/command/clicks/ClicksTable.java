package dev.attribution.command.clicks;

import dev.attribution.api.RequestIds;
import dev.attribution.api.auth.Account;
import dev.attribution.command.imports.BatchInsert;
import dev.attribution.command.leads.LeadErasure;
import jakarta.inject.Singleton;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The only writer of the {@code clicks} table: the clicks written ({@code POST /clicks}), connected to a lead that
 * shows their IP, purged when never connected (spec 8.2), re-tagged with their source and erased with their lead
 * (spec 3.2).
 */
@Singleton
public class ClicksTable implements LeadErasure {

    /** Unassigned clicks older than this are deleted, and leads connect to unassigned clicks this recent (spec 8.2). */
    public static final Duration RETENTION = Duration.ofDays(90);

    /** A click to insert: its lead (null: unassigned), its date and when its write was accepted. */
    record NewClick(String accountId, String leadId, Instant date, Instant acceptedAt, CreateClick click) {
    }

    /** A click just connected to a lead: its source link tag (null: none) and date. */
    public record Connected(String sourceLinkTag, Instant date) {
    }

    private static final String INSERT = """
            INSERT INTO clicks (account_id, id, lead_id, click_date, tracked_url, previous_url, session_id, ip, user_agent,
                source_link_tag, is_organic, integration_type, ad_source_id, adspend_ad_id, ad_source_click_id, created_at)
            VALUES\s""";
    private static final String ROW = "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    private static final int COLUMNS = 16;

    /** Inserts the clicks in one statement (the conversion-touches trigger runs once); returns their ids in order. */
    List<String> insert(Connection c, List<NewClick> clicks) throws SQLException {
        List<String> ids = new ArrayList<>(clicks.size());
        try (PreparedStatement ps = c.prepareStatement(INSERT + String.join(", ", Collections.nCopies(clicks.size(), ROW)))) {
            for (int n = 0; n < clicks.size(); n++) {
                NewClick k = clicks.get(n);
                CreateClick p = k.click();
                String id = RequestIds.next("clk_");
                ids.add(id);
                int i = n * COLUMNS;
                ps.setString(++i, k.accountId());
                ps.setString(++i, id);
                ps.setString(++i, k.leadId());
                ps.setTimestamp(++i, Timestamp.from(k.date()));
                ps.setString(++i, p.referrerUrl());
                ps.setString(++i, p.previousUrl());
                ps.setString(++i, p.sessionId());
                ps.setString(++i, p.ip());
                ps.setString(++i, p.userAgent());
                ps.setString(++i, p.sourceLinkTag());
                ps.setBoolean(++i, Boolean.TRUE.equals(p.isOrganic()));
                ps.setString(++i, p.platformName());
                ps.setString(++i, p.adSourceId());
                ps.setString(++i, p.adspendAdId());
                ps.setString(++i, p.adSourceClickId());
                ps.setTimestamp(++i, Timestamp.from(k.acceptedAt()));
            }
            ps.executeUpdate();
        }
        return ids;
    }

    /** Deletes the account's clicks never connected to a lead within the retention (spec 8.2). */
    static void purgeUnassigned(Connection c, String accountId, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM clicks WHERE account_id = ? AND lead_id IS NULL AND click_date < ?")) {
            ps.setString(1, accountId);
            ps.setTimestamp(2, Timestamp.from(now.minus(RETENTION)));
            ps.executeUpdate();
        }
    }

    /**
     * Connects the account's unassigned clicks from {@code ips} within the retention to the lead; returns those that
     * carry a source link tag (the lead gets it, dated at the click).
     */
    public static List<Connected> connectUnassigned(Connection c, String accountId, String leadId, List<String> ips, Instant now)
            throws SQLException {
        List<Connected> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE clicks SET lead_id = ? WHERE account_id = ? AND lead_id IS NULL AND ip = ANY(?) AND click_date >= ?
                RETURNING source_link_tag, click_date""")) {
            ps.setString(1, leadId);
            ps.setString(2, accountId);
            ps.setArray(3, c.createArrayOf("text", ips.toArray()));
            ps.setTimestamp(4, Timestamp.from(now.minus(RETENTION)));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (rs.getString(1) != null) {
                        out.add(new Connected(rs.getString(1), rs.getTimestamp(2).toInstant()));
                    }
                }
            }
        }
        return out;
    }

    /** {@code PUT /sources/{tag}}: the source's past clicks carry its new tag and, when given, its organic flag. */
    public void retagSource(Connection c, String accountId, String oldTag, String newTag, Boolean organic) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE clicks SET source_link_tag = ?, is_organic = COALESCE(?, is_organic)
                WHERE account_id = ? AND lower(source_link_tag) = lower(?)""")) {
            ps.setString(1, newTag);
            ps.setObject(2, organic);
            ps.setString(3, accountId);
            ps.setString(4, oldTag);
            ps.executeUpdate();
        }
    }

    /** The lead's clicks, gone with it ({@code DELETE /leads}, spec 3.2). */
    @Override
    public void erase(Connection c, Account account, String leadId, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM clicks WHERE account_id = ? AND lead_id = ?")) {
            ps.setString(1, account.id());
            ps.setString(2, leadId);
            ps.executeUpdate();
        }
    }

    /** A click written whole, its id given (the demo seed's). */
    public record Bulk(String accountId, String id, String leadId, Instant clickDate, String trackedUrl, String previousUrl,
                       String sessionId, String ip, String userAgent, String sourceLinkTag, boolean organic,
                       String integrationType, String adSourceId, String adspendAdId, String adSourceClickId, Instant createdAt) {
    }

    /** Inserts clicks in one batch (the demo seed). */
    public static void insertBulk(Connection c, List<Bulk> rows) throws SQLException {
        BatchInsert.run(c, INSERT + ROW, rows, r -> new Object[]{r.accountId(), r.id(), r.leadId(), r.clickDate(), r.trackedUrl(),
                r.previousUrl(), r.sessionId(), r.ip(), r.userAgent(), r.sourceLinkTag(), r.organic(), r.integrationType(),
                r.adSourceId(), r.adspendAdId(), r.adSourceClickId(), r.createdAt()});
    }
}
