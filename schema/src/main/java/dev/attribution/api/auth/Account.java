package dev.attribution.api.auth;

import java.time.ZoneId;

/** The account a request acts on: its id, zone (for dates) and currency. */
public record Account(String id, String name, String email, ZoneId timeZone, String currency, String state) {

    public boolean active() {
        return "ACTIVE".equals(state);
    }
}
