package dev.attribution.command.leads;

import io.micronaut.context.annotation.ConfigurationProperties;

/** Every setting of lead writes, each defined once here with its default ({@code attribution.*}). */
@ConfigurationProperties("attribution")
public class LeadSettings {

    /**
     * Domain of the placeholder email a lead known only by its phone gets ({@code <digits>@<domain>}); a reserved
     * {@code .invalid} name by default, so that no mail can reach it.
     */
    private String placeholderEmailDomain = "phone.leads.invalid";

    public String getPlaceholderEmailDomain() { return placeholderEmailDomain; }

    public void setPlaceholderEmailDomain(String domain) {
        if (domain == null || domain.isBlank() || domain.contains("@")) {
            throw new IllegalArgumentException("attribution.placeholder-email-domain must be a domain name, not " + domain);
        }
        this.placeholderEmailDomain = domain;
    }
}
