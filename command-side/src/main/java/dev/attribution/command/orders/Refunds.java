package dev.attribution.command.orders;

import dev.attribution.command.requests.WriteHandler;

/**
 * The refund rule of every write that takes a {@code refundedAmount} ({@code DELETE /orders/{id}},
 * {@code PUT /sales}): the amount refunded cannot exceed what was paid for what is refunded. One rule, one message.
 */
public final class Refunds {

    private Refunds() {
    }

    /** The message when {@code refundedAmount} exceeds the total of {@code what} ("order", "sale"). */
    public static String aboveTotal(String what) {
        return "refundedAmount cannot exceed the " + what + " total";
    }

    /**
     * {@code amountMinor} when it is no more than {@code totalMinor} (both in minor units of one currency); otherwise
     * the write fails with {@link #aboveTotal}.
     */
    public static long checked(long amountMinor, long totalMinor, String what) {
        if (amountMinor > totalMinor) {
            throw new WriteHandler.WriteFailure(aboveTotal(what));
        }
        return amountMinor;
    }
}
