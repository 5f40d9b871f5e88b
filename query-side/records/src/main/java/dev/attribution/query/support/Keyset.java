package dev.attribution.query.support;

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
        return read(q, tokens, accountId, fingerprint, PageTokens.INVALID);
    }

    /** Same, rejecting a bad token with {@code invalidMessage} (endpoints whose spec words it differently). */
    public static Keyset read(QueryParams q, PageTokens tokens, String accountId, String fingerprint, String invalidMessage) {
        return q.string("pageId").map(token -> {
            JsonNode c = tokens.open(token, accountId, fingerprint, invalidMessage);
            return new Keyset(Instant.parse(c.get("t").asText()), c.get("id").asText());
        }).orElse(null);
    }

    /** The signed page token that resumes after this position. */
    public String issue(PageTokens tokens, String accountId, String fingerprint) {
        ObjectNode cursor = JsonBody.mapper().createObjectNode().put("t", time.toString()).put("id", id);
        return tokens.issue(accountId, fingerprint, cursor);
    }

    /** The token resuming after {@code next}, or null when there is no next page. */
    public static String issue(Keyset next, PageTokens tokens, String accountId, String fingerprint) {
        return next == null ? null : next.issue(tokens, accountId, fingerprint);
    }

    /**
     * Rows fetched one past the page size, cut to the page: the shown rows, and the position of the last one when
     * there is more (the next page starts after it), else null.
     */
    public static <R> Cut<R> cut(List<R> rows, int pageSize, Function<R, Keyset> position) {
        if (rows.size() <= pageSize) {
            return new Cut<>(rows, null);
        }
        List<R> shown = rows.subList(0, pageSize);
        return new Cut<>(shown, position.apply(shown.get(pageSize - 1)));
    }

    /** A page of rows and the position after its last one (null on the last page). */
    public record Cut<R>(List<R> rows, Keyset next) {
    }

    /** A page of at most {@code pageSize} items from {@code rows} (fetched with one extra) and its next token. */
    public static <R, V> Page<V> page(List<R> rows, int pageSize, Function<R, Keyset> position, Function<List<R>, List<V>> render,
                                      PageTokens tokens, String accountId, String fingerprint) {
        Cut<R> cut = cut(rows, pageSize, position);
        return new Page<>(render.apply(cut.rows()), issue(cut.next(), tokens, accountId, fingerprint));
    }

    public record Page<V>(List<V> items, String nextPageId) {
    }
}
