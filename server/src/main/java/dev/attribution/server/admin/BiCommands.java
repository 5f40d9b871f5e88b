package dev.attribution.server.admin;

import dev.attribution.api.JsonBody;
import dev.attribution.cdc.CdcSettings;
import dev.attribution.clickhouse.ClickHouseGateway;
import dev.attribution.clickhouse.ClickHouseSettings;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code scripts/admin bi grant|revoke}: a read-only ClickHouse user that sees one account's rows ({@link BiAccess};
 * docs/clickhouse-schema.md "Per-account BI access").
 */
@Command(name = "bi", description = "Per-account read-only ClickHouse users for BI tools.",
        subcommands = {BiCommands.Grant.class, BiCommands.Revoke.class})
class BiCommands {

    static final String USERS_DIR_HELP = "ClickHouse before 20.4 (e.g. Debian's 18.16) only: the users.d directory beside the "
            + "server's users.xml, where the user's file is written (the server reloads it within seconds); default: "
            + "$CLICKHOUSE_USERS_DIR, which scripts/admin sets to the dev stack's when scripts/up runs ClickHouse. On a cluster "
            + "(clickhouse.cluster) give it once per node";

    private static BiAccess access(io.micronaut.context.ApplicationContext ctx) {
        return new BiAccess(ctx.getBean(ClickHouseGateway.class), ctx.getBean(CdcSettings.class).getTables(),
                ctx.getBean(ClickHouseSettings.class).getCluster());
    }

    /** The --users-dir options given, else $CLICKHOUSE_USERS_DIR (scripts/admin sets it for the dev stack), else none. */
    static List<Path> dirs(List<Path> given) {
        if (given != null && !given.isEmpty()) {
            return given;
        }
        String env = System.getenv("CLICKHOUSE_USERS_DIR");
        return env == null || env.isBlank() ? List.of() : List.of(Path.of(env));
    }

    @Command(name = "grant", description = "Create (or re-create) the BI user of an account; prints user, password, database as JSON.")
    static class Grant implements Callable<Integer> {
        @Option(names = "--account", required = true, description = "account id") String account;
        @Option(names = "--password", description = "the user's password (default: 24 random hex characters)") String password;
        @Option(names = "--users-dir", description = USERS_DIR_HELP) List<Path> usersDirs;

        @Override
        public Integer call() throws Exception {
            String pw = password != null ? password : HexFormat.of().formatHex(new SecureRandom().generateSeed(12));
            BiAccess.Grant g = CdcCommands.withCdc(ctx -> {
                try {
                    return access(ctx).grant(account, pw, dirs(usersDirs));
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            AdminCli.print(JsonBody.mapper().createObjectNode().put("accountId", account).put("user", g.user())
                    .put("password", g.password()).put("database", g.database()).put("isolation", g.mode()));
            return 0;
        }
    }

    @Command(name = "revoke", description = "Drop the BI user of an account (and, before 20.4, its copy of the account's rows).")
    static class Revoke implements Callable<Integer> {
        @Option(names = "--account", required = true, description = "account id") String account;
        @Option(names = "--users-dir", description = USERS_DIR_HELP) List<Path> usersDirs;

        @Override
        public Integer call() {
            CdcCommands.withCdc(ctx -> {
                try {
                    access(ctx).revoke(account, dirs(usersDirs));
                    return null;
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            AdminCli.print(JsonBody.mapper().createObjectNode().put("accountId", account).put("user", BiAccess.user(account)).put("revoked", true));
            return 0;
        }
    }
}
