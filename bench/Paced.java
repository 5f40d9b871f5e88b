import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;

/**
 * Sends POST /api/v1.0/leads at a fixed rate (open loop: the schedule does not wait for answers) and prints the
 * acceptance latencies. Run with the JDK's single-file launcher: java bench/Paced.java URL KEY RATE SECONDS.
 */
public class Paced {
    public static void main(String[] args) throws Exception {
        String url = args[0];
        String key = args[1];
        int rate = Integer.parseInt(args[2]);
        int seconds = Integer.parseInt(args[3]);
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
        ConcurrentLinkedQueue<Long> latencies = new ConcurrentLinkedQueue<>();
        List<CompletableFuture<?>> pending = new ArrayList<>();
        long start = System.nanoTime();
        long intervalNanos = 1_000_000_000L / rate;
        int total = rate * seconds;
        int failed[] = new int[1];
        Semaphore inFlight = new Semaphore(64); // bounded connections; when the server falls behind, sends run late
        int late = 0;
        for (int i = 0; i < total; i++) {
            long due = start + i * intervalNanos;
            long wait = due - System.nanoTime();
            if (wait > 0) {
                Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
            }
            if (!inFlight.tryAcquire()) {
                late++;
                inFlight.acquire();
            }
            String body = "{\"email\":\"paced-" + start + "-" + i + "@example.com\",\"firstName\":\"Paced\"}";
            long sent = System.nanoTime();
            pending.add(http.sendAsync(HttpRequest.newBuilder(URI.create(url + "/api/v1.0/leads"))
                            .header("API-Key", key).header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString())
                    .whenComplete((r, e) -> inFlight.release())
                    .thenAccept(r -> {
                        latencies.add(System.nanoTime() - sent);
                        if (r.statusCode() != 200) {
                            synchronized (failed) {
                                failed[0]++;
                            }
                        }
                    }));
        }
        CompletableFuture.allOf(pending.toArray(new CompletableFuture[0])).join();
        double elapsed = (System.nanoTime() - start) / 1e9;
        List<Long> sorted = new ArrayList<>(latencies);
        Collections.sort(sorted);
        System.out.printf("paced_sent=%d late_sends=%d paced_seconds=%.1f non_200=%d accept_p50_ms=%.2f accept_p99_ms=%.2f%n", total, late, elapsed,
                failed[0], sorted.get(sorted.size() / 2) / 1e6, sorted.get((int) (sorted.size() * 0.99)) / 1e6);
    }
}
