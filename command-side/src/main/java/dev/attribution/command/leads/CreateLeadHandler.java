package dev.attribution.command.leads;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.command.requests.WriteHandler;
import dev.attribution.query.leads.LeadReader;
import io.micronaut.context.annotation.Value;
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
    private final LeadReader reader;
    private final String placeholderDomain;

    CreateLeadHandler(LeadStore store, LeadReader reader,
                      @Value("${attribution.placeholder-email-domain:phone.leads.invalid}") String placeholderDomain) {
        this.store = store;
        this.reader = reader;
        this.placeholderDomain = placeholderDomain;
    }

    @Override
    public String eventType() {
        return "CREATE_LEAD";
    }

    @Override
    public JsonNode apply(Connection c, Write write) throws SQLException {
        JsonNode p = write.payload();
        String accountId = write.account().id();
        List<String> phones = texts(p.get("phoneNumbers"));
        String email = p.hasNonNull("email") ? p.get("email").asText()
                : store.findByPhone(c, accountId, phones.get(0)).orElse(placeholder(phones.get(0)));
        Instant now = write.acceptedAt();
        LeadStore.Upsert upsert = store.upsertByEmail(c, accountId, email, text(p, "firstName"), text(p, "lastName"),
                text(p, "adOptimizationConsent"), now);
        store.replacePhones(c, accountId, upsert.id(), phones);
        store.addIps(c, accountId, upsert.id(), texts(p.get("leadIps")));
        Instant tagsDate = p.hasNonNull("tagsDate") ? Instant.parse(p.get("tagsDate").asText()) : now;
        store.addTags(c, accountId, upsert.id(), texts(p.get("tags")), tagsDate);
        if (p.hasNonNull("stage")) {
            store.setStage(c, accountId, upsert.id(), p.get("stage").asText(), now);
        }
        return reader.byIds(c, accountId, write.account().timeZone(), List.of(upsert.id())).stream()
                .findFirst().map(v -> (JsonNode) dev.attribution.api.JsonBody.mapper().valueToTree(v)).orElse(null);
    }

    private String placeholder(String phone) {
        return phone.replaceAll("[^0-9]", "") + "@" + placeholderDomain;
    }

    private static String text(JsonNode p, String field) {
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
