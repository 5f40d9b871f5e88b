package dev.attribution.command.sales;

import dev.attribution.api.ApiDates;
import dev.attribution.api.ApiException;
import dev.attribution.api.QueryParams;
import dev.attribution.command.orders.OrderRules;
import dev.attribution.command.sales.SaleCommands.UpdateSales;

import java.util.List;

/** The rules of sale writes (spec 4.2), each message written once; what passes is the command as stored. */
final class SaleRules {

    static final String NOT_FOUND = "Sale not found";

    private SaleRules() {
    }

    /** {@code PUT /sales?ids=...&isRefunded=...&refundedDate=...&refundedAmount=...&isRecurringSale=...}. */
    static UpdateSales update(QueryParams q) {
        List<String> ids = q.list("ids");
        if (ids.isEmpty()) {
            throw ApiException.badRequest("Missing required parameter: ids");
        }
        return new UpdateSales(ids, q.bool("isRecurringSale").orElse(null), q.bool("isRefunded").orElse(null),
                q.string("refundedDate").map(d -> ApiDates.parseWrite(d).toString()).orElse(null),
                q.string("refundedAmount").map(a -> OrderRules.amount("refundedAmount", a)).orElse(null));
    }

    /** The ordering key of a sale update: the first sale it names. */
    static String lane(UpdateSales u) {
        return "sale:" + u.ids().get(0);
    }
}
