package dev.attribution.server.support;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.JsonBody;
import dev.attribution.server.support.ServerProcesses.Server;

import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Samples each node's {@code /health} every 250 ms on a thread of its own: the answers that were not 200 with
 * the cdc component UP are kept (a request that timed out on a loaded machine is counted apart, not as one).
 */
public final class HealthSampler implements AutoCloseable {
    private final Map<Server, Integer> samples = new ConcurrentHashMap<>();
    private final Map<Server, List<String>> failures = new ConcurrentHashMap<>();
    private final Map<Server, Integer> timeouts = new ConcurrentHashMap<>();
    private volatile List<Server> sampled;
    private final Thread thread;
    private volatile boolean stop;

    public HealthSampler(List<Server> nodes) {
        sampled = List.copyOf(nodes);
        nodes.forEach(n -> failures.put(n, Collections.synchronizedList(new ArrayList<>())));
        thread = new Thread(this::run, "health-sampler");
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        while (!stop) {
            for (Server node : sampled) {
                try {
                    HttpResponse<String> r = ServerProcesses.send(node, null, "GET", "/health", null);
                    JsonNode cdc = JsonBody.mapper().readTree(r.body()).path("details").path("cdc");
                    if (r.statusCode() != 200 || !cdc.path("status").asText().equals("UP")) {
                        failures.get(node).add(Instant.now() + " " + r.statusCode() + " " + r.body());
                    }
                    samples.merge(node, 1, Integer::sum);
                } catch (Exception e) {
                    timeouts.merge(node, 1, Integer::sum);
                }
            }
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** From now on samples {@code node} only (the other is about to be killed). */
    public void only(Server node) {
        sampled = List.of(node);
    }

    public int samples(Server node) {
        return samples.getOrDefault(node, 0);
    }

    public List<String> failures(Server node) {
        if (timeouts.getOrDefault(node, 0) > 0) {
            System.out.println("nodes-test: " + timeouts.get(node) + " /health samples unanswered within 10 s");
        }
        return List.copyOf(failures.get(node));
    }

    @Override
    public void close() throws InterruptedException {
        stop = true;
        thread.join(20_000);
    }
}
