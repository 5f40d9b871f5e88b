package dev.attribution.query.sources;

import dev.attribution.api.FixedSet;
import dev.attribution.api.QueryParameter;
import dev.attribution.api.QueryParams;

import java.util.List;
import java.util.Optional;

/** Filters of {@code GET /sources} (spec 4.8). */
public record SourceFilter(List<String> adSourceIds, boolean includeOrganic, boolean includeDisregarded,
                           Optional<String> platform, Optional<String> name, Optional<String> tag) {

    public static final List<String> PLATFORMS = List.of("FACEBOOK", "GOOGLE", "GOOGLE_V2", "TIKTOK", "SNAPCHAT",
            "LINKEDIN", "TWITTER", "PINTEREST", "BING", "REDDIT", "APPLOVIN", "WHOP_ADS");

    /** The filter's query parameters, extended by the declaration of each endpoint that reads it. */
    public interface Parameters extends QueryParameter {
        Spec adSourceIds = Spec.list(50, "the ad platforms' ids of the sources");
        Spec includeOrganic = Spec.bool("false leaves organic sources out (default true)");
        Spec includeDisregarded = Spec.bool("false leaves disregarded sources out (default true)");
        Spec integrationType = Spec.string("ad platform").oneOf(PLATFORMS);
        Spec name = Spec.string("full source name, case-insensitive");
        Spec tag = Spec.string("full source tag, case-insensitive");
    }

    /** {@code includeOrganic} / {@code includeDisregarded}: absent includes them; false leaves them out. */
    public static SourceFilter read(QueryParams q) {
        return new SourceFilter(q.list("adSourceIds"), q.bool("includeOrganic").orElse(true),
                q.bool("includeDisregarded").orElse(true),
                q.string("integrationType").map(v -> FixedSet.require("integrationType", v, PLATFORMS)),
                q.string("name"), q.string("tag"));
    }

    public String fingerprint() {
        return String.join("|", String.join(",", adSourceIds), Boolean.toString(includeOrganic),
                Boolean.toString(includeDisregarded), platform.orElse(""), name.orElse(""), tag.orElse(""));
    }
}
