package dev.attribution.command.leads;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.attribution.api.ApiDates;
import dev.attribution.api.ApiException;
import dev.attribution.api.DatabaseReads;
import dev.attribution.api.FixedSet;
import dev.attribution.api.JsonBody;
import dev.attribution.api.NotifiedCache;
import dev.attribution.api.QueryParams;
import dev.attribution.api.auth.Caller;
import dev.attribution.command.blacklist.Blacklist;
import dev.attribution.command.requests.WriteRequestLog;
import io.micronaut.data.jdbc.runtime.JdbcOperations;
import io.micronaut.transaction.TransactionOperations;
import io.micronaut.transaction.annotation.Transactional;
import jakarta.inject.Singleton;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;

/**
 * Validation of lead writes (spec 4.1) and their hand-over to the request log. Everything that can be judged from
 * the request alone is judged here, synchronously, so a request that gets a {@code request_id} is well-formed.
 * {@code create}, {@code update} and {@code addTags} may run on the event loop ({@code WriteAcceptance}): they read the
 * database only after {@link DatabaseReads#beforeRead()} and have no effect before {@code WriteRequestLog.submit}.
 */
@Singleton
public class LeadWrites {

    public static final List<String> CONSENT = java.util.Arrays.stream(LeadCreateBody.Consent.values()).map(Enum::name).toList();
    static final int MAX_BULK = 50;
    private static final Pattern EMAIL = Pattern.compile("^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$");

    static final String LEAD_NOT_FOUND = "Lead not found.";
    static final String EMPTY_STAGE_NAME = "The lead stage name cannot be empty";
    static final String PUT_SELECTOR_REQUIRED = "Either 'email', 'id' or 'phone' must be provided.";
    static final String DELETE_SELECTOR_REQUIRED = "Either 'email' or 'id' must be provided.";
    static final String TAGS_SELECTOR_REQUIRED = "Either 'ids' or 'emails' must be provided.";
    static final String MISSING_TAGS = "Missing required field: tags";

    private final WriteRequestLog log;
    private final Blacklist blacklist;
    private final JdbcOperations jdbc;
    private final TransactionOperations<Connection> tx;

    public LeadWrites(WriteRequestLog log, Blacklist blacklist, JdbcOperations jdbc, TransactionOperations<Connection> tx) {
        this.log = log;
        this.blacklist = blacklist;
        this.jdbc = jdbc;
        this.tx = tx;
    }

    /** {@code POST /leads}: create or update by email (or phone); the request id once the write is durable. */
    public CompletableFuture<String> create(Caller caller, JsonBody body) {
        Optional<String> email = body.nonBlankString("email");
        List<String> phones = body.stringOrList("phoneNumbers").orElse(List.of());
        if (email.isEmpty() && phones.isEmpty()) {
            throw ApiException.badRequest("Either email or phoneNumbers must be provided");
        }
        email.ifPresent(LeadWrites::checkEmail);
        ObjectNode payload = JsonBody.mapper().createObjectNode();
        email.ifPresent(e -> payload.put("email", e));
        payload.set("phoneNumbers", strings(phones));
        copyNames(body, payload);
        payload.set("tags", strings(body.stringOrList("tags").orElse(List.of())));
        body.nonBlankString("tagsDate").ifPresent(d -> payload.put("tagsDate", tagsDate(d).toString()));
        payload.set("leadIps", strings(dev.attribution.api.IpAddresses.checked("leadIps", body.stringList("leadIps").orElse(List.of()))));
        body.nonBlankString("stage").ifPresent(v -> payload.put("stage", v));
        consent(body).ifPresent(c -> payload.put("adOptimizationConsent", c));
        blacklist.check(caller.accountId(), email.orElse(null), phones);
        String laneKey = email.orElseGet(() -> phones.get(0));
        return log.submit(caller.accountId(), "CREATE_LEAD", laneKey, payload);
    }

    /** {@code PUT /leads}: the lead selected by {@code id}, {@code email} or {@code phone} (query), changed as the body says. */
    public CompletableFuture<String> update(Caller caller, QueryParams query, JsonBody body) {
        Optional<String> id = query.string("id");
        Optional<String> byEmail = query.string("email");
        Optional<String> byPhone = query.string("phone");
        if (id.isEmpty() && byEmail.isEmpty() && byPhone.isEmpty()) {
            throw ApiException.badRequest(PUT_SELECTOR_REQUIRED);
        }
        ObjectNode payload = JsonBody.mapper().createObjectNode();
        id.ifPresent(v -> payload.put("selectId", v));
        byEmail.ifPresent(v -> payload.put("selectEmail", v));
        byPhone.ifPresent(v -> payload.put("selectPhone", v));

        Optional<String> email = body.nonBlankString("email");
        email.ifPresent(LeadWrites::checkEmail);
        email.ifPresent(v -> payload.put("email", v));
        copyNames(body, payload);
        payload.set("tags", strings(body.stringOrList("tags").orElse(List.of())));
        body.nonBlankString("tagsDate").ifPresent(d -> payload.put("tagsDate", tagsDate(d).toString()));
        payload.set("removeTags", strings(body.stringOrList("removeTags").orElse(List.of())));
        payload.set("leadIps", strings(dev.attribution.api.IpAddresses.checked("leadIps", body.stringList("leadIps").orElse(List.of()))));
        List<String> phones = body.stringOrList("phoneNumbers").orElse(List.of());
        payload.set("phoneNumbers", strings(phones));
        consent(body).ifPresent(c -> payload.put("adOptimizationConsent", c));

        Optional<JsonBody> leadStage = body.object("leadStage");
        String stageName = null;
        if (leadStage.isPresent()) {
            stageName = leadStage.get().string("name").map(String::trim).orElse("");
            if (stageName.isEmpty()) {
                throw ApiException.badRequest(EMPTY_STAGE_NAME);
            }
            ObjectNode stage = payload.putObject("leadStage").put("name", stageName);
            Optional<String> date = leadStage.get().nonBlankString("date");
            if (leadStage.get().has("date") && !leadStage.get().node().get("date").isNull() && date.isEmpty()) {
                throw ApiException.badRequest(ApiDates.INVALID_DATE_FORMAT);
            }
            date.ifPresent(d -> stage.put("date", ApiDates.parseStrictWrite(d).toString()));
        }
        List<String> removeStages = body.stringOrList("removeLeadStages").orElse(List.of());
        if (stageName != null) {
            String applied = stageName;
            if (removeStages.stream().anyMatch(applied::equalsIgnoreCase)) {
                throw ApiException.badRequest("The same lead stage cannot be applied and removed in one request: " + applied);
            }
        }
        if (!removeStages.isEmpty()) {
            List<String> unknown = unknownStages(caller.accountId(), removeStages);
            if (!unknown.isEmpty()) {
                throw ApiException.badRequest("Invalid removeLeadStages: unknown lead stage '" + unknown.get(0)
                        + "'. No change was applied");
            }
        }
        payload.set("removeLeadStages", strings(removeStages));

        List<String> checkedPhones = new ArrayList<>(phones);
        byPhone.ifPresent(checkedPhones::add);
        blacklist.check(caller.accountId(), email.orElse(null), checkedPhones);
        byEmail.ifPresent(e -> blacklist.checkEmail(caller.accountId(), e));
        String laneKey = byEmail.or(() -> id).orElseGet(byPhone::get);
        return log.submit(caller.accountId(), "UPDATE_LEAD", laneKey, payload);
    }

    /**
     * {@code DELETE /leads}: the erasure applies at once (spec 4.1): the lead's email and phones are blacklisted in
     * the transaction that accepts the request, so a write sent right after is already refused; the worker then
     * redacts and deletes. Once that transaction committed, this node's cached blacklists are dropped (other nodes
     * hear of it through the blacklist's trigger), so the next write here is checked against the new entries.
     */
    public String delete(Caller caller, QueryParams query) {
        Optional<String> id = query.string("id");
        Optional<String> email = query.string("email");
        if (id.isEmpty() && email.isEmpty()) {
            throw ApiException.badRequest(DELETE_SELECTOR_REQUIRED);
        }
        ObjectNode payload = JsonBody.mapper().createObjectNode();
        id.ifPresent(v -> payload.put("selectId", v));
        email.ifPresent(v -> payload.put("selectEmail", v));
        String requestId = tx.executeWrite(status -> erase(caller, id, email, payload));
        NotifiedCache.invalidateAll();
        return requestId;
    }

    private String erase(Caller caller, Optional<String> id, Optional<String> email, ObjectNode payload) {
        jdbc.execute((Connection c) -> {
            Optional<LeadStore.Current> lead = Optional.empty();
            if (id.isPresent()) {
                lead = lookup(c, "SELECT id, email FROM leads WHERE account_id = ? AND id = ? AND NOT erased", caller.accountId(), id.get());
            }
            if (lead.isEmpty() && email.isPresent()) {
                lead = lookup(c, "SELECT id, email FROM leads WHERE account_id = ? AND lower(email) = lower(?) AND NOT erased",
                        caller.accountId(), email.get());
            }
            if (lead.isPresent()) {
                List<String> phones = new ArrayList<>();
                try (PreparedStatement ps = c.prepareStatement("SELECT phone FROM lead_phones WHERE account_id = ? AND lead_id = ?")) {
                    ps.setString(1, caller.accountId());
                    ps.setString(2, lead.get().id());
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            phones.add(rs.getString(1));
                        }
                    }
                }
                Blacklist.add(c, caller.accountId(), lead.get().email(), phones);
                payload.put("leadId", lead.get().id());
            }
            return null;
        });
        return log.accept(caller.accountId(), "DELETE_LEAD", email.or(() -> id).get(), payload);
    }

    private static Optional<LeadStore.Current> lookup(Connection c, String sql, String accountId, String value) throws java.sql.SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, accountId);
            ps.setString(2, value);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(new LeadStore.Current(rs.getString(1), rs.getString(2), null, null)) : Optional.empty();
            }
        }
    }

    /** {@code POST /leads/tags}: every message of spec 7.3. */
    public CompletableFuture<String> addTags(Caller caller, JsonBody body) {
        List<String> ids = bulkList(body, "ids");
        List<String> emails = bulkList(body, "emails");
        List<String> tags = bulkList(body, "tags");
        if (ids.isEmpty() && emails.isEmpty()) {
            throw ApiException.badRequest(TAGS_SELECTOR_REQUIRED);
        }
        if (tags.isEmpty()) {
            throw ApiException.badRequest(MISSING_TAGS);
        }
        for (var entry : List.of(List.of("ids", ids.size()), List.of("emails", emails.size()), List.of("tags", tags.size()))) {
            if ((int) entry.get(1) > MAX_BULK) {
                throw ApiException.badRequest("The maximum number of " + entry.get(0) + " to be provided for update is " + MAX_BULK);
            }
        }
        ObjectNode payload = JsonBody.mapper().createObjectNode();
        payload.set("ids", strings(ids));
        payload.set("emails", strings(emails));
        payload.set("tags", strings(tags));
        body.nonBlankString("tagsDate").ifPresent(d -> payload.put("tagsDate", tagsDate(d).toString()));
        return log.submit(caller.accountId(), "ADD_TAGS_TO_LEADS", "bulk-tags", payload);
    }

    /** A string or array of strings of {@code POST /leads/tags}; blank string = no value; other shapes 400. */
    private static List<String> bulkList(JsonBody body, String field) {
        JsonNode v = body.node().get(field);
        if (v == null || v.isNull()) {
            return List.of();
        }
        if (v.isTextual()) {
            String s = v.asText().trim();
            return s.isEmpty() ? List.of() : List.of(s);
        }
        if (!v.isArray()) {
            throw ApiException.badRequest(field + " must be an array of strings");
        }
        List<String> out = new ArrayList<>();
        for (JsonNode item : v) {
            if (!item.isTextual()) {
                throw ApiException.badRequest(field + " must be an array of strings");
            }
            if (!item.asText().isBlank()) {
                out.add(item.asText().trim());
            }
        }
        return out;
    }

    @Transactional(readOnly = true)
    List<String> unknownStages(String accountId, List<String> names) {
        DatabaseReads.beforeRead();
        return jdbc.execute((Connection c) -> LeadStore.unknownStages(c, accountId, names));
    }

    /** {@code adOptimizationConsent}: blank reads as UNSPECIFIED, another value outside the set is 400 (3.2, 7.2.2). */
    private static Optional<String> consent(JsonBody body) {
        if (!body.present("adOptimizationConsent")) {
            return Optional.empty();
        }
        String consent = body.string("adOptimizationConsent").orElse("");
        return Optional.of(consent.isBlank() ? "UNSPECIFIED" : FixedSet.require("adOptimizationConsent", consent, CONSENT));
    }

    /** {@code tagsDate}: strict seconds form (2.2.5) and not in the future. */
    static Instant tagsDate(String text) {
        Instant date = ApiDates.parseStrictWrite(text);
        if (date.isAfter(Instant.now())) {
            throw ApiException.badRequest("The tags date cannot be in the future.");
        }
        return date;
    }

    /**
     * The lead's {@code firstName} and {@code lastName} of a write (leads, orders, calls, carts, subscriptions), into
     * {@code payload}: a blank name is no value, so the stored name is kept. Clients send {@code ""} for an optional
     * field left empty (docs/clients.md); a lead's name is never cleared by a write.
     */
    public static void copyNames(JsonBody body, ObjectNode payload) {
        body.nonBlankString("firstName").ifPresent(v -> payload.put("firstName", v));
        body.nonBlankString("lastName").ifPresent(v -> payload.put("lastName", v));
    }

    /** The email rule every write shares: {@code Invalid email: <value>}. */
    public static void validateEmail(String email) {
        checkEmail(email);
    }

    static void checkEmail(String email) {
        if (!EMAIL.matcher(email).matches() || email.length() > 320) {
            throw ApiException.badRequest("Invalid email: " + email);
        }
    }

    static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }

    private static ArrayNode strings(List<String> values) {
        ArrayNode array = JsonBody.mapper().createArrayNode();
        values.forEach(array::add);
        return array;
    }
}
