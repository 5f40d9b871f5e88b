package dev.attribution.query.commerce;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.attribution.api.JsonBody;
import dev.attribution.api.PageTokens;
import dev.attribution.api.QueryParams;

import java.time.Instant;
import java.util.List;
import java.util.function.Function;

/**
 * Keyset position of a list ordered by a date then an id, carried in a signed page token bound to the account and
 * the query (spec 4.0: an altered, foreign or expired {@code pageId} is a 400).
 */
public record Keyset(Instant time, String id) {

    /** The position after which the requested page starts, or null for the first page. */
    public static Keyset read(QueryParams q, PageTokens tokens, String accountId, String fingerprint) {
        return q.string("pageId").map(token -> {
            JsonNode c = tokens.open(token, accountId, fingerprint, PageTokens.INVALID);
            return new Keyset(Instant.parse(c.get("t").asText()), c.get("id").asText());
        }).orElse(null);
    }

    /** A page of at most {@code pageSize} items from {@code rows} (fetched with one extra) and its next token. */
    public static <R, V> Page<V> page(List<R> rows, int pageSize, Function<R, Keyset> position, Function<List<R>, List<V>> render,
                                      PageTokens tokens, String accountId, String fingerprint) {
        List<R> shown = rows.size() > pageSize ? rows.subList(0, pageSize) : rows;
        String next = null;
        if (rows.size() > pageSize) {
            Keyset last = position.apply(shown.get(shown.size() - 1));
            ObjectNode cursor = JsonBody.mapper().createObjectNode().put("t", last.time().toString()).put("id", last.id());
            next = tokens.issue(accountId, fingerprint, cursor);
        }
        return new Page<>(render.apply(shown), next);
    }

    public record Page<V>(List<V> items, String nextPageId) {
    }
}
