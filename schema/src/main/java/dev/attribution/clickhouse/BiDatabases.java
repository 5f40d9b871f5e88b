package dev.attribution.clickhouse;

/**
 * The name of an account's BI user and, on ClickHouse before 20.4, of the database holding its per-account copies
 * ({@code scripts/admin bi grant}; docs/clickhouse-schema.md "Per-account BI access"). Defined here because the copies
 * hold lead rows that an erasure must reach too (cdc-bridge's {@code Erasure}).
 */
public final class BiDatabases {

    private BiDatabases() {
    }

    /** True when {@code account} can have a BI database ({@link #of} accepts it). */
    public static boolean valid(String account) {
        return account.matches("[A-Za-z0-9_-]{1,100}");
    }

    /** {@code bi_<account>} with {@code -} as {@code _}; the account id must be letters, digits, {@code _} or {@code -}. */
    public static String of(String account) {
        if (!valid(account)) {
            throw new IllegalArgumentException("account id must be letters, digits, _ or -: " + account);
        }
        return "bi_" + account.replace('-', '_');
    }
}
