package dev.attribution.server.admin;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.attribution.api.JsonBody;
import dev.attribution.api.RequestIds;
import dev.attribution.api.auth.AccountDirectory;
import dev.attribution.api.auth.ApiKeys;
import dev.attribution.api.auth.Roles;
import io.micronaut.context.ApplicationContext;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code scripts/admin}: account, key and agency administration against the same PostgreSQL the server uses.
 * Prints one JSON line per result; exits non-zero with a message on bad input.
 */
@Command(name = "admin", mixinStandardHelpOptions = true, scope = CommandLine.ScopeType.INHERIT,
        description = "Administration against the server's PostgreSQL (and ClickHouse for cdc): one JSON line per result.",
        subcommands = {
        AdminCli.AccountCommands.class, AdminCli.KeyCommands.class, AdminCli.AgencyCommands.class,
        CdcCommands.class, ExchangeRateCommands.class, SpendCommands.class, EmailCommands.class, DomainCommands.class,
        DemoCommands.class, BiCommands.class})
public class AdminCli implements Callable<Integer> {

    @Option(names = "--quiet", scope = CommandLine.ScopeType.INHERIT,
            description = "no progress display on stderr (also off when stderr is not a terminal)")
    void quiet(boolean quiet) {
        Progress.quiet = quiet;
    }

    public static int run(String[] args) {
        return run(args, new PrintWriter(System.out, true));
    }

    /** As {@link #run(String[])}, with picocli's own output (usage, version) written to {@code out}. */
    public static int run(String[] args, PrintWriter out) {
        Progress.quiet = false;
        return new CommandLine(new AdminCli()).setOut(out).setExecutionExceptionHandler((e, cmd, parsed) -> {
            cmd.getErr().println("error: " + e.getMessage());
            return 2;
        }).execute(args);
    }

    @Override
    public Integer call() {
        CommandLine.usage(this, System.out);
        return 0;
    }

    /** A started context with the datasource only: no HTTP server, no worker, no CDC, no ClickHouse migration. */
    static ApplicationContext context() {
        return AdminContext.start();
    }

    static <T> T withDirectory(java.util.function.Function<AccountDirectory, T> work) {
        try (ApplicationContext ctx = context()) {
            return work.apply(ctx.getBean(AccountDirectory.class));
        }
    }

    /** An import file, or stdin for {@code -}, read as UTF-8. */
    static Reader open(String file) throws IOException {
        return "-".equals(file) ? new InputStreamReader(System.in, StandardCharsets.UTF_8)
                : Files.newBufferedReader(Path.of(file), StandardCharsets.UTF_8);
    }

    static void print(ObjectNode json) {
        System.out.println(json.toString());
    }

    @Command(name = "account", description = "Create accounts and change their state.",
            subcommands = {AccountCommands.Create.class, AccountCommands.SetState.class, AccountCommands.SetRoles.class,
                    AccountCommands.SetRateLimit.class})
    static class AccountCommands {

        @Command(name = "create", description = "Create an account and its first key (every role).")
        static class Create implements Callable<Integer> {
            @Option(names = "--name", required = true, description = "account name") String name;
            @Option(names = "--time-zone", required = true, description = "IANA zone, e.g. America/New_York") String zone;
            @Option(names = "--currency", defaultValue = "USD", description = "ISO 4217 account currency (default ${DEFAULT-VALUE})") String currency;
            @Option(names = "--email", description = "the account owner's email (GET /user-info)") String email;
            @Option(names = "--id", description = "account id (default: generated)") String id;

            @Override
            public Integer call() {
                ZoneId timeZone = ZoneId.of(zone);
                if (!currency.matches("[A-Z]{3}")) {
                    throw new IllegalArgumentException("currency must be a three-letter ISO code");
                }
                String accountId = id != null ? id : RequestIds.next("acc_");
                String key = ApiKeys.newKey();
                withDirectory(d -> {
                    d.createAccount(accountId, name, email, timeZone, currency);
                    d.createKey(accountId, ApiKeys.hash(key), Roles.ALL, false);
                    return null;
                });
                print(JsonBody.mapper().createObjectNode().put("accountId", accountId).put("apiKey", key));
                return 0;
            }
        }

        @Command(name = "set-state", description = "ACTIVE, BLOCKED, PAYMENT_PENDING or PENDING_DELETION.")
        static class SetState implements Callable<Integer> {
            @Option(names = "--account", required = true, description = "account id") String account;
            @Option(names = "--state", required = true, description = "ACTIVE, BLOCKED, PAYMENT_PENDING or PENDING_DELETION") String state;

            @Override
            public Integer call() {
                if (!List.of("ACTIVE", "BLOCKED", "PAYMENT_PENDING", "PENDING_DELETION").contains(state)) {
                    throw new IllegalArgumentException("state must be ACTIVE, BLOCKED, PAYMENT_PENDING or PENDING_DELETION");
                }
                found(withDirectory(d -> d.setState(account, state)), account);
                print(JsonBody.mapper().createObjectNode().put("accountId", account).put("state", state));
                return 0;
            }
        }

        @Command(name = "set-roles", description = "Roles the account's plan permits (comma-separated), or ALL.")
        static class SetRoles implements Callable<Integer> {
            @Option(names = "--account", required = true, description = "account id") String account;
            @Option(names = "--roles", required = true, completionCandidates = RoleNames.class, description = "comma-separated role names, or ALL; roles: ${COMPLETION-CANDIDATES}") String roles;

            @Override
            public Integer call() {
                List<String> list = "ALL".equals(roles) ? null : roleList(roles);
                found(withDirectory(d -> d.setPermittedRoles(account, list)), account);
                print(JsonBody.mapper().createObjectNode().put("accountId", account).put("roles", roles));
                return 0;
            }
        }

        @Command(name = "set-rate-limit", description = "Per-account rate limits per endpoint (omit to restore defaults).")
        static class SetRateLimit implements Callable<Integer> {
            @Option(names = "--account", required = true, description = "account id") String account;
            @Option(names = "--per-second", description = "requests per second per endpoint (omit: the default)") Integer perSecond;
            @Option(names = "--per-minute", description = "requests per minute per endpoint (omit: the default)") Integer perMinute;

            @Override
            public Integer call() {
                found(withDirectory(d -> d.setRateOverride(account, perSecond, perMinute)), account);
                ObjectNode out = JsonBody.mapper().createObjectNode().put("accountId", account);
                out.put("perSecond", perSecond);
                out.put("perMinute", perMinute);
                print(out);
                return 0;
            }
        }
    }

    @Command(name = "key", description = "Create and revoke API keys.", subcommands = {KeyCommands.Create.class, KeyCommands.Revoke.class})
    static class KeyCommands {

        @Command(name = "create", description = "Create a key with the given roles (comma-separated role names).")
        static class Create implements Callable<Integer> {
            @Option(names = "--account", required = true, description = "account id") String account;
            @Option(names = "--roles", required = true, completionCandidates = RoleNames.class, description = "comma-separated role names, or ALL; roles: ${COMPLETION-CANDIDATES}") String roles;
            @Option(names = "--read-only", description = "read-only sub-user key: write roles are never granted") boolean readOnly;

            @Override
            public Integer call() {
                List<String> list = roleList(roles);
                String key = ApiKeys.newKey();
                withDirectory(d -> {
                    if (d.find(account).isEmpty()) {
                        throw new IllegalArgumentException("no account " + account);
                    }
                    d.createKey(account, ApiKeys.hash(key), list, readOnly);
                    return null;
                });
                print(JsonBody.mapper().createObjectNode().put("apiKey", key));
                return 0;
            }
        }

        @Command(name = "revoke", description = "Revoke a key (give the key itself).")
        static class Revoke implements Callable<Integer> {
            @Option(names = "--key", required = true, description = "the API key itself (ak_…)") String key;

            @Override
            public Integer call() {
                if (!withDirectory(d -> d.revokeKey(ApiKeys.hash(key)))) {
                    throw new IllegalArgumentException("no live key matches");
                }
                print(JsonBody.mapper().createObjectNode().put("revoked", true));
                return 0;
            }
        }
    }

    @Command(name = "agency", description = "Agency to client account relations.", subcommands = {AgencyCommands.Link.class})
    static class AgencyCommands {

        @Command(name = "link", description = "Create or change an agency → client relation.")
        static class Link implements Callable<Integer> {
            @Option(names = "--agency", required = true, description = "the agency's account id") String agency;
            @Option(names = "--client", required = true, description = "the client's account id") String client;
            @Option(names = "--state", required = true, description = "APPROVED, PENDING or REVOKED") String state;

            @Override
            public Integer call() {
                if (!List.of("APPROVED", "PENDING", "REVOKED").contains(state)) {
                    throw new IllegalArgumentException("state must be APPROVED, PENDING or REVOKED");
                }
                withDirectory(d -> {
                    d.link(agency, client, state);
                    return null;
                });
                print(JsonBody.mapper().createObjectNode().put("agencyId", agency).put("clientId", client).put("state", state));
                return 0;
            }
        }
    }

    /** The role names, for the help of options that take roles ({@code ${COMPLETION-CANDIDATES}}). */
    static final class RoleNames implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return Roles.ALL.iterator();
        }
    }

    static List<String> roleList(String roles) {
        List<String> list = Arrays.stream(roles.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
        for (String r : list) {
            if (!Roles.ALL.contains(r)) {
                throw new IllegalArgumentException("unknown role '" + r + "'. Roles: " + String.join(", ", Roles.ALL));
            }
        }
        return list;
    }

    static void found(boolean updated, String account) {
        if (!updated) {
            throw new IllegalArgumentException("no account " + account);
        }
    }
}
