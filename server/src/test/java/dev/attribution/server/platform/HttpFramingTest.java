package dev.attribution.server.platform;

import dev.attribution.server.support.ApiTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Input that is not HTTP/1.x the server can answer (issue 29 point 3), sent on raw sockets as a fuzzer or a broken
 * client would: another HTTP version gets a 400 envelope in HTTP/1.1 and a closed connection; a body with broken
 * chunked framing gets its answer and a closed connection at once, not a connection held until the idle timeout.
 * A read that waits 10 s counts as a hang.
 */
@MicronautTest(transactional = false)
class HttpFramingTest extends ApiTest {

    /** Everything the server sends until it closes the connection; fails if it keeps it open 10 s without closing. */
    private String exchange(String raw) throws IOException {
        try (Socket s = new Socket("127.0.0.1", server.getPort())) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write(raw.getBytes(StandardCharsets.ISO_8859_1));
            s.getOutputStream().flush();
            InputStream in = s.getInputStream();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buf = new byte[4096];
            try {
                for (int n; (n = in.read(buf)) >= 0; ) {
                    out.write(buf, 0, n);
                }
            } catch (SocketTimeoutException hang) {
                throw new AssertionError("the connection stayed open after: " + out.toString(StandardCharsets.UTF_8));
            }
            return out.toString(StandardCharsets.UTF_8);
        }
    }

    @Test
    void anotherHttpVersionIsRefusedIn11() throws IOException {
        for (String version : new String[]{"HTTP/9.9", "HTTP/2.0", "HTTP/1.2"}) {
            String answer = exchange("GET /api/v1.0/leads " + version + "\r\nHost: x\r\n\r\n");
            assertTrue(answer.startsWith("HTTP/1.1 400 "), version + ": " + answer);
            assertTrue(answer.endsWith("{\"result\":\"ERROR\",\"message\":[\"Unsupported HTTP version: " + version + "\"]}"), answer);
        }
    }

    @Test
    void http10And11AreServed() throws IOException {
        String key = newAccount();
        for (String version : new String[]{"HTTP/1.0", "HTTP/1.1"}) {
            String answer = exchange("GET /api/v1.0/user-info " + version + "\r\nHost: x\r\nAPI-Key: " + key
                    + "\r\nConnection: close\r\n\r\n");
            assertTrue(answer.startsWith(version + " 200 ") || answer.startsWith("HTTP/1.1 200 "), answer);
        }
    }

    @Test
    void brokenChunkedFramingIsAnsweredAndClosed() throws IOException {
        String noKey = exchange("POST /api/v1.0/leads HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                + "Transfer-Encoding: chunked\r\n\r\nzz\r\n{\"email\":\"a@b.c\"}\r\n0\r\n\r\n");
        assertTrue(noKey.startsWith("HTTP/1.1 401 ") || noKey.startsWith("HTTP/1.1 400 ") || noKey.isEmpty(), noKey);

        String key = newAccount();
        String withKey = exchange("POST /api/v1.0/leads HTTP/1.1\r\nHost: x\r\nAPI-Key: " + key + "\r\n"
                + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{\"email\":\"chunk@b.c\"}\r\n0\r\n\r\n");
        assertTrue(!withKey.startsWith("HTTP/1.1 200 ") && !withKey.contains(" 500 "), "a chunk longer than announced is not a write: " + withKey);
        assertEquals(0, get(key, "/api/v1.0/leads?emails=" + list("chunk@b.c")).body().get("result").size());
    }
}
