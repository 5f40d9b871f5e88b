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

/** A local webhook target on loopback: records every POST and answers 500 to the first {@code failures} of them. */
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

    WebhookReceiver() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            Map<String, List<String>> headers = new TreeMap<>();
            exchange.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(), List.copyOf(v)));
            int status = failures.getAndUpdate(n -> Math.max(0, n - 1)) > 0 ? 500 : 204;
            received.add(new Received(exchange.getRequestURI().getPath(), headers, body, status));
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
        });
        server.start();
    }

    String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    List<Received> at(String path) {
        return received.stream().filter(r -> r.path().equals(path)).toList();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
