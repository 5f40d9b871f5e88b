package dev.attribution.command.leads;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.auth.Account;
import dev.attribution.command.requests.GroupWriteHandler;
import jakarta.inject.Singleton;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Applies CREATE_LEAD: creates the lead or updates the one with that email (spec 4.1, 3.2). Group apply (issue 23
 * point 3): creates that name an email and carry no IPs, tags, stage or GRANTED consent (no events, no listeners) are
 * applied many at once: one upsert, the phones in two statements, one render per account.
 */
@Singleton
class CreateLeadHandler implements GroupWriteHandler {

    private final LeadStore store;
    private final String placeholderDomain;

    CreateLeadHandler(LeadStore store, LeadSettings settings) {
        this.store = store;
        this.placeholderDomain = settings.getPlaceholderEmailDomain();
    }

    @Override
    public String eventType() {
        return "CREATE_LEAD";
    }

    @Override
    public JsonNode apply(Connection c, Write write) throws SQLException {
        JsonNode p = write.payload();
        Account account = write.account();
        List<String> phones = texts(p.get("phoneNumbers"));
        String email = p.hasNonNull("email") ? p.get("email").asText()
                : store.findByPhone(c, account.id(), phones.get(0)).orElse(placeholder(phones.get(0), placeholderDomain));
        Instant now = write.acceptedAt();
        LeadStore.Upsert upsert = store.upsertWithEvents(c, account, email, text(p, "firstName"), text(p, "lastName"),
                text(p, "adOptimizationConsent"), now);
        if (upsert.created()) {
            store.addPhones(c, account.id(), upsert.id(), phones); // a new lead holds no numbers to replace
        } else {
            store.replacePhones(c, account.id(), upsert.id(), phones);
        }
        store.addIpsAndConnectClicks(c, account, upsert.id(), texts(p.get("leadIps")), now);
        Instant tagsDate = p.hasNonNull("tagsDate") ? Instant.parse(p.get("tagsDate").asText()) : now;
        LeadStore.TagsAdded added = store.addTagsRendered(c, account, upsert.id(), texts(p.get("tags")), tagsDate);
        if (p.hasNonNull("stage")) {
            store.applyStage(c, account, upsert.id(), p.get("stage").asText(), now);
            return store.render(c, account, upsert.id());
        }
        // the last tag event rendered the lead after every change of this write: the result is that render
        return added.lead().orElseGet(() -> store.render(c, account, upsert.id()));
    }

    @Override
    public boolean groupable(Write write) {
        JsonNode p = write.payload();
        return p.hasNonNull("email") && ascii(p.get("email").asText()) && texts(p.get("leadIps")).isEmpty()
                && texts(p.get("tags")).isEmpty() && !p.hasNonNull("stage") && !"GRANTED".equals(text(p, "adOptimizationConsent"));
    }

    /**
     * {@link #apply} of each write: the same upsert, phones replaced, and the result rendered after the group (no
     * other write of the group concerns the same lead). Only {@link #groupable} writes.
     */
    @Override
    public List<JsonNode> applyGroup(Connection c, List<Write> writes) throws SQLException {
        List<LeadUpserts.Row> rows = new ArrayList<>(writes.size());
        for (Write w : writes) {
            JsonNode p = w.payload();
            rows.add(new LeadUpserts.Row(w.account().id(), p.get("email").asText(), text(p, "firstName"), text(p, "lastName"),
                    text(p, "adOptimizationConsent"), w.acceptedAt()));
        }
        if (rows.stream().map(LeadUpserts.Row::identity).distinct().count() < rows.size()) {
            throw new IllegalStateException("a group of lead creates names one lead twice");
        }
        List<LeadStore.Upsert> upserts = store.upsertMany(c, rows);
        LeadPhones.replaceMany(c, rows.stream().map(LeadUpserts.Row::accountId).toList(), upserts,
                writes.stream().map(w -> texts(w.payload().get("phoneNumbers"))).toList());
        Map<String, JsonNode> rendered = new HashMap<>();
        Map<String, List<Integer>> byAccount = new LinkedHashMap<>();
        for (int i = 0; i < writes.size(); i++) {
            byAccount.computeIfAbsent(writes.get(i).account().id(), a -> new ArrayList<>()).add(i);
        }
        for (List<Integer> members : byAccount.values()) {
            Account account = writes.get(members.get(0)).account();
            rendered.putAll(store.renderAll(c, account, members.stream().map(i -> upserts.get(i).id()).toList()));
        }
        return upserts.stream().map(u -> rendered.get(u.id())).toList();
    }

    private static boolean ascii(String s) {
        return s.chars().allMatch(ch -> ch < 128);
    }

    /** The generated email of a phone-only lead, on the service's own domain (spec 4.1). */
    static String placeholder(String phone, String domain) {
        return phone.replaceAll("[^0-9]", "") + "@" + domain;
    }

    static String text(JsonNode p, String field) {
        return p.hasNonNull(field) ? p.get(field).asText() : null;
    }

    static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        if (array != null) {
            array.forEach(n -> out.add(n.asText()));
        }
        return out;
    }
}
