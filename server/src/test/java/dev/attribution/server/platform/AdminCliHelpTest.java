package dev.attribution.server.platform;

import dev.attribution.api.auth.Roles;
import dev.attribution.server.admin.AdminCli;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code scripts/admin … --help} (issue 24 point 5): exits 0 and prints the usage on every group and subcommand, every
 * option has a description, and options that take roles list the role names. No database is needed for help.
 */
class AdminCliHelpTest {

    private static List<List<String>> commandPaths(CommandLine line, List<String> path, List<List<String>> out) {
        out.add(path);
        line.getSubcommands().forEach((name, sub) -> {
            if (!name.equals("help")) {
                List<String> next = new ArrayList<>(path);
                next.add(name);
                commandPaths(sub, next, out);
            }
        });
        return out;
    }

    @Test
    void helpExitsZeroOnEveryGroupAndSubcommand() {
        List<List<String>> paths = commandPaths(new CommandLine(new AdminCli()), List.of(), new ArrayList<>());
        assertTrue(paths.size() > 20, "groups and subcommands found: " + paths.size());
        for (List<String> path : paths) {
            List<String> args = new ArrayList<>(path);
            args.add("--help");
            // picocli's own writer, not System.out: a log line from another thread must not land in the usage
            StringWriter captured = new StringWriter();
            int exit = AdminCli.run(args.toArray(String[]::new), new PrintWriter(captured, true));
            String usage = captured.toString();
            assertEquals(0, exit, String.join(" ", args) + " → " + usage);
            assertTrue(usage.startsWith("Usage: admin"), String.join(" ", args) + " → " + usage);
        }
    }

    @Test
    void everyOptionIsDescribedAndRoleOptionsNameTheRoles() {
        List<String> undescribed = new ArrayList<>();
        walk(new CommandLine(new AdminCli()).getCommandSpec(), undescribed);
        assertEquals(List.of(), undescribed, "options without a description");
        String usage = new CommandLine(new AdminCli()).getSubcommands().get("key").getSubcommands().get("create").getUsageMessage().replaceAll("\\s+", " ");
        for (String role : Roles.ALL) {
            assertTrue(usage.contains(role), "key create --help names " + role + ": " + usage);
        }
    }

    private static void walk(CommandSpec spec, List<String> undescribed) {
        for (OptionSpec o : spec.options()) {
            if (!o.usageHelp() && !o.versionHelp() && String.join("", o.description()).isBlank()) {
                undescribed.add(spec.qualifiedName() + " " + o.longestName());
            }
        }
        spec.subcommands().values().forEach(sub -> walk(sub.getCommandSpec(), undescribed));
    }
}
