package dev.attribution.server.reports;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.clickhouse.ClientV2Gateway;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The nodes of the test cluster that {@code scripts/cluster} runs in a temporary directory: queries per node, the script. */
final class ClusterNodes {

    private final String clusterName;
    private final String db;
    private final List<String> nodes;
    private final Path dir;
    private final int base;
    private final Path root;

    private ClusterNodes(String clusterName, String db, List<String> nodes, Path dir, int base, Path root) {
        this.clusterName = clusterName;
        this.db = db;
        this.nodes = nodes;
        this.dir = dir;
        this.base = base;
        this.root = root;
    }

    static ClusterNodes create(String clusterName, String db, List<String> nodes) throws java.io.IOException {
        return new ClusterNodes(clusterName, db, nodes, Files.createTempDirectory(Path.of("target").toAbsolutePath(), "cluster-"),
                freeBlock(), repoRoot());
    }

    /** The users.d directory of a node (its ClickHouse reloads files there within seconds). */
    Path usersDir(String n) {
        return dir.resolve(n).resolve("users.d");
    }

    List<JsonNode> on(String n, String sql) {
        try (ClientV2Gateway g = new ClientV2Gateway("http://127.0.0.1:" + http(n), db, "default", "")) {
            return g.select(sql);
        }
    }

    void exec(String n, String sql) {
        try (ClientV2Gateway g = new ClientV2Gateway("http://127.0.0.1:" + http(n), db, "default", "")) {
            g.execute(sql);
        }
    }

    int http(String n) {
        return base + nodes.indexOf(n) + 1;
    }

    void script(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("bash", root.resolve("scripts/cluster").toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().put("CLUSTER_DIR", dir.toString());
        pb.environment().put("CLUSTER_PORT", Integer.toString(base));
        pb.environment().put("CLUSTER_NAME", clusterName);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes());
        assertEquals(0, p.waitFor(), "scripts/cluster " + String.join(" ", args) + ":\n" + out);
    }

    /** A base port whose 25 successors (ZooKeeper, four nodes' HTTP, native and interserver ports) are free. */
    private static int freeBlock() {
        for (int attempt = 0; attempt < 50; attempt++) {
            int candidate = ThreadLocalRandom.current().nextInt(20000, 30000);
            boolean free = true;
            for (int p = candidate; p < candidate + 25 && free; p++) {
                try (ServerSocket s = new ServerSocket(p, 1, java.net.InetAddress.getLoopbackAddress())) {
                    s.setReuseAddress(true);
                } catch (Exception busy) {
                    free = false;
                }
            }
            if (free) {
                return candidate;
            }
        }
        throw new IllegalStateException("no free block of 25 ports");
    }

    private static Path repoRoot() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.exists(p.resolve("scripts/cluster"))) {
            p = p.getParent();
        }
        if (p == null) {
            throw new IllegalStateException("scripts/cluster not found above " + Path.of("").toAbsolutePath());
        }
        return p;
    }
}
