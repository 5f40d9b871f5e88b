package dev.attribution.server.admin;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.attribution.api.JsonBody;
import dev.attribution.api.RequestIds;
import dev.attribution.api.auth.Account;
import dev.attribution.api.auth.AccountDirectory;
import dev.attribution.api.auth.ApiKeys;
import dev.attribution.api.auth.Roles;
import dev.attribution.server.demo.DemoSeed;
import io.micronaut.context.ApplicationContext;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import javax.sql.DataSource;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.concurrent.Callable;

/** {@code scripts/admin demo …}: demo data for trying the API (README, "Try it with demo data"). */
@Command(name = "demo", description = "Demo data.", subcommands = {DemoCommands.Seed.class})
public class DemoCommands {

    @Command(name = "seed", description = "Fill an account with a realistic, deterministic demo business: ads on three "
            + "platforms with daily spend, source links, leads with paid and organic clicks, tags and stages, calls, carts, "
            + "orders with rebills and refunds, subscriptions. Written to PostgreSQL; CDC streams it to ClickHouse.")
    static class Seed implements Callable<Integer> {
        @Option(names = "--leads", defaultValue = "2000", description = "leads to create (default ${DEFAULT-VALUE})") int leads;
        @Option(names = "--months", defaultValue = "3", description = "months of history (default ${DEFAULT-VALUE})") int months;
        @Option(names = "--seed", defaultValue = "42", description = "random seed: the same seed and end date give the same rows") long seed;
        @Option(names = "--end-date", description = "last day of data, yyyy-MM-dd (default: yesterday in the account's zone)") String endDate;
        @Option(names = "--account", description = "an existing, empty account (default: a new account and an API key)") String account;
        @Option(names = "--time-zone", defaultValue = "America/New_York", description = "zone of a new account") String zone;

        @Override
        public Integer call() throws SQLException {
            try (ApplicationContext ctx = AdminCli.context()) {
                AccountDirectory directory = ctx.getBean(AccountDirectory.class);
                String key = null;
                Account target;
                if (account != null) {
                    target = directory.find(account).orElseThrow(() -> new IllegalArgumentException("no account " + account));
                } else {
                    String id = RequestIds.next("acc_");
                    directory.createAccount(id, "Demo shop", "demo@example.com", ZoneId.of(zone), "USD");
                    key = ApiKeys.newKey();
                    directory.createKey(id, ApiKeys.hash(key), Roles.ALL, false);
                    target = directory.find(id).orElseThrow();
                }
                LocalDate end = endDate != null ? LocalDate.parse(endDate) : LocalDate.now(target.timeZone()).minusDays(1);
                DemoSeed.Options options = new DemoSeed.Options(leads, months, seed, end);
                Progress progress = Progress.of("leads");
                DemoSeed.Summary s = new DemoSeed(ctx.getBean(DataSource.class))
                        .seed(target.id(), target.timeZone(), target.currency(), options,
                                written -> progress.update("seeding " + target.id(), written, leads));
                progress.finish();
                ObjectNode out = JsonBody.mapper().createObjectNode().put("accountId", s.accountId());
                if (key != null) {
                    out.put("apiKey", key);
                }
                out.put("firstDay", s.firstDay().toString()).put("lastDay", s.lastDay().toString())
                        .put("adAccounts", s.adAccounts()).put("campaigns", s.campaigns()).put("adSets", s.adSets())
                        .put("ads", s.ads()).put("sourceLinks", s.sourceLinks()).put("spendRows", s.spendRows())
                        .put("leads", s.leads()).put("clicks", s.clicks()).put("paidClicks", s.paidClicks())
                        .put("organicClicks", s.organicClicks()).put("leadTags", s.leadTags()).put("orders", s.orders())
                        .put("sales", s.sales()).put("rebillSales", s.rebillSales()).put("refundedOrders", s.refundedOrders())
                        .put("calls", s.calls()).put("carts", s.carts()).put("subscriptions", s.subscriptions())
                        .put("sampleLevel", s.sampleLevel()).put("sampleAdId", s.sampleAdId()).put("millis", s.millis());
                AdminCli.print(out);
                return 0;
            }
        }
    }
}
