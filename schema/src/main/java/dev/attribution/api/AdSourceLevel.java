package dev.attribution.api;

import java.util.Set;

/**
 * Where a source's or a click's {@code adSourceId} sits in its platform's ad hierarchy (docs/attribution-models.md,
 * "The ad hierarchy the API writes"): an id the account already knows as an ad set is an ad set, one it knows only as
 * a campaign is a campaign (spec 2.17's campaign-level sources), and an id it does not know yet is a campaign on the
 * platforms whose sources sit at campaign level by default and an ad set / ad group / ad squad elsewhere. The one
 * rule of the write side (which rows a write registers) and the read side (what a journey event shows).
 */
public final class AdSourceLevel {

    /** Platforms whose unknown {@code adSourceId} is a campaign: LinkedIn's levels are linkedin_campaign and linkedin_ad. */
    private static final Set<String> CAMPAIGN_BY_DEFAULT = Set.of("LINKEDIN");

    private AdSourceLevel() {
    }

    /** Whether {@code adSourceId} of {@code platform} is a campaign, given what the account knows of it. */
    public static boolean isCampaign(String platform, boolean knownAsAdSet, boolean knownAsCampaign) {
        return !knownAsAdSet && (knownAsCampaign || CAMPAIGN_BY_DEFAULT.contains(platform));
    }
}
