package dev.attribution.server.openapi;

import dev.attribution.api.Envelopes;
import dev.attribution.server.mcp.ApiOperation;
import io.micronaut.core.type.Argument;

/** The prose of the document: the API-wide rules (spec 2–8 in short) and each operation's generated details. */
final class OpenApiText {

    static final String INFO = """
            Self-hosted attribution and lead-tracking API (interface version 1.44).

            **Authentication**: every request sends its account's key in the `API-Key` header.

            **Writes are asynchronous**: a write is validated, stored durably and answered with
            `{"request_id": "...", "result": "OK"}`; poll `GET /requests/{id}` until its status is `PROCESSED` (or
            `FAILED`). An optional `Idempotency-Key` header makes a retry safe.

            **Lists**: list endpoints answer `{"result": [...], "nextPageId": "...", "request_id": "..."}`; pass
            `nextPageId` back as `pageId` for the next page; it is `null` on the last page. A list *parameter* is one
            value of comma-separated double-quoted items: `emails="a@example.com","b@example.com"`.

            **Dates** in parameters and bodies: `yyyy-MM-dd`, or `yyyy-MM-ddTHH:mm[:ss[.SSS]]` optionally followed by
            `Z` or `+HH:mm`. Filters read a date without an offset in the account's time zone; writes read it as UTC.
            Dates in responses use one of four encodings, named in each field's description: ISO 8601 with the
            account's offset (`2026-03-08T01:30:00-05:00`), ISO 8601 UTC (`2026-03-08T06:30:00Z`: request status,
            carts, webhooks), the legacy `EEE MMM dd HH:mm:ss zzz yyyy` (`Sun Mar 08 01:30:00 EST 2026`) and epoch
            milliseconds (`creationDate` of sources and ads).

            **Errors**: every 4xx answer is `{"result": "ERROR", "message": ["..."]}`. Rate limits are per account,
            endpoint and method; every authenticated response carries `X-RateLimit-Limit`, `X-RateLimit-Remaining`
            and `X-RateLimit-Reset`, and a 429 adds `Retry-After`.""";

    private OpenApiText() {
    }

    static String operation(ApiOperation op) {
        StringBuilder d = new StringBuilder();
        if (op.summary() != null) {
            d.append(op.summary()).append("\n\n");
        }
        d.append(op.role() == null ? "No role required." : "Role: `" + op.role() + "`.");
        if (op.query().enforcing()) {
            d.append(" Query parameters other than those listed, and repeated ones, are refused (`Unknown parameter`).");
        }
        d.append(" MCP tool: `").append(op.toolName()).append("`.");
        return d.toString();
    }

    static String tag(String tag) {
        return "Operations on `/" + tag + "`.";
    }

    static String success(ApiOperation op, Argument<?> returned) {
        if (returned.getType() == Envelopes.WriteAccepted.class) {
            return "Accepted: validated and stored; poll `GET /requests/{request_id}` for the outcome.";
        }
        if (returned.getType() == Envelopes.Page.class) {
            return "One page; `nextPageId` is null on the last page.";
        }
        return "OK";
    }
}
