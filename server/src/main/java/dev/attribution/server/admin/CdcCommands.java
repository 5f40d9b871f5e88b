package dev.attribution.server.admin;

import dev.attribution.cdc.resync.CdcCheck;
import dev.attribution.cdc.resync.CdcResync;
import io.micronaut.context.ApplicationContext;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.time.YearMonth;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Function;

/**
 * {@code scripts/admin cdc check|resync}: compare ClickHouse with PostgreSQL, and rebuild ClickHouse from it.
 * The logic lives in {@code dev.attribution.cdc.resync}; these commands parse options and print.
 */
@Command(name = "cdc", description = "Compare ClickHouse with PostgreSQL, or rebuild ClickHouse rows from PostgreSQL.",
        subcommands = {CdcCommands.Check.class, CdcCommands.Resync.class})
class CdcCommands {

    /** A context with the datasource and ClickHouse: no HTTP server, no worker, no bridge. */
    static <T> T withCdc(Function<ApplicationContext, T> work) {
        try (ApplicationContext ctx = AdminContext.start()) {
            return work.apply(ctx);
        }
    }

    static Integer month(String text) {
        if (text == null) {
            return null;
        }
        try {
            YearMonth m = YearMonth.parse(text);
            return m.getYear() * 100 + m.getMonthValue();
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("month must be YYYY-MM, e.g. 2025-03");
        }
    }

    @Command(name = "check", description = "Row counts and content checksums per table and month, PostgreSQL vs ClickHouse; "
            + "prints each difference, exits 1 on any.")
    static class Check implements Callable<Integer> {
        @Option(names = "--table", description = "one streamed table (default: all)") String table;
        @Option(names = "--month", description = "YYYY-MM (default: all months)") String month;

        @Override
        public Integer call() {
            Integer m = month(month);
            Progress bar = Progress.of("tables");
            List<CdcCheck.Difference> differences = withCdc(ctx -> ctx.getBean(CdcCheck.class).run(table, m, bar::update));
            bar.finish();
            differences.forEach(d -> System.out.println(d.describe()));
            if (differences.isEmpty()) {
                System.out.println("ClickHouse matches PostgreSQL");
                return 0;
            }
            System.out.println(differences.size() + (differences.size() == 1 ? " difference" : " differences"));
            return 1;
        }
    }

    @Command(name = "resync", description = "Rebuild ClickHouse rows from PostgreSQL (bulk, while the bridge keeps streaming).")
    static class Resync implements Callable<Integer> {
        @Option(names = "--table", description = "one streamed table (default: all)") String table;
        @Option(names = "--month", description = "YYYY-MM (default: all months)") String month;

        @Override
        public Integer call() {
            Integer m = month(month);
            Progress bar = Progress.of("rows");
            List<CdcResync.Result> results = withCdc(ctx -> ctx.getBean(CdcResync.class).run(table, m, bar::update));
            bar.finish();
            for (CdcResync.Result r : results) {
                System.out.println(r.table() + ": " + r.rows() + " rows in " + r.millis() + " ms");
            }
            return 0;
        }
    }
}
