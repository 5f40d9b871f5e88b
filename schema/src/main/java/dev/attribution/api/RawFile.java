package dev.attribution.api;

/**
 * The body of an import endpoint: a file sent as the request body (CSV with a header row, or JSON lines), not a
 * JSON object. Used as a {@link RequestBodyType}.
 */
public record RawFile(String content) {
}
