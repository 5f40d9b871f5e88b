package dev.attribution.server.admin;

import java.io.PrintStream;

/**
 * The one progress display of the admin commands, on stderr (stdout carries only the JSON result):
 * <ul>
 *   <li>{@link #update} with a known total: {@code leads [##########----------]  50%  50000/100000 rows}, redrawn in
 *       place, a new line per stage;</li>
 *   <li>{@link #count} without a total: {@code [....] 150,000 rows read (48,000 rows/s)}, then {@code [done] …}.</li>
 * </ul>
 * Quiet when {@code attribution.admin.progress=false}: scripts/admin sets that when its stderr is not a terminal (a
 * pipe or a log file gets no carriage-return redraws), and {@code --quiet} sets it too. On by default, so the commands
 * run inside a test show their progress to the test. A hand-written class: no maintained progress-bar library resolves
 * from the build's repositories (see docs/operations.md "Admin CLI").
 */
final class Progress {

    static final String ENABLED = "attribution.admin.progress";
    private static final int WIDTH = 30;

    private final PrintStream out;
    private final String unit;
    private final boolean on;
    private long started = System.nanoTime();
    /** Set by {@code --quiet} for the command being run ({@link AdminCli#run} resets it). */
    static volatile boolean quiet;
    private String stage;
    private long lastDrawn = -1;

    Progress(PrintStream out, String unit) {
        this.out = out;
        this.unit = unit;
        this.on = !quiet && !"false".equals(System.getProperty(ENABLED));
    }

    /** A display on this process's stderr. */
    static Progress of(String unit) {
        return new Progress(System.err, unit);
    }

    /** Counts rates from now (call it once the work starts, after the context is up). */
    Progress restart() {
        started = System.nanoTime();
        return this;
    }

    /** {@code done} of {@code total} in {@code stage}: a bar, redrawn when the percentage changes. */
    void update(String stage, long done, long total) {
        if (!on) {
            return;
        }
        if (this.stage != null && !this.stage.equals(stage)) {
            out.println();
            lastDrawn = -1;
        }
        this.stage = stage;
        int percent = total == 0 ? 100 : (int) Math.min(100, done * 100 / total);
        if (percent == lastDrawn && done != total) {
            return;
        }
        lastDrawn = percent;
        int filled = percent * WIDTH / 100;
        out.print("\r" + stage + " [" + "#".repeat(filled) + "-".repeat(WIDTH - filled) + "] "
                + String.format("%3d%%", percent) + "  " + done + "/" + total + " " + unit);
        out.flush();
    }

    /** A running count without a known total; {@code last} ends the line. */
    void count(long done, boolean last) {
        if (!on) {
            return;
        }
        double secs = Math.max(1e-3, (System.nanoTime() - started) / 1e9);
        out.printf("\r%s %,d %s (%,.0f %s/s)%s", last ? "[done]" : "[....]", done, unit, done / secs,
                unit.split(" ")[0], last ? "\n" : "");
        out.flush();
        stage = last ? null : "";
    }

    /** Ends a bar's line (nothing when nothing was drawn). */
    void finish() {
        if (on && stage != null) {
            out.println();
            stage = null;
        }
    }
}
