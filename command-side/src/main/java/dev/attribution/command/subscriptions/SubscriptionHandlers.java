package dev.attribution.command.subscriptions;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.attribution.api.JsonBody;
import dev.attribution.api.RequestIds;
import dev.attribution.command.commerce.CommerceInput;
import dev.attribution.command.events.DomainEvents;
import dev.attribution.command.leads.LeadResolver;
import dev.attribution.command.requests.WriteHandler;
import dev.attribution.views.RecordViews;
import dev.attribution.views.SubscriptionView;
import jakarta.inject.Singleton;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * CREATE_SUBSCRIPTION (upsert by {@code subscriptionId}) and UPDATE_SUBSCRIPTION. Records
 * {@code subscription.created} for a new subscription and {@code subscription.status.changed} when a status moves.
 * {@code category} is never written here: the first paid sale of the subscription sets it (OrderHandlers).
 */
public final class SubscriptionHandlers {

    public static final String NOT_FOUND = "Subscription not found";

    private SubscriptionHandlers() {
    }

    @Singleton
    static class Create implements WriteHandler {
        private final LeadResolver leads;
        private final RecordViews views;

        Create(LeadResolver leads, RecordViews views) {
            this.leads = leads;
            this.views = views;
        }

        @Override
        public String eventType() {
            return "CREATE_SUBSCRIPTION";
        }

        @Override
        public JsonNode apply(Connection c, Write w) throws SQLException {
            JsonNode p = w.payload();
            String accountId = w.account().id();
            Instant now = w.acceptedAt();
            String buyer = leads.resolve(c, accountId, CommerceInput.person(p), now).id();
            String leadId = p.hasNonNull("parentEmail") ? leads.byEmail(c, accountId, p.get("parentEmail").asText(), now).id() : buyer;
            String externalId = CommerceInput.text(p, "subscriptionId");
            String existing = null;
            String oldStatus = null;
            if (externalId != null) {
                try (PreparedStatement ps = c.prepareStatement(
                        "SELECT id, status FROM subscriptions WHERE account_id = ? AND external_id = ? FOR UPDATE")) {
                    ps.setString(1, accountId);
                    ps.setString(2, externalId);
                    try (ResultSet rs = ps.executeQuery()) {
                        if (rs.next()) {
                            existing = rs.getString(1);
                            oldStatus = rs.getString(2);
                        }
                    }
                }
            }
            String id = existing != null ? existing : RequestIds.next("sub_");
            String name = CommerceInput.text(p, "name");
            String planId = CommerceInput.text(p, "planId");
            String tagSource = name != null ? name : planId;
            String tag = tagSource == null ? null
                    : "#" + tagSource.trim().toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}]+", "-").replaceAll("^-+|-+$", "");
            if (existing == null) {
                try (PreparedStatement ps = c.prepareStatement("""
                        INSERT INTO subscriptions (account_id, id, external_id, lead_id, plan_id, name, tag, periodicity, price,
                            status, start_date, end_date, cancel_at_date, trial_start_date, trial_end_date, created_at, updated_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""")) {
                    ps.setString(1, accountId);
                    ps.setString(2, id);
                    ps.setString(3, externalId);
                    ps.setString(4, leadId);
                    ps.setString(5, planId);
                    ps.setString(6, name);
                    ps.setString(7, tag);
                    ps.setString(8, p.get("periodicity").asText());
                    ps.setBigDecimal(9, new BigDecimal(p.get("price").asText()));
                    ps.setString(10, p.get("status").asText());
                    ps.setTimestamp(11, ts(p, "startDate"));
                    ps.setTimestamp(12, ts(p, "endDate"));
                    ps.setTimestamp(13, ts(p, "cancelAtDate"));
                    ps.setTimestamp(14, ts(p, "trialStartDate"));
                    ps.setTimestamp(15, ts(p, "trialEndDate"));
                    ps.setTimestamp(16, Timestamp.from(now));
                    ps.setTimestamp(17, Timestamp.from(now));
                    ps.executeUpdate();
                }
            } else {
                ObjectNode changes = ((ObjectNode) p).deepCopy();
                update(c, accountId, id, changes, now);
                try (PreparedStatement ps = c.prepareStatement("""
                        UPDATE subscriptions SET lead_id = ?, plan_id = COALESCE(?, plan_id), tag = COALESCE(?, tag),
                            periodicity = ? WHERE account_id = ? AND id = ?""")) {
                    ps.setString(1, leadId);
                    ps.setString(2, planId);
                    ps.setString(3, tag);
                    ps.setString(4, p.get("periodicity").asText());
                    ps.setString(5, accountId);
                    ps.setString(6, id);
                    ps.executeUpdate();
                }
            }
            SubscriptionView view = views.subscriptions(c, accountId, w.account().timeZone(), List.of(id)).get(0);
            JsonNode result = JsonBody.mapper().valueToTree(view);
            if (existing == null) {
                DomainEvents.record(c, accountId, "subscription.created", id, result, now);
            } else if (!p.get("status").asText().equals(oldStatus)) {
                DomainEvents.record(c, accountId, "subscription.status.changed", id, result, now);
            }
            return result;
        }
    }

    @Singleton
    static class Update implements WriteHandler {
        private final RecordViews views;

        Update(RecordViews views) {
            this.views = views;
        }

        @Override
        public String eventType() {
            return "UPDATE_SUBSCRIPTION";
        }

        @Override
        public JsonNode apply(Connection c, Write w) throws SQLException {
            JsonNode p = w.payload();
            String accountId = w.account().id();
            Map<String, String> statusById = new LinkedHashMap<>();
            List<String> keys = CommerceInput.texts(p.get("ids"));
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT id, status FROM subscriptions WHERE account_id = ? AND (id = ANY(?) OR external_id = ANY(?)) ORDER BY id FOR UPDATE")) {
                ps.setString(1, accountId);
                ps.setArray(2, c.createArrayOf("text", keys.toArray()));
                ps.setArray(3, c.createArrayOf("text", keys.toArray()));
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        statusById.put(rs.getString(1), rs.getString(2));
                    }
                }
            }
            if (statusById.isEmpty()) {
                throw new WriteFailure(NOT_FOUND);
            }
            List<String> ids = new ArrayList<>(statusById.keySet());
            for (String id : ids) {
                SubscriptionHandlers.update(c, accountId, id, p, w.acceptedAt());
            }
            List<SubscriptionView> rendered = views.subscriptions(c, accountId, w.account().timeZone(), ids);
            for (SubscriptionView v : rendered) {
                if (p.hasNonNull("status") && !v.status().equals(statusById.get(v.id()))) {
                    DomainEvents.record(c, accountId, "subscription.status.changed", v.id(), JsonBody.mapper().valueToTree(v), w.acceptedAt());
                }
            }
            return JsonBody.mapper().valueToTree(rendered);
        }
    }

    /** Applies the fields present in {@code p} to one subscription. */
    static void update(Connection c, String accountId, String id, JsonNode p, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE subscriptions SET name = COALESCE(?, name), price = COALESCE(?, price), status = COALESCE(?, status),
                    start_date = COALESCE(?, start_date), end_date = COALESCE(?, end_date),
                    cancel_at_date = COALESCE(?, cancel_at_date), trial_start_date = COALESCE(?, trial_start_date),
                    trial_end_date = COALESCE(?, trial_end_date), updated_at = ?
                WHERE account_id = ? AND id = ?""")) {
            ps.setString(1, CommerceInput.text(p, "name"));
            ps.setBigDecimal(2, p.hasNonNull("price") ? new BigDecimal(p.get("price").asText()) : null);
            ps.setString(3, CommerceInput.text(p, "status"));
            ps.setTimestamp(4, ts(p, "startDate"));
            ps.setTimestamp(5, ts(p, "endDate"));
            ps.setTimestamp(6, ts(p, "cancelAtDate"));
            ps.setTimestamp(7, ts(p, "trialStartDate"));
            ps.setTimestamp(8, ts(p, "trialEndDate"));
            ps.setTimestamp(9, Timestamp.from(now));
            ps.setString(10, accountId);
            ps.setString(11, id);
            ps.executeUpdate();
        }
    }

    private static Timestamp ts(JsonNode p, String field) {
        return p.hasNonNull(field) ? Timestamp.from(Instant.parse(p.get(field).asText())) : null;
    }
}
