package dev.attribution.server.compat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.JsonBody;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * What the npm package {@code n8n-nodes-hyros} 3.0.0 puts on the wire, byte for byte, written over a plain socket so
 * that nothing re-encodes it (GenericFunctions.js):
 * <ul>
 * <li>PUT with a non-empty body and a non-empty query goes through Node's {@code fetch} with a query string built by
 * hand, {@code `${k}=${v}`} joined with {@code &}, no URL-encoding at all; the WHATWG URL parser under fetch then only
 * percent-encodes space, {@code "}, {@code <}, {@code >}, {@code '} and non-ASCII, and cuts the query at {@code #}.
 * Headers: {@code API-Key}, {@code Content-Type: application/json}, {@code Accessible-Account-Id} when configured.</li>
 * <li>Everything else goes through n8n's {@code httpRequestWithAuthentication}: the query object serialised by the
 * {@code qs} package (RFC 3986: every byte outside {@code A-Za-z0-9-._~} percent-encoded, booleans and numbers as
 * JavaScript prints them), a JSON body only when the body object is non-empty, and the headers
 * {@code Content-Type: application/json}, {@code Accessible-Account-Id} (when configured) and {@code API-Key}.</li>
 * <li>"Return all" ({@code hyrosApiRequestAllItems}) sets {@code pageSize = 250}, keeps every other parameter and
 * follows {@code nextPageId} until it is absent, null or empty.</li>
 * </ul>
 * Query objects are {@link LinkedHashMap}s in the order the node fills them (JavaScript keeps insertion order).
 */
final class N8nClient {

    /** An answer: status, headers (lower-case names) and the body, parsed when it is JSON. */
    record Answer(String requestLine, int status, Map<String, String> headers, String raw, JsonNode body) {
        JsonNode result() {
            return body == null ? null : body.get("result");
        }

        @Override
        public String toString() {
            return requestLine + " -> " + status + " " + raw;
        }
    }

    private final String host;
    private final int port;
    private final String apiKey;
    private final String accessibleAccountId;
    /** Every request line this client sent, for the test's failure messages and the docs table. */
    final List<String> sent = new ArrayList<>();

    N8nClient(String baseUrl, String apiKey, String accessibleAccountId) {
        URI u = URI.create(baseUrl);
        this.host = u.getHost();
        this.port = u.getPort();
        this.apiKey = apiKey;
        this.accessibleAccountId = accessibleAccountId == null ? "" : accessibleAccountId.trim();
    }

    /** {@code hyrosApiRequest(method, endpoint, body, qs)}; {@code body} is JSON text or null for {@code {}}. */
    Answer request(String method, String endpoint, String body, Map<String, Object> qs) {
        String path = "/api/v1.0" + endpoint;
        boolean hasBody = body != null && !body.isBlank() && !body.trim().equals("{}");
        boolean hasQs = qs != null && !qs.isEmpty();
        Map<String, String> headers = new LinkedHashMap<>();
        if (method.equals("PUT") && hasBody && hasQs) {
            StringBuilder q = new StringBuilder();
            qs.forEach((k, v) -> q.append(q.length() == 0 ? "" : "&").append(k).append('=').append(js(v)));
            headers.put("API-Key", apiKey);
            headers.put("Content-Type", "application/json");
            if (!accessibleAccountId.isEmpty()) {
                headers.put("Accessible-Account-Id", accessibleAccountId);
            }
            return send(method, path + "?" + whatwgQuery(q.toString()), headers, body);
        }
        headers.put("Content-Type", "application/json");
        if (!accessibleAccountId.isEmpty()) {
            headers.put("Accessible-Account-Id", accessibleAccountId);
        }
        headers.put("API-Key", apiKey);
        String target = hasQs ? path + "?" + qsStringify(qs) : path;
        return send(method, target, headers, hasBody ? body : null);
    }

    Answer get(String endpoint, Map<String, Object> qs) {
        return request("GET", endpoint, null, qs);
    }

    /** {@code hyrosApiRequestAllItems}: every page's {@code result}, asserting each page answers 200. */
    List<JsonNode> all(String endpoint, Map<String, Object> qs) {
        Map<String, Object> q = qs == null ? new LinkedHashMap<>() : new LinkedHashMap<>(qs);
        q.put("pageSize", 250);
        List<JsonNode> out = new ArrayList<>();
        for (int page = 0; page < 200; page++) {
            Answer a = get(endpoint, q);
            if (a.status() != 200) {
                fail("return all of " + endpoint + ", page " + (page + 1) + ": " + a);
            }
            JsonNode items = a.result() == null || a.result().isNull() ? JsonBody.mapper().createArrayNode() : a.result();
            if (!items.isArray()) {
                out.add(items);
                return out;
            }
            items.forEach(out::add);
            JsonNode next = a.body().get("nextPageId");
            if (next == null || next.isNull() || next.asText().isEmpty()) {
                return out;
            }
            q.put("pageId", next.asText());
        }
        fail("return all of " + endpoint + " never ends: still a nextPageId after 200 pages");
        return out;
    }

    /** A JavaScript value as {@code String(v)} / template literals print it. */
    static String js(Object v) {
        if (v instanceof Double d) {
            return d == Math.rint(d) && !Double.isInfinite(d) ? Long.toString(d.longValue()) : d.toString();
        }
        return String.valueOf(v);
    }

    /** {@code qs.stringify(obj)} with its defaults (RFC 3986, {@code &}, no {@code ?}). */
    static String qsStringify(Map<String, Object> qs) {
        StringBuilder out = new StringBuilder();
        qs.forEach((k, v) -> {
            if (v == null) {
                return; // qs skips undefined; n8n never puts null here
            }
            out.append(out.length() == 0 ? "" : "&").append(rfc3986(k)).append('=').append(rfc3986(js(v)));
        });
        return out.toString();
    }

    private static String rfc3986(String s) {
        StringBuilder out = new StringBuilder();
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' || c == '~') {
                out.append((char) c);
            } else {
                out.append('%').append(String.format(Locale.ROOT, "%02X", c));
            }
        }
        return out.toString();
    }

    /** The query as {@code new URL()} leaves it for a special scheme: cut at {@code #}, the query set percent-encoded. */
    static String whatwgQuery(String q) {
        int hash = q.indexOf('#');
        if (hash >= 0) {
            q = q.substring(0, hash);
        }
        StringBuilder out = new StringBuilder();
        for (byte b : q.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if (c <= 0x20 || c >= 0x7f || c == '"' || c == '<' || c == '>' || c == '\'') {
                out.append('%').append(String.format(Locale.ROOT, "%02X", c));
            } else {
                out.append((char) c);
            }
        }
        return out.toString();
    }

    private Answer send(String method, String target, Map<String, String> headers, String body) {
        String line = method + " " + target;
        sent.add(line);
        byte[] payload = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        StringBuilder head = new StringBuilder(line).append(" HTTP/1.1\r\n");
        head.append("Host: ").append(host).append(':').append(port).append("\r\n");
        head.append("Accept: application/json, text/plain, */*\r\n");
        headers.forEach((k, v) -> head.append(k).append(": ").append(v).append("\r\n"));
        if (body != null || method.equals("PUT") || method.equals("POST")) {
            head.append("Content-Length: ").append(payload.length).append("\r\n");
        }
        head.append("Connection: close\r\n\r\n");
        try (Socket s = new Socket(host, port)) {
            s.setSoTimeout(60_000);
            OutputStream o = s.getOutputStream();
            o.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
            o.write(payload);
            o.flush();
            return parse(line, s.getInputStream());
        } catch (IOException e) {
            throw new AssertionError(line + " failed", e);
        }
    }

    private static Answer parse(String line, InputStream in) throws IOException {
        byte[] all = in.readAllBytes();
        String text = new String(all, StandardCharsets.ISO_8859_1);
        int end = text.indexOf("\r\n\r\n");
        if (end < 0) {
            throw new AssertionError(line + ": no HTTP response: " + text);
        }
        String[] lines = text.substring(0, end).split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
        }
        byte[] rest = java.util.Arrays.copyOfRange(all, end + 4, all.length);
        if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            rest = dechunk(rest);
        }
        String raw = new String(rest, StandardCharsets.UTF_8);
        JsonNode json = null;
        try {
            json = raw.isBlank() ? null : JsonBody.mapper().readTree(raw);
        } catch (IOException notJson) {
            // text/plain (tracking script): left null
        }
        return new Answer(line, status, headers, raw, json);
    }

    private static byte[] dechunk(byte[] in) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int i = 0;
        while (i < in.length) {
            int eol = i;
            while (eol + 1 < in.length && !(in[eol] == '\r' && in[eol + 1] == '\n')) {
                eol++;
            }
            String size = new String(in, i, eol - i, StandardCharsets.ISO_8859_1).split(";")[0].trim();
            int n = Integer.parseInt(size, 16);
            if (n == 0) {
                break;
            }
            out.write(in, eol + 2, n);
            i = eol + 2 + n + 2;
        }
        return out.toByteArray();
    }
}
