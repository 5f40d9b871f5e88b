package dev.attribution.server.reports;

import dev.attribution.query.attribution.roas.CacCurveBuilder;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The curve builder alone (no I/O): the bucket count and remainder rule, ties, and 500 random histories against an
 * independent oracle written from docs/marginal-cac.md with per-day averages in double arithmetic.
 */
class CacCurveBuilderTest {

    static final LocalDate D0 = LocalDate.parse("2026-01-01");

    @Test
    void bucketSizes() {
        assertArrayEquals(new int[0], CacCurveBuilder.sizes(0));
        assertArrayEquals(new int[]{1}, CacCurveBuilder.sizes(1));
        assertArrayEquals(new int[]{3}, CacCurveBuilder.sizes(3));
        assertArrayEquals(new int[]{2, 2}, CacCurveBuilder.sizes(4));
        assertArrayEquals(new int[]{3, 3, 4}, CacCurveBuilder.sizes(10));
        assertArrayEquals(new int[]{4, 4, 4, 5}, CacCurveBuilder.sizes(17));
        assertArrayEquals(new int[]{10, 10, 10, 10, 10, 10, 10, 10, 10}, CacCurveBuilder.sizes(90));
        assertArrayEquals(new int[]{10, 10, 10, 10, 10, 10, 10, 11, 11}, CacCurveBuilder.sizes(92));
        assertArrayEquals(new int[]{36, 36, 36, 36, 36, 36, 36, 37, 37, 37}, CacCurveBuilder.sizes(363));
    }

    @Test
    void tiesGoByDateAndEqualLevelsAreNotWasteful() {
        // Four days at $10: two buckets of 2 with equal spend per day; the earlier dates (with the customers) come first.
        List<CacCurveBuilder.Day> days = List.of(new CacCurveBuilder.Day(D0.plusDays(3), 1000, 0), new CacCurveBuilder.Day(D0, 1000, 2),
                new CacCurveBuilder.Day(D0.plusDays(1), 1000, 1), new CacCurveBuilder.Day(D0.plusDays(2), 1000, 0),
                new CacCurveBuilder.Day(D0.plusDays(4), 0, 5));
        CacCurveBuilder.Curve c = CacCurveBuilder.build(days, BigDecimal.ZERO);
        assertEquals(4, c.daysSampled());
        assertEquals(3, c.buckets().get(0).newCustomers());
        assertEquals(0, c.buckets().get(1).newCustomers());
        assertNull(c.buckets().get(1).marginalCac());
        assertNull(c.saturation(), "no extra spend: not wasteful");
        assertEquals(List.of(), c.notes());
    }

    @Test
    void noSpendAndNoCustomers() {
        CacCurveBuilder.Curve none = CacCurveBuilder.build(List.of(new CacCurveBuilder.Day(D0, 0, 3)), null);
        assertEquals(List.of("NO_SPEND_DATA"), none.notes());
        assertEquals(0, none.buckets().size());
        CacCurveBuilder.Curve single = CacCurveBuilder.build(List.of(new CacCurveBuilder.Day(D0, 500, 0)), null);
        assertEquals(List.of("NO_CUSTOMERS", "INSUFFICIENT_DATA"), single.notes());
        assertEquals(1, single.buckets().size());
        assertNull(single.buckets().get(0).avgCac());
    }

    @Test
    void randomHistoriesMatchOracle() {
        Random rnd = new Random(42);
        int saturated = 0;
        for (int run = 0; run < 500; run++) {
            int n = rnd.nextInt(60);
            List<CacCurveBuilder.Day> days = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                long spend = rnd.nextInt(6) == 0 ? 0 : 100 + rnd.nextInt(rnd.nextBoolean() ? 5000 : 50) * 100L;
                days.add(new CacCurveBuilder.Day(D0.plusDays(i), spend, rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(1 + (int) (spend / 2000))));
            }
            BigDecimal ceiling = rnd.nextBoolean() ? null : BigDecimal.valueOf(rnd.nextInt(400) * 100L + 37);
            CacCurveBuilder.Curve got = CacCurveBuilder.build(days, ceiling);
            Oracle want = oracle(days, ceiling == null ? null : ceiling.doubleValue());
            String label = "run " + run + " " + days + " ceiling " + ceiling;
            assertEquals(want.sizes.size(), got.buckets().size(), label);
            for (int b = 0; b < want.sizes.size(); b++) {
                CacCurveBuilder.Bucket g = got.buckets().get(b);
                assertEquals(want.sizes.get(b), g.days(), label);
                assertEquals(want.customers.get(b), g.newCustomers(), label);
                close(want.perDay.get(b), g.spendPerDay(), label + " spendPerDay " + b);
                close(want.avg.get(b), g.avgCac(), label + " avgCac " + b);
                close(want.marginal.get(b), g.marginalCac(), label + " marginalCac " + b);
            }
            if (want.saturatedAt == null) {
                assertNull(got.saturation(), label);
            } else {
                saturated++;
                assertTrue(got.saturation() != null, label);
                close(want.perDay.get(want.saturatedAt), got.saturation().saturatedSpendPerDay(), label);
                close(want.perDay.get(want.saturatedAt - 1), got.saturation().efficientSpendPerDay(), label);
                assertEquals(want.reason, got.saturation().reason(), label);
            }
            assertEquals(want.notes, got.notes(), label);
        }
        assertTrue(saturated > 50, "the random histories reach saturation often enough: " + saturated);
    }

    private static void close(Double want, BigDecimal got, String label) {
        if (want == null) {
            assertNull(got, label);
        } else {
            assertTrue(got != null && Math.abs(want - got.doubleValue()) <= 0.0051, label + ": " + want + " vs " + got);
        }
    }

    static final class Oracle {
        List<Integer> sizes = new ArrayList<>();
        List<Long> customers = new ArrayList<>();
        List<Double> perDay = new ArrayList<>();
        List<Double> avg = new ArrayList<>();
        List<Double> marginal = new ArrayList<>();
        Integer saturatedAt;
        String reason;
        List<String> notes = new ArrayList<>();
    }

    /** docs/marginal-cac.md, read literally, in dollars and doubles. */
    static Oracle oracle(List<CacCurveBuilder.Day> all, Double ceilingCents) {
        Oracle o = new Oracle();
        List<CacCurveBuilder.Day> days = all.stream().filter(d -> d.spendCents() > 0)
                .sorted(Comparator.comparing(CacCurveBuilder.Day::spendCents).thenComparing(CacCurveBuilder.Day::date)).toList();
        int n = days.size();
        if (n == 0) {
            o.notes.add("NO_SPEND_DATA");
            return o;
        }
        long total = days.stream().mapToLong(CacCurveBuilder.Day::newCustomers).sum();
        if (total == 0) {
            o.notes.add("NO_CUSTOMERS");
        }
        int k = 1;
        while ((k + 1) * (k + 1) <= n && k < 10) {
            k++;
        }
        if (k < 2) {
            o.notes.add("INSUFFICIENT_DATA");
        }
        // Equal counts; the n mod k extra days go to the most expensive buckets.
        int from = 0;
        double[] spendPerDay = new double[k];
        double[] custPerDay = new double[k];
        for (int b = 0; b < k; b++) {
            int size = n / k + (b >= k - n % k ? 1 : 0);
            List<CacCurveBuilder.Day> bucket = days.subList(from, from + size);
            from += size;
            double spend = bucket.stream().mapToLong(CacCurveBuilder.Day::spendCents).sum() / 100.0;
            long c = bucket.stream().mapToLong(CacCurveBuilder.Day::newCustomers).sum();
            o.sizes.add(size);
            o.customers.add(c);
            spendPerDay[b] = spend / size;
            custPerDay[b] = (double) c / size;
            o.perDay.add(spendPerDay[b]);
            o.avg.add(c == 0 ? null : spend / c);
            o.marginal.add(b > 0 && custPerDay[b] - custPerDay[b - 1] > 1e-12
                    ? (spendPerDay[b] - spendPerDay[b - 1]) / (custPerDay[b] - custPerDay[b - 1]) : null);
        }
        String[] waste = new String[k];
        for (int b = 1; b < k; b++) {
            if (spendPerDay[b] - spendPerDay[b - 1] <= 1e-9) {
                continue;
            }
            if (o.marginal.get(b) == null) {
                waste[b] = "EXTRA_SPEND_WITHOUT_CUSTOMERS";
            } else if (ceilingCents != null && o.marginal.get(b) > ceilingCents / 100.0) {
                waste[b] = "MARGINAL_CAC_ABOVE_CEILING";
            }
        }
        if (total > 0) {
            for (int i = 1; i < k; i++) {
                boolean every = true;
                for (int j = i; j < k; j++) {
                    every &= waste[j] != null;
                }
                if (every) {
                    o.saturatedAt = i;
                    o.reason = waste[i];
                    break;
                }
            }
        }
        return o;
    }
}
