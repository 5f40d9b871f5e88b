package dev.attribution.server.admin;

import dev.attribution.api.JsonBody;
import dev.attribution.command.adspend.SpendImport;
import dev.attribution.command.imports.ImportFileException;
import io.micronaut.context.ApplicationContext;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code scripts/admin spend …}: ad spend administration (docs/ad-spend-import.md). */
@Command(name = "spend", description = "Ad spend: import daily spend files.", subcommands = {SpendCommands.Import.class})
public class SpendCommands {

    @Command(name = "import", description = "Import a spend file (CSV with header, or JSON lines) into an account. "
            + "Idempotent per ad and day: a re-import replaces rows, never adds to them. Progress goes to stderr.")
    static class Import implements Callable<Integer> {
        @Option(names = "--account", required = true, description = "account id") String account;
        @Parameters(index = "0", paramLabel = "FILE", description = "spend file, or - for stdin") String file;

        @Override
        public Integer call() throws IOException {
            Progress progress = Progress.of("rows read");
            try (ApplicationContext ctx = AdminCli.context(); Reader in = AdminCli.open(file)) {
                long size = "-".equals(file) ? -1 : Files.size(Path.of(file));
                SpendImport.Result r = ctx.getBean(SpendImport.class).importFile(account, in, progress.restart()::count);
                AdminCli.print(JsonBody.mapper().createObjectNode()
                        .put("accountId", account).put("file", file).put("bytes", size)
                        .put("rows", r.rows()).put("spendRowsWritten", r.spendRows())
                        .put("adAccountsCreated", r.adAccounts()).put("campaignsCreated", r.campaigns())
                        .put("adSetsCreated", r.adSets()).put("adsCreated", r.ads()).put("keywordsWritten", r.keywords())
                        .put("millis", r.millis())
                        .put("rowsPerSecond", r.millis() == 0 ? r.rows() : r.rows() * 1000 / r.millis()));
                return 0;
            } catch (ImportFileException e) {
                progress.finish();
                throw new IllegalArgumentException(e.getMessage() + " (nothing was imported)");
            }
        }
    }
}
