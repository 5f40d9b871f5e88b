package dev.attribution.command.sources;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import dev.attribution.api.ApiException;
import dev.attribution.command.sources.SourceCommands.CreateSource;
import dev.attribution.command.sources.SourceCommands.Platform;
import dev.attribution.command.sources.SourceCommands.SourceChanges;
import dev.attribution.command.sources.SourceCommands.UpdateSource;

import java.io.IOException;
import java.util.Optional;

/** The rules of source writes (spec 4.8), each message written once; what passes is the command as stored. */
final class SourceRules {

    static final String INVALID_TAG = "Invalid tag";
    static final String NOT_FOUND = "Source not found";

    private SourceRules() {
    }

    /** {@code POST /sources}: name required; an ad platform requires its ad ids (Google its sub-type, Facebook its campaign). */
    static CreateSource create(CreateSource body) {
        String name = nonBlank(body.name()).orElseThrow(() -> missing("name"));
        Platform platform = body.integrationType();
        String adSourceId = null;
        String accountId = null;
        String campaignId = null;
        if (platform != null) {
            adSourceId = required(body.adSourceId(), "adSourceId");
            accountId = required(body.accountId(), "accountId");
            if (platform == Platform.GOOGLE && body.adspendSubType() == null) {
                throw missing("adspendSubType");
            }
            // required for FACEBOOK; optional elsewhere, where sent it places the ad set under its campaign
            // (docs/attribution-models.md)
            campaignId = platform == Platform.FACEBOOK ? required(body.campaignId(), "campaignId") : nonBlank(body.campaignId()).orElse(null);
        }
        return new CreateSource(name, trimmed(body.category()), trimmed(body.goal()), trimmed(body.trafficSource()),
                body.isDisregard(), body.isOrganic(), platform, adSourceId, accountId,
                platform == Platform.GOOGLE ? body.adspendSubType() : null, campaignId);
    }

    /**
     * {@code PUT /sources/{tag}} of the source {@code id}: a blank {@code name} or {@code tag} is no change (a source
     * always has both; clients send {@code ""} for a field left empty), while a blank {@code category}, {@code goal}
     * or {@code trafficSource} clears it. A tag carried by another live source is refused.
     */
    static UpdateSource update(String accountId, String id, SourceChanges body, SourcesTable sources) {
        String name = nonBlank(body.name()).orElse(null);
        String tag = nonBlank(body.tag()).map(SourceRules::sourceTag).orElse(null);
        if (tag != null) {
            sources.idByTag(accountId, tag).filter(other -> !other.equals(id)).ifPresent(other -> {
                throw ApiException.badRequest(tagTaken(tag));
            });
        }
        return new UpdateSource(id, name, tag, trimmed(body.category()), trimmed(body.goal()), trimmed(body.trafficSource()),
                body.isDisregard(), body.isOrganic());
    }

    /** The live source a path's tag names ({@code @} added when absent), else {@code Source not found: <tag>}. */
    static String existing(String accountId, String pathTag, SourcesTable sources) {
        String tag = pathTag == null || pathTag.isBlank() ? "" : (pathTag.trim().startsWith("@") ? pathTag.trim() : "@" + pathTag.trim());
        return sources.idByTag(accountId, tag).orElseThrow(() -> ApiException.badRequest(NOT_FOUND + ": " + tag));
    }

    static String tagTaken(String tag) {
        return "The tag " + tag + " is already used by another source";
    }

    /** A source tag: {@code @} added when absent; {@code $}, {@code !}, {@code #} refused with {@code Invalid tag}. */
    static String sourceTag(String tag) {
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

    /** The ordering key of a source's writes. */
    static String lane(String idOrName) {
        return "source:" + idOrName;
    }

    private static String required(String value, String field) {
        return nonBlank(value).orElseThrow(() -> missing(field));
    }

    private static ApiException missing(String field) {
        return ApiException.badRequest("Missing required field: " + field);
    }

    private static Optional<String> nonBlank(String s) {
        return Optional.ofNullable(s).map(String::trim).filter(v -> !v.isEmpty());
    }

    private static String trimmed(String s) {
        return s == null ? null : s.trim();
    }

    /**
     * A name field of {@code PUT /sources/{tag}} that a null or blank value clears: null is read as {@code ""}
     * (sent, to be cleared), absent as null (no change); any other value must be a string.
     */
    static final class Clearable extends JsonDeserializer<String> {
        @Override
        public String deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            if (!p.hasToken(JsonToken.VALUE_STRING)) {
                throw ApiException.badRequest(p.currentName() + " must be a string");
            }
            return p.getText();
        }

        @Override
        public String getNullValue(DeserializationContext ctxt) {
            return "";
        }

        @Override
        public Object getAbsentValue(DeserializationContext ctxt) {
            return null;
        }
    }
}
