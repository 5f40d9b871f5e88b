package dev.attribution.server.support;

import dev.attribution.clickhouse.ClickHouseGateway;
import dev.attribution.clickhouse.ClickHouseSchema;
import dev.attribution.clickhouse.ClientV2Gateway;
import dev.attribution.testing.TestStack;
import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The two ClickHouse engines every query must agree on: the test stack's Debian 18.16 and a current release started
 * from {@code ../shared/tools/chdb-http} — each with a fresh database migrated to the whole schema, keyed
 * {@code "18.16"} and {@code "current"}. The tool is looked up beside the repository and its parents (a worktree or a
 * clone under another folder), then {@code $CHDB_HTTP_START}, then {@code /work/shared/tools/chdb-http/start}; when it
 * is nowhere, the calling test class is skipped (failed under {@code CI=true}).
 */
public final class TwoEngines implements AutoCloseable {

    private final Map<String, ClickHouseGateway> engines = new TreeMap<>();
    private final Map<String, String> urls = new TreeMap<>();
    private final Path chdbData;
    private final long chdbPid;

    private TwoEngines(Path chdbData, long chdbPid) {
        this.chdbData = chdbData;
        this.chdbPid = chdbPid;
    }

    /** Starts the current engine and creates database {@code <dbPrefix>_<unique>} on both, schema applied. */
    public static TwoEngines start(String dbPrefix) throws IOException, InterruptedException {
        Path tool = tool();
        if (!Files.isExecutable(tool) && !"true".equals(System.getenv("CI"))) {
            Assumptions.abort("chdb-http not found at " + tool);
        }
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path data = Files.createTempDirectory("chdb-" + dbPrefix + "-");
        Process starter = new ProcessBuilder("bash", tool.toString(), Integer.toString(port), data.toString())
                .redirectErrorStream(true).start();
        String out = new String(starter.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (starter.waitFor() != 0) {
            throw new IllegalStateException("chdb-http did not start: " + out);
        }
        String[] lines = out.split("\n");
        long pid = Long.parseLong(lines[lines.length - 1].trim());
        Runtime.getRuntime().addShutdownHook(new Thread(() -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroy)));
        TwoEngines two = new TwoEngines(data, pid);
        String db = dbPrefix + "_" + Long.toHexString(System.nanoTime());
        two.urls.put("18.16", TestStack.get().clickhouseUrl());
        two.urls.put("current", "http://127.0.0.1:" + port);
        two.urls.forEach((engine, url) -> two.engines.put(engine, new ClientV2Gateway(url, db, "default", "")));
        for (ClickHouseGateway g : two.engines.values()) {
            new ClickHouseSchema(g, false).migrate();
        }
        return two;
    }

    /** Both gateways, {@code "18.16"} then {@code "current"}. */
    public Map<String, ClickHouseGateway> engines() {
        return engines;
    }

    /** A gateway to another database of {@code engine} ("18.16" or "current"), not created nor migrated; the caller closes it. */
    public ClickHouseGateway other(String engine, String database) {
        return new ClientV2Gateway(urls.get(engine), database, "default", "");
    }

    private static Path tool() {
        List<Path> candidates = new ArrayList<>();
        for (Path up = repoRoot(); up != null && up.getParent() != null; up = up.getParent()) {
            candidates.add(up.resolveSibling("shared").resolve("tools/chdb-http/start"));
        }
        String env = System.getenv("CHDB_HTTP_START");
        if (env != null && !env.isBlank()) {
            candidates.add(Path.of(env));
        }
        candidates.add(Path.of("/work/shared/tools/chdb-http/start"));
        return candidates.stream().filter(Files::isExecutable).findFirst().orElse(candidates.get(0));
    }

    private static Path repoRoot() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.exists(p.resolve("scripts/lib/servers.sh"))) {
            p = p.getParent();
        }
        return p == null ? Path.of("").toAbsolutePath() : p;
    }

    @Override
    public void close() throws IOException {
        engines.values().forEach(ClickHouseGateway::close);
        ProcessHandle.of(chdbPid).ifPresent(ProcessHandle::destroy);
        try (var files = Files.walk(chdbData)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
