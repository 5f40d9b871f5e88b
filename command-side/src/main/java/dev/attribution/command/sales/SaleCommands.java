package dev.attribution.command.sales;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import dev.attribution.command.commerce.ItemJson;

import java.math.BigDecimal;
import java.util.List;

/** The sale commands (spec 4.2), checked by {@link SaleRules}; stored as the earlier versions' payloads were. */
public final class SaleCommands {

    private SaleCommands() {
    }

    /**
     * {@code PUT /sales} (UPDATE_SALE): the sales named get the flags sent ({@code isRecurringSale} as
     * {@code recurring}, {@code isRefunded} as {@code refunded}), the refund date as an ISO instant, the refunded
     * amount in decimal (earlier versions stored it as a string: {@link ItemJson.Stored}).
     */
    public record UpdateSales(List<String> ids, Boolean recurring, Boolean refunded, String refundedDate,
                              @JsonDeserialize(using = ItemJson.Stored.class) BigDecimal refundedAmount) {
    }

    /** {@code DELETE /sales/{id}} (DELETE_SALE). */
    public record DeleteSale(String id) {
    }
}
