package dev.attribution.query.subscriptions;

import dev.attribution.views.SubscriptionView;

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

/** Reads subscriptions from PostgreSQL in the Subscription shape. */
@Singleton
public class SubscriptionReader {

    /** Filters of {@code GET /subscriptions}. */
    public record Filter(List<String> ids, List<String> emails, List<String> leadIds, List<String> productTags,
                         List<String> statuses, DateRange started, DateRange updated) {
        public String fingerprint() {
            return Integer.toHexString(toString().hashCode());
        }
    }

    private static final String SELECT = "SELECT s.*, " + AttributionColumns.sourcesAsOf("s", "start_date") + " FROM subscriptions s WHERE s.account_id = ?";

    private final JdbcOperations jdbc;
    private final LeadReader leads;

    public SubscriptionReader(JdbcOperations jdbc, LeadReader leads) {
        this.jdbc = jdbc;
        this.leads = leads;
    }

    @Transactional(readOnly = true)
    public Keyset.Page<SubscriptionView> page(String accountId, ZoneId zone, Filter f, Keyset after, int pageSize,
                                              PageTokens tokens) {
        SqlQuery q = new SqlQuery(SELECT, accountId).anyOf("s.lead_id", f.leadIds()).anyOf("s.status", f.statuses());
        if (!f.ids().isEmpty()) {
            q.and("AND (s.id = ANY(?) OR s.external_id = ANY(?))", f.ids(), f.ids());
        }
        q.leadEmailStartsWith("s", f.emails());
        q.anyOfLower("s.tag", f.productTags());
        q.range("s.start_date", f.started()).range("s.updated_at", f.updated())
                .after("s.start_date", "s.id", after).and("ORDER BY s.start_date, s.id LIMIT ?", pageSize + 1);
        Connection c = jdbc.getConnection();
        List<LeadRow<SubscriptionView>> rows = q.list(c, rs -> row(rs, zone));
        return Keyset.page(rows, pageSize, LeadRow::position,
                shown -> withLeads(c, accountId, zone, shown), tokens, accountId, f.fingerprint());
    }

    /** Subscriptions by id, on the caller's connection. */
    public List<SubscriptionView> byIds(Connection c, String accountId, ZoneId zone, List<String> ids) {
        return withLeads(c, accountId, zone, new SqlQuery(SELECT + " AND s.id = ANY(?) ORDER BY s.start_date, s.id",
                accountId, ids).list(c, rs -> row(rs, zone)));
    }

    /** The subscriptions of a lead, oldest first, on the caller's connection (its journey). */
    public List<SubscriptionView> byLead(Connection c, String accountId, ZoneId zone, String leadId) {
        return withLeads(c, accountId, zone, new SqlQuery(SELECT + " AND s.lead_id = ? ORDER BY s.start_date, s.id",
                accountId, leadId).list(c, rs -> row(rs, zone)));
    }

    private List<SubscriptionView> withLeads(Connection c, String accountId, ZoneId zone, List<LeadRow<SubscriptionView>> rows) {
        return LeadRow.withLeads(leads, c, accountId, zone, rows, (v, lead) -> new SubscriptionView(v.id(), v.planId(),
                v.tag(), v.name(), v.periodicity(), v.startDate(), v.endDate(), v.cancelAtDate(), v.trialStartDate(),
                v.trialEndDate(), v.lastUpdatedDate(), v.price(), v.status(), lead, v.firstSource(), v.lastSource(),
                v.category()));
    }

    private static LeadRow<SubscriptionView> row(ResultSet rs, ZoneId zone) throws SQLException {
        Instant start = SqlQuery.instant(rs, "start_date");
        String categoryId = rs.getString("category_id");
        return new LeadRow<>(rs.getString("id"), rs.getString("lead_id"), start, new SubscriptionView(rs.getString("id"), rs.getString("plan_id"),
                rs.getString("tag"), rs.getString("name"), rs.getString("periodicity"),
                ApiDates.formatLegacy(start, zone),
                ApiDates.formatLegacy(SqlQuery.instant(rs, "end_date"), zone),
                ApiDates.formatLegacy(SqlQuery.instant(rs, "cancel_at_date"), zone),
                ApiDates.formatLegacy(SqlQuery.instant(rs, "trial_start_date"), zone),
                ApiDates.formatLegacy(SqlQuery.instant(rs, "trial_end_date"), zone),
                ApiDates.format(SqlQuery.instant(rs, "updated_at"), zone),
                rs.getBigDecimal("price"), rs.getString("status"), null,
                AttributionColumns.fromColumn(rs.getString("first_source"), zone),
                AttributionColumns.fromColumn(rs.getString("last_source"), zone),
                categoryId == null ? null : new SubscriptionView.Category(categoryId, rs.getString("category_name"))));
    }
}
