package dev.attribution.command.leads;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.attribution.api.JsonBody;
import dev.attribution.api.auth.Account;
import dev.attribution.command.requests.WriteHandler;
import jakarta.inject.Singleton;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import static dev.attribution.command.leads.CreateLeadHandler.texts;

/**
 * Applies {@code POST /leads/tags} (spec 4.1, 3.2): the union of {@code ids} and {@code emails} in the account gets
 * every tag; action tags already held are re-dated to {@code tagsDate}, sale and source tags already held are left
 * alone. No lead matched: FAILED {@code Lead not found.} The result is the array of tagged leads.
 */
@Singleton
class TagLeadsHandler implements WriteHandler {

    private final LeadStore store;

    TagLeadsHandler(LeadStore store) {
        this.store = store;
    }

    @Override
    public String eventType() {
        return "ADD_TAGS_TO_LEADS";
    }

    @Override
    public JsonNode apply(Connection c, Write write) throws SQLException {
        JsonNode p = write.payload();
        Account account = write.account();
        Set<String> leadIds = matching(c, account.id(), texts(p.get("ids")), texts(p.get("emails")));
        if (leadIds.isEmpty()) {
            throw new WriteFailure(LeadWrites.LEAD_NOT_FOUND);
        }
        List<String> tags = texts(p.get("tags"));
        List<String> actionTags = tags.stream().filter(TagLeadsHandler::isActionTag).toList();
        Instant date = p.hasNonNull("tagsDate") ? Instant.parse(p.get("tagsDate").asText()) : write.acceptedAt();
        ArrayNode result = JsonBody.mapper().createArrayNode();
        for (String leadId : leadIds) {
            List<String> added = store.addTagsReturningNew(c, account, leadId, tags, date);
            store.redateTags(c, account.id(), leadId, actionTags.stream().filter(t -> !added.contains(t)).toList(), date);
            store.touch(c, account.id(), leadId, write.acceptedAt());
            JsonNode lead = store.render(c, account, leadId);
            if (lead != null) {
                result.add(lead);
            }
        }
        return result;
    }

    /** An action tag: {@code !} prefix or no prefix at all (spec 2.4, 4.1). */
    static boolean isActionTag(String tag) {
        return tag.startsWith("!") || !(tag.startsWith("@") || tag.startsWith("$") || tag.startsWith("#"));
    }

    private static Set<String> matching(Connection c, String accountId, List<String> ids, List<String> emails) throws SQLException {
        Set<String> out = new LinkedHashSet<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT id FROM leads WHERE account_id = ? AND NOT erased AND (id = ANY(?) OR lower(email) = ANY(?))
                ORDER BY created_at, id""")) {
            ps.setString(1, accountId);
            ps.setArray(2, c.createArrayOf("text", ids.toArray()));
            ps.setArray(3, c.createArrayOf("text", emails.stream().map(e -> e.toLowerCase(Locale.ROOT)).toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
        }
        return out;
    }
}
