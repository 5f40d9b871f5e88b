package dev.attribution.query.account;

/** Validation messages of the account endpoints. */
final class AccountMessages {

    static final String READ_ONLY_SCRIPT = "Read-only users cannot access the tracking script";
    static final String UNKNOWN_DOMAIN = "Domain not found";

    static String notBoolean(String param) {
        return param + " must be true or false";
    }

    private AccountMessages() {
    }
}
