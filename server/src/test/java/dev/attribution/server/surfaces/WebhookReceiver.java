package dev.attribution.server.surfaces;

import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A local webhook target on loopback: records every POST, answers 500 to the first {@code failures} of them and
 * takes {@code slowMillis} to answer each of the first {@code slow} (a slow or overloaded target).
 */
final class WebhookReceiver implements AutoCloseable {

    record Received(String path, Map<String, List<String>> headers, String body, int answered) {
        String header(String name) {
            List<String> v = headers.get(name.toLowerCase());
            return v == null ? null : v.get(0);
        }
    }

    private final HttpServer server;
    final List<Received> received = new CopyOnWriteArrayList<>();
    final AtomicInteger failures = new AtomicInteger();
    final AtomicInteger slow = new AtomicInteger();
    volatile long slowMillis = 1500;

    WebhookReceiver() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            Map<String, List<String>> headers = new TreeMap<>();
            exchange.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(), List.copyOf(v)));
            if (slow.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                try {
                    Thread.sleep(slowMillis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            int status = failures.getAndUpdate(n -> Math.max(0, n - 1)) > 0 ? 500 : 204;
            received.add(new Received(exchange.getRequestURI().getPath(), headers, body, status));
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
        });
        server.start();
    }

    String url(String path) {
        return url("127.0.0.1", path);
    }

    /** This receiver's URL under another host name (one a test's resolver answers with loopback). */
    String url(String host, String path) {
        return "http://" + host + ":" + server.getAddress().getPort() + path;
    }

    List<Received> at(String path) {
        return received.stream().filter(r -> r.path().equals(path)).toList();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
