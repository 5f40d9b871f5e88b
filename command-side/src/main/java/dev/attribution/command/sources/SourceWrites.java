package dev.attribution.command.sources;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.attribution.api.ApiException;
import dev.attribution.api.FixedSet;
import dev.attribution.api.JsonBody;
import dev.attribution.api.auth.Caller;
import dev.attribution.command.requests.WriteRequestLog;
import jakarta.inject.Singleton;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Validation of source writes (spec 4.8) and their hand-over to the request log. */
@Singleton
public class SourceWrites {

    public static final List<String> CREATE_PLATFORMS = java.util.Arrays.stream(SourceCreateBody.Platform.values()).map(Enum::name).toList();
    public static final List<String> SUB_TYPES = java.util.Arrays.stream(SourceCreateBody.SubType.values()).map(Enum::name).toList();
    public static final String INVALID_TAG = "Invalid tag";
    static final Set<String> UPDATE_FIELDS = JsonBody.fieldsOf(SourceUpdateBody.class);

    private final WriteRequestLog log;
    private final SourceTags tags;

    SourceWrites(WriteRequestLog log, SourceTags tags) {
        this.log = log;
        this.tags = tags;
    }

    /** {@code POST /sources}: CREATE_SOURCE_LINK. */
    public String create(Caller caller, JsonBody body) {
        String name = body.nonBlankString("name").orElseThrow(() -> ApiException.badRequest("Missing required field: name"));
        ObjectNode p = JsonBody.mapper().createObjectNode().put("name", name);
        copyNames(body, p);
        body.bool("isDisregard").ifPresent(v -> p.put("isDisregard", v));
        body.bool("isOrganic").ifPresent(v -> p.put("isOrganic", v));
        Optional<String> platform = body.nonBlankString("integrationType")
                .map(v -> FixedSet.require("integrationType", v, CREATE_PLATFORMS));
        if (platform.isPresent()) {
            p.put("integrationType", platform.get());
            p.put("adSourceId", required(body, "adSourceId"));
            p.put("accountId", required(body, "accountId"));
            if (platform.get().equals("GOOGLE")) {
                p.put("adspendSubType", FixedSet.require("adspendSubType", required(body, "adspendSubType"), SUB_TYPES));
            }
            if (platform.get().equals("FACEBOOK")) {
                p.put("campaignId", required(body, "campaignId"));
            } else {
                // optional elsewhere; where sent, it places the ad set under its campaign (docs/attribution-models.md)
                body.nonBlankString("campaignId").ifPresent(v -> p.put("campaignId", v));
            }
        }
        return log.accept(caller.accountId(), "CREATE_SOURCE_LINK", "source:" + name, p);
    }

    /**
     * {@code PUT /sources/{tag}}: strict fields; {@code Invalid tag} for a non-source prefix. A blank {@code name} or
     * {@code tag} is no change (a source always has both; clients send {@code ""} for a field left empty), while a
     * blank {@code category}, {@code goal} or {@code trafficSource} clears it.
     */
    public String update(Caller caller, String pathTag, JsonBody body) {
        body.rejectUnknown(UPDATE_FIELDS);
        String id = existing(caller, pathTag);
        ObjectNode p = JsonBody.mapper().createObjectNode().put("id", id);
        body.nonBlankString("name").ifPresent(name -> p.put("name", name));
        body.nonBlankString("tag").map(SourceWrites::sourceTag).ifPresent(tag -> {
            tags.idByTag(caller.accountId(), tag).filter(other -> !other.equals(id)).ifPresent(other -> {
                throw ApiException.badRequest("The tag " + tag + " is already used by another source");
            });
            p.put("tag", tag);
        });
        copyNames(body, p);
        body.bool("isDisregard").ifPresent(v -> p.put("isDisregard", v));
        body.bool("isOrganic").ifPresent(v -> p.put("isOrganic", v));
        return log.accept(caller.accountId(), "UPDATE_SOURCE_LINK", "source:" + id, p);
    }

    /** {@code DELETE /sources/{tag}}: soft delete. */
    public String delete(Caller caller, String pathTag) {
        String id = existing(caller, pathTag);
        return log.accept(caller.accountId(), "DELETE_SOURCE_LINK", "source:" + id,
                JsonBody.mapper().createObjectNode().put("id", id));
    }

    /** A source tag: {@code @} added when absent; {@code $}, {@code !}, {@code #} refused with {@code Invalid tag}. */
    public static String sourceTag(String tag) {
        String t = tag.trim();
        if (t.startsWith("$") || t.startsWith("!") || t.startsWith("#")) {
            throw ApiException.badRequest(INVALID_TAG);
        }
        t = t.startsWith("@") ? t : "@" + t;
        if (t.length() < 2 || t.contains(",")) {
            throw ApiException.badRequest(INVALID_TAG);
        }
        return t;
    }

    private String existing(Caller caller, String pathTag) {
        String tag = pathTag == null || pathTag.isBlank() ? "" : (pathTag.trim().startsWith("@") ? pathTag.trim() : "@" + pathTag.trim());
        return tags.idByTag(caller.accountId(), tag)
                .orElseThrow(() -> ApiException.badRequest("Source not found: " + tag));
    }

    private static void copyNames(JsonBody body, ObjectNode p) {
        for (String f : List.of("category", "goal", "trafficSource")) {
            if (body.has(f)) {
                p.put(f, body.string(f).map(String::trim).orElse(""));
            }
        }
    }

    private static String required(JsonBody body, String field) {
        return body.nonBlankString(field).orElseThrow(() -> ApiException.badRequest("Missing required field: " + field));
    }
}
