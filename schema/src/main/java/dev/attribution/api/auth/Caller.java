package dev.attribution.api.auth;

import java.util.Set;

/**
 * Who is calling and on whose behalf: {@code owner} holds the key (rate limits are charged to it), {@code account}
 * is the account the request acts on (the owner, or an agency's client named by {@code Accessible-Account-Id}).
 * Controllers take it as a parameter; {@link ApiKeyFilter} resolves it.
 */
public record Caller(Account owner, Account account, Set<String> roles) {

    public static final String ATTRIBUTE = "attribution.caller";

    public String accountId() {
        return account.id();
    }
}
