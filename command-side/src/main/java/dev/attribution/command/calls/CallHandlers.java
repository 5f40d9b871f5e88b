package dev.attribution.command.calls;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.JsonBody;
import dev.attribution.api.RequestIds;
import dev.attribution.command.products.ProductCatalog;
import dev.attribution.command.commerce.CommerceInput;
import dev.attribution.command.events.DomainEvents;
import dev.attribution.command.leads.LeadResolver;
import dev.attribution.command.requests.WriteHandler;
import dev.attribution.views.RecordViews;
import dev.attribution.views.CallView;
import jakarta.inject.Singleton;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** CREATE_CALL (externalId upsert), UPDATE_CALL and DELETE_CALL. */
public final class CallHandlers {

    public static final String CALL_NOT_FOUND = "Call not found";

    private CallHandlers() {
    }

    /** {@code qualified}: from {@code state} when sent, else the deprecated flag, else {@code fallback}. */
    static boolean qualified(JsonNode p, boolean fallback) {
        if (p.hasNonNull("state")) {
            return "QUALIFIED".equals(p.get("state").asText());
        }
        return p.hasNonNull("qualified") ? p.get("qualified").asBoolean() : fallback;
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
            return "CREATE_CALL";
        }

        @Override
        public JsonNode apply(Connection c, Write w) throws SQLException {
            JsonNode p = w.payload();
            String accountId = w.account().id();
            Instant now = w.acceptedAt();
            String leadId = leads.resolve(c, accountId, CommerceInput.person(p), now).id();
            Instant date = p.hasNonNull("date") ? Instant.parse(p.get("date").asText()) : now;
            String externalId = CommerceInput.text(p, "externalId");
            String existing = null;
            String previousLead = null;
            if (externalId != null) {
                try (PreparedStatement ps = c.prepareStatement(
                        "SELECT id, lead_id FROM calls WHERE account_id = ? AND external_id = ? AND NOT deleted FOR UPDATE")) {
                    ps.setString(1, accountId);
                    ps.setString(2, externalId);
                    try (ResultSet rs = ps.executeQuery()) {
                        if (rs.next()) {
                            existing = rs.getString(1);
                            previousLead = rs.getString(2);
                        }
                    }
                }
            }
            String id;
            if (existing != null) {
                id = existing;
                try (PreparedStatement ps = c.prepareStatement("""
                        UPDATE calls SET name = ?, tag = ?, lead_id = ?, call_date = ?, state = COALESCE(?, state),
                            qualified = CASE WHEN ?::boolean IS NULL THEN qualified ELSE ?::boolean END,
                            qualification_old_name = CASE WHEN ?::text IS NULL OR ?::text IS NOT DISTINCT FROM qualification_name
                                THEN qualification_old_name ELSE qualification_name END,
                            qualification_name = COALESCE(?, qualification_name), updated_at = ?
                        WHERE account_id = ? AND id = ?""")) {
                    Boolean q = p.hasNonNull("state") || p.hasNonNull("qualified") ? qualified(p, true) : null;
                    String qualification = CommerceInput.text(p, "qualification");
                    ps.setString(1, p.get("name").asText());
                    ps.setString(2, callTag(c, accountId, p.get("name").asText()));
                    ps.setString(3, leadId);
                    ps.setTimestamp(4, Timestamp.from(date));
                    ps.setString(5, CommerceInput.text(p, "state"));
                    ps.setObject(6, q);
                    ps.setObject(7, q);
                    ps.setString(8, qualification);
                    ps.setString(9, qualification);
                    ps.setString(10, qualification);
                    ps.setTimestamp(11, Timestamp.from(now));
                    ps.setString(12, accountId);
                    ps.setString(13, id);
                    ps.executeUpdate();
                }
            } else {
                id = RequestIds.next("cll_");
                try (PreparedStatement ps = c.prepareStatement("""
                        INSERT INTO calls (account_id, id, external_id, name, tag, lead_id, qualified, state, qualification_name,
                            first_call, call_date, created_at, updated_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, false, ?, ?, ?)""")) {
                    ps.setString(1, accountId);
                    ps.setString(2, id);
                    ps.setString(3, externalId);
                    ps.setString(4, p.get("name").asText());
                    ps.setString(5, callTag(c, accountId, p.get("name").asText()));
                    ps.setString(6, leadId);
                    ps.setBoolean(7, qualified(p, true));
                    ps.setString(8, CommerceInput.text(p, "state"));
                    ps.setString(9, CommerceInput.text(p, "qualification"));
                    ps.setTimestamp(10, Timestamp.from(date));
                    ps.setTimestamp(11, Timestamp.from(now));
                    ps.setTimestamp(12, Timestamp.from(now));
                    ps.executeUpdate();
                }
            }
            firstCalls(c, accountId, previousLead == null || previousLead.equals(leadId) ? List.of(leadId) : List.of(leadId, previousLead));
            CallView view = views.calls(c, accountId, w.account().timeZone(), List.of(id)).get(0);
            JsonNode result = JsonBody.mapper().valueToTree(view);
            if (existing == null) {
                DomainEvents.record(c, accountId, "call.attributed", id, result, now);
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
            return "UPDATE_CALL";
        }

        @Override
        public JsonNode apply(Connection c, Write w) throws SQLException {
            JsonNode p = w.payload();
            String accountId = w.account().id();
            boolean byExternal = CommerceInput.texts(p.get("ids")).isEmpty();
            List<String> keys = CommerceInput.texts(p.get(byExternal ? "externalIds" : "ids"));
            String qualification = CommerceInput.text(p, "qualification");
            Boolean q = p.hasNonNull("state") || p.hasNonNull("qualified") ? qualified(p, true) : null;
            List<String> ids = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("""
                    UPDATE calls SET name = ?, tag = ?, state = COALESCE(?, state),
                        qualified = CASE WHEN ?::boolean IS NULL THEN qualified ELSE ?::boolean END,
                        qualification_old_name = CASE WHEN ?::text IS NULL OR ?::text IS NOT DISTINCT FROM qualification_name
                            THEN qualification_old_name ELSE qualification_name END,
                        qualification_name = COALESCE(?, qualification_name), updated_at = ?
                    WHERE account_id = ? AND NOT deleted""" + (byExternal ? " AND external_id" : " AND id") + " = ANY(?) RETURNING id")) {
                ps.setString(1, p.get("name").asText());
                ps.setString(2, callTag(c, accountId, p.get("name").asText()));
                ps.setString(3, CommerceInput.text(p, "state"));
                ps.setObject(4, q);
                ps.setObject(5, q);
                ps.setString(6, qualification);
                ps.setString(7, qualification);
                ps.setString(8, qualification);
                ps.setTimestamp(9, Timestamp.from(w.acceptedAt()));
                ps.setString(10, accountId);
                ps.setArray(11, c.createArrayOf("text", keys.toArray()));
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        ids.add(rs.getString(1));
                    }
                }
            }
            if (ids.isEmpty()) {
                throw new WriteFailure(CALL_NOT_FOUND);
            }
            return JsonBody.mapper().valueToTree(views.calls(c, accountId, w.account().timeZone(), ids));
        }
    }

    @Singleton
    static class Delete implements WriteHandler {
        @Override
        public String eventType() {
            return "DELETE_CALL";
        }

        @Override
        public JsonNode apply(Connection c, Write w) throws SQLException {
            try (PreparedStatement ps = c.prepareStatement(
                    "UPDATE calls SET deleted = true, updated_at = ? WHERE account_id = ? AND id = ? AND NOT deleted RETURNING lead_id")) {
                ps.setTimestamp(1, Timestamp.from(w.acceptedAt()));
                ps.setString(2, w.account().id());
                ps.setString(3, w.payload().get("id").asText());
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        throw new WriteFailure(CALL_NOT_FOUND);
                    }
                    firstCalls(c, w.account().id(), List.of(rs.getString(1)));
                }
            }
            return null;
        }
    }

    /**
     * Flags each lead's first call (spec 2.16 {@code firstSale} of a CALL conversion): the live call with the earliest
     * date, ties by id, whatever order the calls were written in; every other call of the lead is not first. Run
     * after each write that adds, moves or deletes a call, so a call written later with an earlier date takes the flag.
     */
    static void firstCalls(Connection c, String accountId, List<String> leadIds) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE calls k SET first_call = (k.id = f.id)
                FROM (SELECT DISTINCT ON (lead_id) lead_id, id FROM calls WHERE account_id = ? AND lead_id = ANY(?) AND NOT deleted
                      ORDER BY lead_id, call_date, id) f
                WHERE k.account_id = ? AND k.lead_id = f.lead_id AND NOT k.deleted AND k.first_call <> (k.id = f.id)""")) {
            ps.setString(1, accountId);
            ps.setArray(2, c.createArrayOf("text", leadIds.toArray()));
            ps.setString(3, accountId);
            ps.executeUpdate();
        }
    }

    /**
     * A call's product tag (what {@code GET /calls?productTags=} matches): the tag of the account's call product of the
     * same name (case-insensitive), else the tag a product of that name would get.
     */
    static String callTag(Connection c, String accountId, String name) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT tag FROM products WHERE account_id = ? AND NOT deleted AND call_product AND lower(name) = lower(?)
                ORDER BY created_at, id LIMIT 1""")) {
            ps.setString(1, accountId);
            ps.setString(2, name);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : ProductCatalog.deriveTag(name);
            }
        }
    }
}
