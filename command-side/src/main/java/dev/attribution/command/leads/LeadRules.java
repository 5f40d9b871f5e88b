package dev.attribution.command.leads;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.ApiDates;
import dev.attribution.api.ApiException;
import dev.attribution.api.CommandJson;
import dev.attribution.api.FixedSet;
import dev.attribution.api.IpAddresses;
import dev.attribution.api.JsonBody;
import dev.attribution.api.QueryParams;
import dev.attribution.api.StringOrList;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The rules of lead writes (spec 4.1, 7.3), each message written once; what passes is the command as stored. What
 * needs the database (the stages {@code removeLeadStages} names, the lead an erasure names) is asked of the tables'
 * owners by the controller once these rules passed.
 */
public final class LeadRules {

    public static final List<String> CONSENT = Arrays.stream(CreateLead.Consent.values()).map(Enum::name).toList();
    static final int MAX_BULK = 50;
    private static final Pattern EMAIL = Pattern.compile("^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$");

    static final String EMAIL_OR_PHONE = "Either email or phoneNumbers must be provided";
    static final String LEAD_NOT_FOUND = "Lead not found.";
    static final String EMPTY_STAGE_NAME = "The lead stage name cannot be empty";
    static final String PUT_SELECTOR_REQUIRED = "Either 'email', 'id' or 'phone' must be provided.";
    static final String DELETE_SELECTOR_REQUIRED = "Either 'email' or 'id' must be provided.";
    static final String TAGS_SELECTOR_REQUIRED = "Either 'ids' or 'emails' must be provided.";
    static final String MISSING_TAGS = "Missing required field: tags";
    static final String FUTURE_TAGS_DATE = "The tags date cannot be in the future.";

    private LeadRules() {
    }

    /** {@code POST /leads}: email or phone numbers; email, IPs and {@code tagsDate} checked. */
    static CreateLead create(CreateLead body) {
        String email = nonBlank(body.email());
        List<String> phones = body.phones();
        if (email == null && phones.isEmpty()) {
            throw ApiException.badRequest(EMAIL_OR_PHONE);
        }
        if (email != null) {
            checkEmail(email);
        }
        return new CreateLead(email, new StringOrList(phones), nonBlank(body.firstName()), nonBlank(body.lastName()),
                new StringOrList(body.tagList()), tagsDate(body.tagsDate()), IpAddresses.checked("leadIps", body.ips()),
                nonBlank(body.stage()), body.adOptimizationConsent());
    }

    /**
     * {@code PUT /leads}: the query names the lead ({@code id}, {@code email} or {@code phone}); then the body, read as
     * {@link LeadUpdateBody}, is checked. The stages to remove must also be known to the account ({@link LeadStages}).
     */
    static UpdateLead update(QueryParams query, JsonBody raw) {
        Optional<String> id = query.string("id");
        Optional<String> byEmail = query.string("email");
        Optional<String> byPhone = query.string("phone");
        if (id.isEmpty() && byEmail.isEmpty() && byPhone.isEmpty()) {
            throw ApiException.badRequest(PUT_SELECTOR_REQUIRED);
        }
        LeadUpdateBody body = CommandJson.read(raw.node(), LeadUpdateBody.class);
        String email = nonBlank(body.email());
        if (email != null) {
            checkEmail(email);
        }
        String tagsDate = tagsDate(body.tagsDate());
        List<String> ips = IpAddresses.checked("leadIps", body.leadIps() == null ? List.of() : body.leadIps());
        UpdateLead.Stage stage = null;
        if (body.leadStage() != null) {
            String name = body.leadStage().name() == null ? "" : body.leadStage().name().trim();
            if (name.isEmpty()) {
                throw ApiException.badRequest(EMPTY_STAGE_NAME);
            }
            String date = body.leadStage().date();
            if (date != null && date.isBlank()) {
                throw ApiException.badRequest(ApiDates.INVALID_DATE_FORMAT);
            }
            stage = new UpdateLead.Stage(name, date == null ? null : ApiDates.parseStrictWrite(date.trim()).toString());
        }
        List<String> removeStages = values(body.removeLeadStages());
        if (stage != null && removeStages.stream().anyMatch(stage.name()::equalsIgnoreCase)) {
            throw ApiException.badRequest("The same lead stage cannot be applied and removed in one request: " + stage.name());
        }
        return new UpdateLead(id.orElse(null), byEmail.orElse(null), byPhone.orElse(null), email, nonBlank(body.firstName()),
                nonBlank(body.lastName()), values(body.tags()), tagsDate, values(body.removeTags()), ips,
                values(body.phoneNumbers()), body.adOptimizationConsent(), stage, removeStages);
    }

    /** The message of a {@code removeLeadStages} naming a stage the account does not know. */
    static String unknownStage(String name) {
        return "Invalid removeLeadStages: unknown lead stage '" + name + "'. No change was applied";
    }

    /** {@code DELETE /leads}: {@code id} or {@code email}; the lead itself is looked up when accepted. */
    static DeleteLead delete(QueryParams query) {
        Optional<String> id = query.string("id");
        Optional<String> email = query.string("email");
        if (id.isEmpty() && email.isEmpty()) {
            throw ApiException.badRequest(DELETE_SELECTOR_REQUIRED);
        }
        return new DeleteLead(id.orElse(null), email.orElse(null), null);
    }

    /** {@code POST /leads/tags}: every message of spec 7.3. */
    static TagLeads tag(TagLeads body) {
        List<String> ids = body.idList();
        List<String> emails = body.emailList();
        List<String> tags = body.tagList();
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
        return new TagLeads(new StringOrList(ids), new StringOrList(emails), new StringOrList(tags), tagsDate(body.tagsDate()));
    }

    /** The ordering key of a lead create: the email, else the first phone number. */
    static String lane(CreateLead create) {
        return create.email() != null ? create.email() : create.phones().get(0);
    }

    /** The ordering key of a lead update: the selecting email, else the id, else the phone. */
    static String lane(UpdateLead update) {
        return update.selectEmail() != null ? update.selectEmail()
                : update.selectId() != null ? update.selectId() : update.selectPhone();
    }

    static String lane(DeleteLead delete) {
        return delete.selectEmail() != null ? delete.selectEmail() : delete.selectId();
    }

    /** {@code tagsDate}: strict seconds form (2.2.5) and not in the future; blank is none. As stored: an ISO instant. */
    static String tagsDate(String text) {
        String t = nonBlank(text);
        if (t == null) {
            return null;
        }
        Instant date = ApiDates.parseStrictWrite(t);
        if (date.isAfter(Instant.now())) {
            throw ApiException.badRequest(FUTURE_TAGS_DATE);
        }
        return date.toString();
    }

    /** The email rule every write shares: {@code Invalid email: <value>}. */
    public static void checkEmail(String email) {
        if (!EMAIL.matcher(email).matches() || email.length() > 320) {
            throw ApiException.badRequest("Invalid email: " + email);
        }
    }

    /** Trimmed, or null when blank or absent ({@link JsonBody#nonBlankString}). */
    static String nonBlank(String s) {
        if (s == null) {
            return null;
        }
        String t = s.trim();
        return t.isEmpty() ? null : t;
    }

    static List<String> values(StringOrList list) {
        return list == null || list.values() == null ? List.of() : list.values();
    }

    /** The name of the field whose value the parser is on. */
    private static String field(JsonParser p) {
        com.fasterxml.jackson.core.JsonStreamContext c = p.getParsingContext();
        while (c != null && c.getCurrentName() == null) {
            c = c.getParent();
        }
        return c == null ? "body" : c.getCurrentName();
    }

    /** {@code adOptimizationConsent}: a string; blank reads as UNSPECIFIED, another value outside the set is 400 (3.2, 7.2.2). */
    static final class ConsentJson extends JsonDeserializer<CreateLead.Consent> {
        @Override
        public CreateLead.Consent deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            if (!p.hasToken(JsonToken.VALUE_STRING)) {
                throw ApiException.badRequest(field(p) + " must be a string");
            }
            String value = p.getText();
            return CreateLead.Consent.valueOf(value.isBlank() ? "UNSPECIFIED" : FixedSet.require(field(p), value, CONSENT));
        }
    }

    /** {@code leadStage}: an object ({@code leadStage must be an object}) of string {@code name} and {@code date}. */
    static final class StageJson extends JsonDeserializer<LeadUpdateBody.Stage> {
        @Override
        public LeadUpdateBody.Stage deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            String field = field(p);
            JsonNode node = ctxt.readTree(p);
            if (node == null || !node.isObject()) {
                throw ApiException.badRequest(field + " must be an object");
            }
            return new LeadUpdateBody.Stage(text(node, "name"), text(node, "date"));
        }

        private static String text(JsonNode node, String field) {
            JsonNode v = node.get(field);
            if (v == null || v.isNull()) {
                return null;
            }
            if (!v.isTextual()) {
                throw ApiException.badRequest(field + " must be a string");
            }
            return v.asText();
        }
    }

    /**
     * A list of {@code POST /leads/tags}: a string (blank: none) or an array of strings, blank items dropped; any
     * other shape {@code <field> must be an array of strings}.
     */
    static final class BulkListJson extends JsonDeserializer<StringOrList> {
        @Override
        public StringOrList deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            String field = field(p);
            if (p.hasToken(JsonToken.VALUE_STRING)) {
                String s = p.getText().trim();
                return new StringOrList(s.isEmpty() ? List.of() : List.of(s));
            }
            if (!p.isExpectedStartArrayToken()) {
                throw ApiException.badRequest(field + " must be an array of strings");
            }
            List<String> out = new ArrayList<>();
            for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
                if (t != JsonToken.VALUE_STRING) {
                    throw ApiException.badRequest(field + " must be an array of strings");
                }
                if (!p.getText().isBlank()) {
                    out.add(p.getText().trim());
                }
            }
            return new StringOrList(out);
        }
    }
}
