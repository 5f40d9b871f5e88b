package dev.attribution.api;

/**
 * Answers given before any HTTP filter sees the request ({@link HttpFraming}): a request head Netty could not decode
 * (a request line over {@code max-initial-line-length}: 413) and an HTTP version the server does not speak (400). The
 * server counts and logs them like filtered answers (docs/operations.md), through the one bean implementing this.
 */
public interface UnfilteredAnswers {

    /** {@code method} as decoded (Netty's placeholder {@code GET} when the head could not be read). */
    void answered(String method, int status, long nanos);
}
