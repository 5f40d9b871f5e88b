package dev.attribution.query.calls;

import dev.attribution.views.CallView;

import dev.attribution.api.ApiDates;
import dev.attribution.api.DateRange;
import dev.attribution.api.PageTokens;
import dev.attribution.query.commerce.LeadRow;
import dev.attribution.query.leads.AttributionColumns;
import dev.attribution.views.Attribution;
import dev.attribution.query.leads.LeadReader;
import dev.attribution.query.support.Keyset;
import dev.attribution.query.support.SqlQuery;
import io.micronaut.data.jdbc.runtime.JdbcOperations;
import io.micronaut.transaction.annotation.Transactional;
import jakarta.inject.Singleton;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;

/** Reads live calls from PostgreSQL in the Call shape. */
@Singleton
public class CallReader {

    /** Filters of {@code GET /calls} (spec 4.3). */
    public record Filter(List<String> ids, List<String> emails, List<String> leadIds, List<String> productTags,
                         Boolean qualified, List<String> qualificationStages, DateRange callDate, DateRange updated) {
        public String fingerprint() {
            return Integer.toHexString(toString().hashCode());
        }
    }

    private static final String SELECT = "SELECT c.*, " + AttributionColumns.sourcesAsOf("c", "call_date") + " FROM calls c WHERE c.account_id = ? AND NOT c.deleted";

    private final JdbcOperations jdbc;
    private final LeadReader leads;

    public CallReader(JdbcOperations jdbc, LeadReader leads) {
        this.jdbc = jdbc;
        this.leads = leads;
    }

    @Transactional(readOnly = true)
    public Keyset.Page<CallView> page(String accountId, ZoneId zone, Filter f, Keyset after, int pageSize, PageTokens tokens) {
        SqlQuery q = new SqlQuery(SELECT, accountId).anyOf("c.id", f.ids()).anyOf("c.lead_id", f.leadIds());
        q.leadEmailStartsWith("c", f.emails());
        q.anyOfLower("c.tag", f.productTags()).anyOfLower("c.qualification_name", f.qualificationStages());
        if (f.qualified() != null) {
            q.and("AND c.qualified = ?", f.qualified());
        }
        q.range("c.call_date", f.callDate()).range("c.updated_at", f.updated())
                .after("c.call_date", "c.id", after).and("ORDER BY c.call_date, c.id LIMIT ?", pageSize + 1);
        Connection c = jdbc.getConnection();
        List<LeadRow<CallView>> rows = q.list(c, rs -> row(rs, zone));
        return Keyset.page(rows, pageSize, LeadRow::position,
                shown -> withLeads(c, accountId, zone, shown), tokens, accountId, f.fingerprint());
    }

    /** Live calls by id, on the caller's connection. */
    public List<CallView> byIds(Connection c, String accountId, ZoneId zone, List<String> ids) {
        return withLeads(c, accountId, zone, new SqlQuery(SELECT + " AND c.id = ANY(?) ORDER BY c.call_date, c.id",
                accountId, ids).list(c, rs -> row(rs, zone)));
    }

    /** The live calls of a lead, oldest first, on the caller's connection (its journey). */
    public List<CallView> byLead(Connection c, String accountId, ZoneId zone, String leadId) {
        return withLeads(c, accountId, zone, new SqlQuery(SELECT + " AND c.lead_id = ? ORDER BY c.call_date, c.id",
                accountId, leadId).list(c, rs -> row(rs, zone)));
    }

    private List<CallView> withLeads(Connection c, String accountId, ZoneId zone, List<LeadRow<CallView>> rows) {
        return LeadRow.withLeads(leads, c, accountId, zone, rows, (v, lead) -> new CallView(v.id(), v.tag(), v.name(),
                v.externalId(), v.qualified(), v.score(), v.creationDate(), v.state(), v.qualification(), lead,
                v.firstSource(), v.lastSource()));
    }

    private static LeadRow<CallView> row(ResultSet rs, ZoneId zone) throws SQLException {
        Instant date = SqlQuery.instant(rs, "call_date");
        String qualification = rs.getString("qualification_name");
        String oldName = rs.getString("qualification_old_name");
        return new LeadRow<>(rs.getString("id"), rs.getString("lead_id"), date, new CallView(rs.getString("id"), rs.getString("tag"),
                rs.getString("name"), rs.getString("external_id"), rs.getBoolean("qualified"),
                dev.attribution.query.commerce.Scores.of(rs.getBigDecimal("score")),
                ApiDates.formatLegacy(date, zone), rs.getString("state"),
                qualification == null && oldName == null ? null : new CallView.Qualification(qualification, oldName), null,
                AttributionColumns.fromColumn(rs.getString("first_source"), zone),
                AttributionColumns.fromColumn(rs.getString("last_source"), zone)));
    }
}
