package dev.attribution.server.admin;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.attribution.api.JsonBody;
import dev.attribution.command.orders.ExchangeRates;
import dev.attribution.command.orders.Money;
import io.micronaut.context.ApplicationContext;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import javax.sql.DataSource;
import java.math.BigDecimal;
import java.sql.Connection;
import java.time.LocalDate;
import java.util.Locale;
import java.util.concurrent.Callable;

/** {@code admin exchange-rate set}: the USD rates sales' {@code usd_price} is computed with (docs/money.md). */
@Command(name = "exchange-rate", description = "Exchange rates to USD used for usdPrice.", subcommands = {ExchangeRateCommands.Set.class})
class ExchangeRateCommands {

    @Command(name = "set", description = "Set the USD value of one unit of a currency from a date on.")
    static class Set implements Callable<Integer> {
        @Option(names = "--currency", required = true, description = "ISO 4217 code, e.g. EUR") String currency;
        @Option(names = "--usd-rate", required = true, description = "USD for one unit, e.g. 1.0834") String rate;
        @Option(names = "--from", defaultValue = "1970-01-01", description = "first day the rate applies (yyyy-MM-dd)") String from;

        @Override
        public Integer call() throws Exception {
            String code = currency.toUpperCase(Locale.ROOT);
            if (!Money.isCurrency(code)) {
                throw new IllegalArgumentException("unknown currency " + currency);
            }
            BigDecimal usdRate = new BigDecimal(rate);
            if (usdRate.signum() <= 0) {
                throw new IllegalArgumentException("usd-rate must be positive");
            }
            LocalDate validFrom = LocalDate.parse(from);
            try (ApplicationContext ctx = AdminCli.context();
                 Connection c = DelegatingDataSource.unwrapDataSource(ctx.getBean(DataSource.class)).getConnection()) {
                ExchangeRates.set(c, code, validFrom, usdRate);
            }
            ObjectNode out = JsonBody.mapper().createObjectNode().put("currency", code).put("validFrom", validFrom.toString());
            out.put("usdRate", usdRate);
            AdminCli.print(out);
            return 0;
        }
    }
}
