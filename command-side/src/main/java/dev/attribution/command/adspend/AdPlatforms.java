package dev.attribution.command.adspend;

import java.util.List;

/** AdspendType of spec 2.4: the ad platforms. */
public final class AdPlatforms {

    public static final List<String> ALL = List.of("FACEBOOK", "GOOGLE", "GOOGLE_V2", "TIKTOK", "SNAPCHAT", "LINKEDIN",
            "TWITTER", "PINTEREST", "BING", "REDDIT", "APPLOVIN", "WHOP_ADS");

    private AdPlatforms() {
    }
}
