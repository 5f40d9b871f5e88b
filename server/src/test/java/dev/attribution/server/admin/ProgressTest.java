package dev.attribution.server.admin;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The admin commands' one progress display (issue 24 point 5): a bar per stage with a known total, a running count
 * without one, nothing when scripts/admin says stderr is not a terminal or the command was given {@code --quiet}.
 */
class ProgressTest {

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    @AfterEach
    void reset() {
        System.clearProperty(Progress.ENABLED);
        Progress.quiet = false;
    }

    private String drawn() {
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aBarPerStageRedrawnWhenThePercentageChanges() {
        Progress p = new Progress(err, "leads");
        p.update("seeding acc_1", 0, 200);
        p.update("seeding acc_1", 1, 200);
        p.update("seeding acc_1", 100, 200);
        p.update("seeding acc_1", 200, 200);
        p.finish();
        String[] draws = drawn().split("\r", -1);
        assertEquals(4, draws.length, drawn());
        assertEquals("seeding acc_1 [###############---------------]  50%  100/200 leads", draws[2]);
        assertEquals("seeding acc_1 [##############################] 100%  200/200 leads\n", draws[3]);
    }

    @Test
    void aRunningCountWithoutTotal() {
        Progress p = new Progress(err, "rows read");
        p.count(50_000, false);
        p.count(120_000, true);
        assertTrue(drawn().matches("(?s)\r\\[\\.\\.\\.\\.] 50,000 rows read \\([\\d,]+ rows/s\\)\r\\[done] 120,000 rows read \\([\\d,]+ rows/s\\)\n"), drawn());
    }

    @Test
    void quietWhenStderrIsNoTerminalOrWithQuiet() {
        System.setProperty(Progress.ENABLED, "false");
        Progress off = new Progress(err, "rows");
        off.update("t", 1, 2);
        off.count(3, true);
        off.finish();
        System.clearProperty(Progress.ENABLED);
        Progress.quiet = true;
        Progress quiet = new Progress(err, "rows");
        quiet.update("t", 1, 2);
        quiet.finish();
        assertEquals("", drawn());
        // --quiet is an option of every command; AdminCli.run resets it for the next command
        Progress.quiet = false;
        assertEquals(0, AdminCli.run(new String[]{"demo", "seed", "--quiet", "--help"}));
        assertTrue(Progress.quiet, "--quiet given after the subcommand");
        assertEquals(0, AdminCli.run(new String[]{"demo", "seed", "--help"}));
        assertTrue(!Progress.quiet, "reset by the next run");
    }
}
