package dev.attribution.server.platform;

import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 29 point 4: the rule scripts/up and scripts/down use to tell a live server from the pid file of a dead one
 * ({@code scripts/lib/servers.sh running PID ARG}): a live process whose command line holds ARG is running; a pid
 * that is gone, a zombie (killed, not yet reaped: after a kill -9 the JVM's pid was taken for a live server) and a
 * live process that is something else (a reused pid) are not.
 */
class ServerPidTest {

    private static final Path SERVERS = Path.of("..", "scripts", "lib", "servers.sh");

    private static int running(long pid, String arg) throws Exception {
        Process p = new ProcessBuilder("bash", SERVERS.toString(), "running", Long.toString(pid), arg)
                .redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "servers.sh running returned");
        return p.exitValue();
    }

    @Test
    void onlyALiveProcessWithTheArgumentIsRunning() throws Exception {
        assertTrue(Files.isRegularFile(SERVERS), SERVERS.toAbsolutePath().toString());
        Process sleeper = new ProcessBuilder("sleep", "300").start();
        try {
            assertEquals(0, running(sleeper.pid(), "300"), "live, its own command line");
            assertEquals(1, running(sleeper.pid(), "attribution-server.jar"), "live, but another program (a reused pid)");
        } finally {
            sleeper.destroyForcibly().waitFor();
        }
        assertEquals(1, running(sleeper.pid(), "300"), "killed and gone");
    }

    @Test
    void aZombieIsNotRunning() throws Exception {
        // a parent that never reaps its child: the child, once exited, stays a zombie while the parent sleeps
        Process parent = new ProcessBuilder("python3", "-c",
                "import os, sys, time\npid = os.fork()\nif pid == 0:\n    os._exit(0)\nprint(pid, flush=True)\ntime.sleep(300)")
                .start();
        try {
            long child = Long.parseLong(new BufferedReader(new InputStreamReader(parent.getInputStream(), StandardCharsets.UTF_8))
                    .readLine().trim());
            Path status = Path.of("/proc", Long.toString(child), "status");
            for (int i = 0; i < 100 && !Files.readString(status).contains("State:\tZ"); i++) {
                Thread.sleep(50);
            }
            assertTrue(Files.readString(status).contains("State:\tZ"), "the child is a zombie: " + Files.readString(status));
            assertEquals(1, running(child, "python3"), "a zombie is not a running server");
        } finally {
            parent.destroyForcibly().waitFor();
        }
    }
}
