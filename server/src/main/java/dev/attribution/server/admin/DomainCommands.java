package dev.attribution.server.admin;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.attribution.api.JsonBody;
import dev.attribution.api.auth.AccountDirectory;
import dev.attribution.query.account.DomainDirectory;
import io.micronaut.context.ApplicationContext;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.concurrent.Callable;
import java.util.function.Function;

/** {@code admin domain add|remove|list}: the account's tracked domains served by GET /domains. */
@Command(name = "domain", description = "Tracked domains of an account (GET /domains).",
        subcommands = {DomainCommands.Add.class, DomainCommands.Remove.class, DomainCommands.ListDomains.class})
class DomainCommands {

    static <T> T withDomains(String account, Function<DomainDirectory, T> work) {
        try (ApplicationContext ctx = AdminCli.context()) {
            if (ctx.getBean(AccountDirectory.class).find(account).isEmpty()) {
                throw new IllegalArgumentException("no account " + account);
            }
            return work.apply(ctx.getBean(DomainDirectory.class));
        }
    }

    @Command(name = "add", description = "Add a domain to an account.")
    static class Add implements Callable<Integer> {
        @Option(names = "--account", required = true, description = "account id") String account;
        @Option(names = "--domain", required = true, description = "domain name, e.g. shop.example.com") String domain;

        @Override
        public Integer call() {
            String d = DomainDirectory.normalize(domain);
            boolean added = withDomains(account, dir -> dir.add(account, d));
            AdminCli.print(JsonBody.mapper().createObjectNode().put("accountId", account).put("domain", d).put("added", added));
            return 0;
        }
    }

    @Command(name = "remove", description = "Remove a domain from an account.")
    static class Remove implements Callable<Integer> {
        @Option(names = "--account", required = true, description = "account id") String account;
        @Option(names = "--domain", required = true, description = "domain name, e.g. shop.example.com") String domain;

        @Override
        public Integer call() {
            String d = DomainDirectory.normalize(domain);
            if (!withDomains(account, dir -> dir.remove(account, d))) {
                throw new IllegalArgumentException("account " + account + " has no domain " + d);
            }
            AdminCli.print(JsonBody.mapper().createObjectNode().put("accountId", account).put("domain", d).put("removed", true));
            return 0;
        }
    }

    @Command(name = "list", description = "List an account's domains.")
    static class ListDomains implements Callable<Integer> {
        @Option(names = "--account", required = true, description = "account id") String account;

        @Override
        public Integer call() {
            ObjectNode out = JsonBody.mapper().createObjectNode().put("accountId", account);
            ArrayNode list = out.putArray("domains");
            withDomains(account, dir -> dir.list(account)).forEach(list::add);
            AdminCli.print(out);
            return 0;
        }
    }
}
