package dev.attribution.command.sales;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.attribution.api.ApiDates;
import dev.attribution.api.ApiException;
import dev.attribution.api.JsonBody;
import dev.attribution.api.QueryParams;
import dev.attribution.api.auth.Caller;
import dev.attribution.command.commerce.CommerceInput;
import dev.attribution.command.orders.OrderWrites;
import dev.attribution.command.requests.WriteRequestLog;
import jakarta.inject.Singleton;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/** Validation of sale writes (spec 4.2): {@code PUT /sales} takes every input from the query string. */
@Singleton
public class SaleWrites {

    private final WriteRequestLog log;

    public SaleWrites(WriteRequestLog log) {
        this.log = log;
    }

    /** {@code PUT /sales?ids=...&isRefunded=...&refundedDate=...&refundedAmount=...&isRecurringSale=...}. */
    public CompletableFuture<String> update(Caller caller, QueryParams q) {
        List<String> ids = q.list("ids");
        if (ids.isEmpty()) {
            throw ApiException.badRequest("Missing required parameter: ids");
        }
        ObjectNode payload = JsonBody.mapper().createObjectNode();
        payload.set("ids", CommerceInput.strings(ids));
        q.bool("isRecurringSale").ifPresent(v -> payload.put("recurring", v));
        q.bool("isRefunded").ifPresent(v -> payload.put("refunded", v));
        q.string("refundedDate").ifPresent(d -> payload.put("refundedDate", ApiDates.parseWrite(d).toString()));
        q.string("refundedAmount").ifPresent(a -> payload.put("refundedAmount", OrderWrites.amount("refundedAmount", a).toPlainString()));
        return log.submit(caller.accountId(), "UPDATE_SALE", "sale:" + ids.get(0), payload);
    }

    /** {@code DELETE /sales/{id}}. */
    public CompletableFuture<String> delete(Caller caller, String id) {
        return log.submit(caller.accountId(), "DELETE_SALE", "sale:" + id, JsonBody.mapper().createObjectNode().put("id", id));
    }
}
