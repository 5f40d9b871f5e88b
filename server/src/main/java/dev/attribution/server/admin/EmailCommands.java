package dev.attribution.server.admin;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.attribution.api.JsonBody;
import dev.attribution.command.emailevents.EmailEventImport;
import dev.attribution.command.imports.ImportFileException;
import io.micronaut.context.ApplicationContext;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.Reader;
import java.util.concurrent.Callable;

/** {@code scripts/admin email …}: email events of leads (docs/email-events.md). */
@Command(name = "email", description = "Email events: import sent and opened emails into lead journeys.",
        subcommands = {EmailCommands.Import.class})
public class EmailCommands {

    @Command(name = "import", description = "Import an email-event file (CSV with header, or JSON lines) into an account. "
            + "Idempotent per message and type: a re-import replaces rows, never adds to them. Rows naming no known lead "
            + "are skipped and counted.")
    static class Import implements Callable<Integer> {
        @Option(names = "--account", required = true, description = "account id") String account;
        @Parameters(index = "0", paramLabel = "FILE", description = "email-event file, or - for stdin") String file;

        @Override
        public Integer call() throws IOException {
            Progress progress = Progress.of("rows read");
            try (ApplicationContext ctx = AdminCli.context(); Reader in = AdminCli.open(file)) {
                EmailEventImport.Result r = ctx.getBean(EmailEventImport.class).importFile(account, in, progress.restart()::count);
                ObjectNode out = JsonBody.mapper().createObjectNode().put("accountId", account).put("file", file)
                        .put("rows", r.rows()).put("eventsWritten", r.eventsWritten()).put("unknownLeads", r.unknownLeads());
                r.unknownLeadLines().forEach(out.putArray("unknownLeadLines")::add);
                AdminCli.print(out.put("millis", r.millis()));
                return 0;
            } catch (ImportFileException e) {
                progress.finish();
                throw new IllegalArgumentException(e.getMessage() + " (nothing was imported)");
            }
        }
    }
}
