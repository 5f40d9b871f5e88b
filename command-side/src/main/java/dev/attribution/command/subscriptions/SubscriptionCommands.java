package dev.attribution.command.subscriptions;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import dev.attribution.command.commerce.ItemJson;
import dev.attribution.command.commerce.PersonFields;
import dev.attribution.command.subscriptions.SubscriptionCreateBody.Periodicity;
import dev.attribution.command.subscriptions.SubscriptionCreateBody.Status;

import java.math.BigDecimal;
import java.util.List;

/**
 * The subscription commands (spec 4.13), checked by {@link SubscriptionRules}: dates as ISO instants, the
 * periodicity canonical. Stored as the earlier versions' payload was (which wrote the price as a string:
 * {@link ItemJson.Stored}).
 */
public final class SubscriptionCommands {

    private SubscriptionCommands() {
    }

    /** {@code POST /subscriptions} (CREATE_SUBSCRIPTION): an existing {@code subscriptionId} is updated. */
    public record CreateSubscription(Status status, String startDate,
                                     @JsonDeserialize(using = ItemJson.Stored.class) BigDecimal price,
                                     Periodicity periodicity, @JsonUnwrapped PersonFields person, String parentEmail,
                                     String planId, String name, String subscriptionId, String endDate, String cancelAtDate,
                                     String trialStartDate, String trialEndDate) {
    }

    /** {@code PUT /subscriptions} (UPDATE_SUBSCRIPTION): the subscriptions named by id or subscriptionId get the fields sent. */
    public record UpdateSubscriptions(List<String> ids, Status status,
                                      @JsonDeserialize(using = ItemJson.Stored.class) BigDecimal price, String name,
                                      String startDate, String endDate, String cancelAtDate, String trialStartDate,
                                      String trialEndDate) {
    }
}
