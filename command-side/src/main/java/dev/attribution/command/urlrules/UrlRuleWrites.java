package dev.attribution.command.urlrules;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.ApiException;
import dev.attribution.api.FixedSet;
import dev.attribution.api.JsonBody;
import dev.attribution.api.auth.Caller;
import io.micronaut.transaction.annotation.Transactional;
import jakarta.inject.Singleton;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static dev.attribution.command.urlrules.UrlRuleMessages.*;

/**
 * The synchronous URL rule writes of spec 4.9: validation (every message in {@link UrlRuleMessages}), the
 * flavour changes of spec 3.2 and the dynamic/manual category exclusivity, applied in one transaction.
 */
@Singleton
public class UrlRuleWrites {

    static final Set<String> FIELDS = JsonBody.fieldsOf(UrlRuleBody.class);
    static final List<String> SOURCE_RULE_TYPES = java.util.Arrays.stream(UrlRuleBody.SourceRuleType.values()).map(Enum::name).toList();

    private final UrlRuleStore store;

    public UrlRuleWrites(UrlRuleStore store) {
        this.store = store;
    }

    /** {@code POST /url-rules}: returns the new rule's {@code ur-} id. */
    @Transactional
    public String create(Caller caller, JsonBody body) {
        body.rejectUnknown(FIELDS);
        for (String required : List.of("name", "tag", "wordsToMatch", "sourceRuleTypes")) {
            if (!body.present(required)) {
                throw ApiException.badRequest(missing(required));
            }
        }
        UrlRuleDraft empty = new UrlRuleDraft(null, null, List.of(), List.of(), List.of(), false, false, List.of(),
                List.of(), null, null, List.of(), true, false);
        UrlRuleDraft draft = apply(empty, body);
        String accountId = caller.accountId();
        if (store.duplicate(accountId, null, draft)) {
            throw ApiException.badRequest(DUPLICATE);
        }
        return store.insert(accountId, draft);
    }

    /** {@code PUT /url-rules/{id}}: sent fields replace, omitted fields keep. */
    @Transactional
    public void update(Caller caller, String externalId, JsonBody body) {
        body.rejectUnknown(FIELDS);
        String accountId = caller.accountId();
        UrlRuleDraft stored = store.load(accountId, externalId).orElseThrow(() -> ApiException.badRequest(NOT_FOUND));
        UrlRuleDraft draft = apply(stored, body);
        if (store.duplicate(accountId, externalId, draft)) {
            throw ApiException.badRequest(DUPLICATE);
        }
        store.update(accountId, externalId, draft);
    }

    /** {@code DELETE /url-rules/{id}}. */
    @Transactional
    public void delete(Caller caller, String externalId) {
        if (!store.delete(caller.accountId(), externalId)) {
            throw ApiException.badRequest(NOT_FOUND);
        }
    }

    /** The stored (or default) rule with the body's fields applied and the whole result validated. */
    static UrlRuleDraft apply(UrlRuleDraft base, JsonBody body) {
        String name = base.name();
        if (body.has("name")) {
            name = body.nonBlankString("name").orElseThrow(() -> ApiException.badRequest(missing("name")));
            if (name.length() > 255) {
                throw ApiException.badRequest(NAME_TOO_LONG);
            }
        }
        String tag = base.tag();
        if (body.has("tag")) {
            tag = body.nonBlankString("tag").orElseThrow(() -> ApiException.badRequest(missing("tag")));
        }
        List<String> words = base.wordsToMatch();
        if (body.has("wordsToMatch")) {
            words = noCommas("wordsToMatch", stringArray(body, "wordsToMatch"));
            if (words.isEmpty()) {
                throw ApiException.badRequest(WORDS_EMPTY);
            }
        }
        List<String> notWords = body.has("wordsNotToMatch")
                ? noCommas("wordsNotToMatch", stringArray(body, "wordsNotToMatch")) : base.wordsNotToMatch();
        List<String> ruleTypes = base.sourceRuleTypes();
        if (body.has("sourceRuleTypes")) {
            ruleTypes = new ArrayList<>();
            for (String t : stringArray(body, "sourceRuleTypes")) {
                String v = FixedSet.require("sourceRuleTypes", t, SOURCE_RULE_TYPES);
                if (!ruleTypes.contains(v)) {
                    ruleTypes.add(v);
                }
            }
            if (ruleTypes.isEmpty()) {
                throw ApiException.badRequest(SOURCE_RULE_TYPES_EMPTY);
            }
        }
        boolean applyBaseDomain = body.bool("applyBaseDomain").orElse(body.has("applyBaseDomain") ? false : base.applyBaseDomain());
        boolean disregard = body.bool("disregardSource").orElse(body.has("disregardSource") ? false : base.disregardSource());
        boolean enabled = body.bool("isEnabled").orElse(body.has("isEnabled") ? true : base.isEnabled());
        boolean leadStage = body.bool("createLeadStage").orElse(body.has("createLeadStage") ? false : base.leadStage());

        Pair traffic = category(body, "trafficSourceToMatch", "trafficSourceCategory", TRAFFIC_SOURCE_BOTH,
                new Pair(base.trafficSourceToMatch(), base.trafficSourceCategory()));
        Pair source = category(body, "sourceCategoryToMatch", "sourceCategory", SOURCE_CATEGORY_BOTH,
                new Pair(base.sourceCategoryToMatch(), base.sourceCategory()));
        List<UrlRuleEngine.Score> scores = body.has("scores") ? scores(body.node().get("scores")) : base.scores();

        checkTag(tag, leadStage);
        return new UrlRuleDraft(name, tag, words, notWords, ruleTypes, applyBaseDomain, disregard, traffic.dynamic(),
                source.dynamic(), traffic.manual(), source.manual(), scores, enabled, leadStage);
    }

    /** Prefix rules of 4.9, judged against the rule's flavour. */
    static void checkTag(String tag, boolean leadStage) {
        boolean prefixed = "!@$#".indexOf(tag.charAt(0)) >= 0;
        if (leadStage && prefixed) {
            throw ApiException.badRequest(TAG_STAGE);
        }
        if (!leadStage && (!prefixed || tag.length() < 2 || tag.substring(1).isBlank())) {
            throw ApiException.badRequest(TAG_PREFIX);
        }
    }

    /** A dynamic parameter list (at most one value) and a manual category name, mutually exclusive. */
    private record Pair(List<String> dynamic, String manual) {
    }

    private static Pair category(JsonBody body, String dynamicField, String manualField, String bothMessage, Pair stored) {
        boolean sentDynamic = body.has(dynamicField);
        boolean sentManual = body.has(manualField);
        List<String> dynamic = stored.dynamic();
        String manual = stored.manual();
        if (sentDynamic) {
            dynamic = noCommas(dynamicField, stringArray(body, dynamicField));
            if (dynamic.size() > 1) {
                throw ApiException.badRequest(atMostOne(dynamicField));
            }
            if (dynamic.stream().anyMatch(v -> v.length() > 255)) {
                throw ApiException.badRequest(tooLong(dynamicField));
            }
        }
        if (sentManual) {
            manual = body.string(manualField).map(String::trim).filter(s -> !s.isEmpty()).orElse(null);
            if (manual != null && manual.length() > 255) {
                throw ApiException.badRequest("Invalid field: " + manualField + " must be at most 255 characters");
            }
        }
        if (sentDynamic && sentManual && !dynamic.isEmpty() && manual != null) {
            throw ApiException.badRequest(bothMessage);
        }
        if (sentDynamic && !dynamic.isEmpty()) {
            manual = sentManual ? manual : null;
        }
        if (sentManual && manual != null) {
            dynamic = sentDynamic ? dynamic : List.of();
        }
        if (!dynamic.isEmpty() && manual != null) {
            throw ApiException.badRequest(bothMessage);
        }
        return new Pair(dynamic, manual);
    }

    private static List<UrlRuleEngine.Score> scores(JsonNode node) {
        if (node == null || node.isNull()) {
            return List.of();
        }
        if (!node.isArray()) {
            throw ApiException.badRequest("scores must be an array");
        }
        List<UrlRuleEngine.Score> out = new ArrayList<>();
        for (JsonNode entry : node) {
            if (!entry.isObject()) {
                throw ApiException.badRequest(SCORES_KEYWORDS);
            }
            JsonNode kw = entry.get("keywords");
            List<String> keywords = new ArrayList<>();
            if (kw != null && kw.isArray()) {
                for (JsonNode k : kw) {
                    if (!k.isTextual()) {
                        throw ApiException.badRequest("scores keywords must be an array of strings");
                    }
                    if (!k.asText().isBlank()) {
                        keywords.add(k.asText().trim());
                    }
                }
            } else if (kw != null && !kw.isNull()) {
                throw ApiException.badRequest("scores keywords must be an array of strings");
            }
            if (keywords.isEmpty()) {
                throw ApiException.badRequest(SCORES_KEYWORDS);
            }
            JsonNode score = entry.get("score");
            BigDecimal value = BigDecimal.ZERO;
            if (score != null && !score.isNull()) {
                if (!score.isNumber()) {
                    throw ApiException.badRequest("scores score must be a number");
                }
                value = score.decimalValue();
            }
            out.add(new UrlRuleEngine.Score(keywords, value));
        }
        return out;
    }

    private static List<String> stringArray(JsonBody body, String field) {
        return body.stringList(field).orElse(List.of());
    }

    private static List<String> noCommas(String field, List<String> values) {
        for (String v : values) {
            if (v.contains(",")) {
                throw ApiException.badRequest(comma(field));
            }
        }
        return values;
    }

    static Optional<String> none() {
        return Optional.empty();
    }
}
