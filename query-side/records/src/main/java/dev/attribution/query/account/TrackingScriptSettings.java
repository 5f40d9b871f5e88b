package dev.attribution.query.account;

import io.micronaut.context.annotation.ConfigurationProperties;

/** Every setting of the tracking snippet, each defined once here with its default ({@code attribution.tracking-script.*}). */
@ConfigurationProperties("attribution.tracking-script")
public class TrackingScriptSettings {

    /**
     * Where the snippet loads the universal script from ({@code https://track.example.com}, or protocol-relative
     * {@code //track.example.com}), trailing slashes dropped; empty by default: this server as the request addressed it.
     */
    private String baseUrl = "";

    public String getBaseUrl() { return baseUrl; }

    public void setBaseUrl(String baseUrl) {
        String url = baseUrl == null ? "" : baseUrl.trim();
        if (!url.isEmpty() && !url.matches("(?i)(https?:)?//[^\\s/]+(/\\S*)?")) {
            throw new IllegalArgumentException("attribution.tracking-script.base-url must be an http(s):// or // URL, not "
                    + baseUrl);
        }
        this.baseUrl = url.replaceAll("/+$", "");
    }
}
