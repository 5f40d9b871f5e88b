package dev.attribution.command.leads;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.auth.Account;
import dev.attribution.command.requests.WriteHandler;
import jakarta.inject.Singleton;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Applies CREATE_LEAD: creates the lead or updates the one with that email (spec 4.1, 3.2). */
@Singleton
class CreateLeadHandler implements WriteHandler {

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
