package dev.attribution.command.orders;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits an order into one sale per item so that the parts add up exactly to the whole (docs/money.md). Pure: whole
 * minor units in, whole minor units out, no rounding anywhere but the largest-remainder allocation.
 *
 * <p>Order-level amounts ({@code shippingCost}, {@code taxes}, {@code orderDiscount}, {@code hardCost}) are spread
 * evenly over the items: each item gets the floor of its share, and the cents left over go one each to the items
 * with the largest remainders, earlier items first on ties (with even shares: the first {@code amount mod n} items).
 * Item amounts ({@code price}, {@code costOfGoods}, {@code taxes}) are per unit and multiplied by the quantity;
 * {@code itemDiscount} is per line.
 */
public final class OrderSplit {

    /** One order item, amounts in minor units; price, cost of goods and taxes per unit. */
    public record Item(long unitPrice, int quantity, long unitCostOfGoods, long unitTaxes, long itemDiscount) {
    }

    /** Order-level amounts in minor units. */
    public record Totals(long shippingCost, long taxes, long orderDiscount, long hardCost) {
        public static final Totals NONE = new Totals(0, 0, 0, 0);
    }

    /**
     * One sale's amounts: {@code gross} = unit price × quantity; {@code taxes} = item taxes × quantity + share of
     * the order taxes; {@code discount} = item discount + share of the order discount; {@code price} (revenue) =
     * gross + taxes + shipping − discount. {@code hardCost} is a cost, not revenue; {@code costOfGoods} is included
     * in the price.
     */
    public record Part(long gross, long taxes, long shipping, long discount, long hardCost, long costOfGoods, long price) {
    }

    private OrderSplit() {
    }

    public static List<Part> split(List<Item> items, Totals totals) {
        if (items.isEmpty()) {
            throw new IllegalArgumentException("an order has at least one item");
        }
        int n = items.size();
        long[] shipping = allocateEvenly(totals.shippingCost(), n);
        long[] taxes = allocateEvenly(totals.taxes(), n);
        long[] discount = allocateEvenly(totals.orderDiscount(), n);
        long[] hardCost = allocateEvenly(totals.hardCost(), n);
        List<Part> parts = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Item item = items.get(i);
            long gross = Math.multiplyExact(item.unitPrice(), item.quantity());
            long itemTaxes = Math.addExact(Math.multiplyExact(item.unitTaxes(), item.quantity()), taxes[i]);
            long itemDiscount = Math.addExact(item.itemDiscount(), discount[i]);
            long price = Math.subtractExact(Math.addExact(Math.addExact(gross, itemTaxes), shipping[i]), itemDiscount);
            parts.add(new Part(gross, itemTaxes, shipping[i], itemDiscount, hardCost[i],
                    Math.multiplyExact(item.unitCostOfGoods(), item.quantity()), price));
        }
        return parts;
    }

    /** The order's revenue: what the parts' prices add up to. */
    public static long total(List<Item> items, Totals totals) {
        long sum = 0;
        for (Item item : items) {
            sum = Math.addExact(sum, Math.multiplyExact(Math.addExact(item.unitPrice(), item.unitTaxes()), item.quantity()));
            sum = Math.subtractExact(sum, item.itemDiscount());
        }
        return sum + totals.shippingCost() + totals.taxes() - totals.orderDiscount();
    }

    /** {@code amount} in {@code n} even parts that add up to it exactly. */
    public static long[] allocateEvenly(long amount, int n) {
        long[] weights = new long[n];
        java.util.Arrays.fill(weights, 1);
        return allocate(amount, weights);
    }

    /**
     * Largest-remainder allocation of a non-negative {@code amount} in proportion to non-negative {@code weights}
     * (all zero: evenly). The parts add up to {@code amount} exactly; ties go to the earlier index.
     */
    public static long[] allocate(long amount, long[] weights) {
        if (amount < 0) {
            throw new IllegalArgumentException("negative amount " + amount);
        }
        int n = weights.length;
        BigInteger total = BigInteger.ZERO;
        for (long w : weights) {
            if (w < 0) {
                throw new IllegalArgumentException("negative weight " + w);
            }
            total = total.add(BigInteger.valueOf(w));
        }
        long[] w = weights;
        if (total.signum() == 0) {
            w = new long[n];
            java.util.Arrays.fill(w, 1);
            total = BigInteger.valueOf(n);
        }
        long[] parts = new long[n];
        BigInteger[] remainders = new BigInteger[n];
        long given = 0;
        BigInteger a = BigInteger.valueOf(amount);
        for (int i = 0; i < n; i++) {
            BigInteger[] qr = a.multiply(BigInteger.valueOf(w[i])).divideAndRemainder(total);
            parts[i] = qr[0].longValueExact();
            remainders[i] = qr[1];
            given += parts[i];
        }
        long left = amount - given;
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(order, (x, y) -> {
            int c = remainders[y].compareTo(remainders[x]);
            return c != 0 ? c : Integer.compare(x, y);
        });
        for (int k = 0; k < left; k++) {
            parts[order[k]]++;
        }
        return parts;
    }
}
