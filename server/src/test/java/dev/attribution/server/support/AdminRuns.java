package dev.attribution.server.support;

import dev.attribution.server.admin.AdminCli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.stream.Collectors;

/**
 * Runs the admin CLI ({@code scripts/admin}) inside the test JVM with its standard output and error captured, one
 * command at a time (the streams are the JVM's). The command builds its own context from the system properties the
 * test set.
 */
public final class AdminRuns {

    private AdminRuns() {
    }

    /** A command's exit status and what it printed, log lines (those starting {@code HH:mm:ss.SSS}) left out. */
    public record Run(int exit, String out, String err) {
        /** The last JSON line printed: the command's result, or "" when it printed none. */
        public String lastJson() {
            return out.lines().filter(l -> l.startsWith("{")).reduce((a, b) -> b).orElse("");
        }
    }

    public static synchronized Run admin(String... args) {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        int exit;
        try {
            System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(e, true, StandardCharsets.UTF_8));
            exit = AdminCli.run(args);
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
        return new Run(exit, withoutLog(o), withoutLog(e));
    }

    private static String withoutLog(ByteArrayOutputStream stream) {
        return stream.toString(StandardCharsets.UTF_8).lines()
                .filter(l -> !l.matches("^\\d\\d:\\d\\d:\\d\\d\\.\\d{3} .*"))
                .collect(Collectors.joining("\n"));
    }
}
