package dev.attribution.server.commerce;

import dev.attribution.command.orders.Money;
import dev.attribution.command.orders.OrderSplit;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Property test of the pure order split (docs/money.md) over thousands of generated orders, seeded so a failure
 * reproduces: in DECIMAL and INTEGER formats and several currencies, the item sales add up exactly to the order.
 */
class OrderSplitPropertyTest {

    private static final List<String> CURRENCIES = List.of("USD", "EUR", "JPY", "GBP", "KWD", "BRL");
    private static final long SEED = 20261123L;

    /** A generated order as a client writes it (amounts as sent, in one format and currency). */
    record Sent(String currency, String format, List<BigDecimal[]> items, int[] quantities, BigDecimal[] orderAmounts) {
    }

    @Test
    void itemSalesAlwaysSumExactlyToTheOrderTotals() {
        Random random = new Random(SEED);
        int checked = 0;
        for (int n = 0; n < 5000; n++) {
            Sent sent = generate(random);
            List<OrderSplit.Item> items = new ArrayList<>();
            for (int i = 0; i < sent.items().size(); i++) {
                BigDecimal[] a = sent.items().get(i);
                items.add(new OrderSplit.Item(minor(a[0], sent), sent.quantities()[i], minor(a[1], sent), minor(a[2], sent), minor(a[3], sent)));
            }
            OrderSplit.Totals totals = new OrderSplit.Totals(minor(sent.orderAmounts()[0], sent), minor(sent.orderAmounts()[1], sent),
                    minor(sent.orderAmounts()[2], sent), minor(sent.orderAmounts()[3], sent));
            List<OrderSplit.Part> parts = OrderSplit.split(items, totals);

            assertEquals(items.size(), parts.size());
            long shipping = 0, taxes = 0, discount = 0, hardCost = 0, price = 0, gross = 0, itemTaxes = 0, itemDiscounts = 0;
            for (int i = 0; i < parts.size(); i++) {
                OrderSplit.Part part = parts.get(i);
                OrderSplit.Item item = items.get(i);
                shipping += part.shipping();
                taxes += part.taxes();
                discount += part.discount();
                hardCost += part.hardCost();
                price += part.price();
                gross += item.unitPrice() * item.quantity();
                itemTaxes += item.unitTaxes() * item.quantity();
                itemDiscounts += item.itemDiscount();
                assertEquals(part.gross() + part.taxes() + part.shipping() - part.discount(), part.price());
                assertEquals(item.unitCostOfGoods() * item.quantity(), part.costOfGoods());
            }
            assertEquals(totals.shippingCost(), shipping, sent.toString());
            assertEquals(totals.taxes() + itemTaxes, taxes);
            assertEquals(totals.orderDiscount() + itemDiscounts, discount);
            assertEquals(totals.hardCost(), hardCost);
            assertEquals(gross + itemTaxes - itemDiscounts + totals.shippingCost() + totals.taxes() - totals.orderDiscount(), price);
            assertEquals(OrderSplit.total(items, totals), price);
            // even spread: shares of one order amount differ by at most one minor unit
            assertSpreadEvenly(parts.stream().mapToLong(OrderSplit.Part::shipping).toArray());
            assertSpreadEvenly(parts.stream().mapToLong(OrderSplit.Part::hardCost).toArray());
            // the decimals stored add up too, at the currency's scale
            BigDecimal stored = parts.stream().map(p -> Money.toDecimal(p.price(), sent.currency())).reduce(BigDecimal.ZERO, BigDecimal::add);
            assertEquals(Money.toDecimal(price, sent.currency()), stored);
            checked++;
        }
        assertEquals(5000, checked);
    }

    @Test
    void leftoverCentsGoToTheEarliestItems() {
        assertArrayEquals(new long[]{34, 33, 33}, OrderSplit.allocateEvenly(100, 3));
        assertArrayEquals(new long[]{1, 1, 0, 0}, OrderSplit.allocateEvenly(2, 4));
        assertArrayEquals(new long[]{0}, OrderSplit.allocateEvenly(0, 1));
    }

    @Test
    void weightedAllocationUsesLargestRemainders() {
        // 100 over weights 1:1:1:3 → 16.67, 16.67, 16.67, 50: the three .67 remainders get a cent each? 16*3+50 = 98 → +1 to the first two
        assertArrayEquals(new long[]{17, 17, 16, 50}, OrderSplit.allocate(100, new long[]{1, 1, 1, 3}));
        assertArrayEquals(new long[]{1, 0, 2}, OrderSplit.allocate(3, new long[]{1, 0, 2}));
        assertArrayEquals(new long[]{2, 1}, OrderSplit.allocate(3, new long[]{0, 0}));
    }

    @Test
    void integerFormatIsMinorUnitsOfTheCurrency() {
        assertEquals(1999, Money.toMinor("price", new BigDecimal("1999"), "INTEGER", "USD"));
        assertEquals(1999, Money.toMinor("price", new BigDecimal("19.99"), "DECIMAL", "USD"));
        assertEquals(500, Money.toMinor("price", new BigDecimal("500"), "INTEGER", "JPY"));
        assertEquals(new BigDecimal("500"), Money.toDecimal(500, "JPY"));
        assertEquals(123, Money.toMinor("price", new BigDecimal("1234"), "INTEGER", "KWD"), "fils held to the cent, half-even");
        assertEquals(2000, Money.toMinor("price", new BigDecimal("19.999"), "DECIMAL", "USD"));
    }

    private static void assertSpreadEvenly(long[] shares) {
        long min = Long.MAX_VALUE, max = Long.MIN_VALUE;
        for (long s : shares) {
            min = Math.min(min, s);
            max = Math.max(max, s);
        }
        assertTrue(max - min <= 1, "even spread within one minor unit");
    }

    private static long minor(BigDecimal amount, Sent sent) {
        return Money.toMinor("amount", amount, sent.format(), sent.currency());
    }

    private static Sent generate(Random random) {
        String currency = CURRENCIES.get(random.nextInt(CURRENCIES.size()));
        String format = random.nextBoolean() ? "DECIMAL" : "INTEGER";
        int n = 1 + random.nextInt(random.nextInt(10) == 0 ? 40 : 6);
        List<BigDecimal[]> items = new ArrayList<>();
        int[] quantities = new int[n];
        for (int i = 0; i < n; i++) {
            BigDecimal price = amount(random, format, 1_000_000);
            items.add(new BigDecimal[]{price, amount(random, format, 10_000), amount(random, format, 2_000), BigDecimal.ZERO});
            quantities[i] = 1 + random.nextInt(random.nextInt(5) == 0 ? 1000 : 4);
        }
        BigDecimal[] order = {amount(random, format, 50_000), amount(random, format, 50_000),
                amount(random, format, 5_000), amount(random, format, 20_000)};
        return new Sent(currency, format, items, quantities, order);
    }

    /** A non-negative amount in the format: whole minor units for INTEGER, up to 3 decimals for DECIMAL. */
    private static BigDecimal amount(Random random, String format, int maxMinor) {
        long minor = random.nextInt(4) == 0 ? 0 : random.nextInt(maxMinor);
        return format.equals("INTEGER") ? BigDecimal.valueOf(minor) : BigDecimal.valueOf(minor * 10L + random.nextInt(10), 3);
    }
}
