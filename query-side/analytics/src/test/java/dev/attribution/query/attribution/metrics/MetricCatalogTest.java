package dev.attribution.query.attribution.metrics;

import dev.attribution.query.attribution.metrics.MetricCatalog.Sum;
import dev.attribution.query.attribution.metrics.MetricCatalog.Totals;
import org.junit.jupiter.api.Test;

import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link MetricCatalog#reads}: the sums a report computes for the requested metrics (AttributionQuery leaves the others
 * out of its sales statement). A sum it leaves out must not matter to any requested metric, whatever the totals.
 */
class MetricCatalogTest {

    @Test
    void theSumsLeftOutDoNotChangeAnyMetric() {
        Random random = new Random(7);
        for (String field : MetricCatalog.NAMES) {
            Set<Sum> read = MetricCatalog.reads(List.of(field));
            for (int i = 0; i < 500; i++) {
                Totals t = randomTotals(random);
                Totals other = randomTotals(random);
                // the read sums of t, every other sum of another draw: zeros included, as a statement that did not
                // compute a sum leaves it
                for (Sum sum : Sum.values()) {
                    if (read.contains(sum)) {
                        sum.set(other, sum.of(t));
                    } else if (i % 2 == 0) {
                        sum.set(other, 0);
                    }
                }
                Object expected = MetricCatalog.value(field, t, "n", "p");
                Object actual = MetricCatalog.value(field, other, "n", "p");
                assertTrue(Objects.equals(expected, actual), field + " reads more than " + read + ": " + expected + " vs " + actual);
            }
        }
    }

    @Test
    void eachMetricReadsWhatItsFormulaNames() {
        assertEquals(EnumSet.of(Sum.REVENUE, Sum.RECURRING_REVENUE, Sum.AD_SPEND, Sum.CUSTOM_COST), MetricCatalog.reads(List.of("roas")));
        assertEquals(EnumSet.of(Sum.UNIQUE_CUSTOMERS, Sum.AD_SPEND, Sum.CUSTOM_COST), MetricCatalog.reads(List.of("cac")));
        assertEquals(EnumSet.of(Sum.GROSS_TOTAL, Sum.TAXES, Sum.SHIPPING, Sum.COST_OF_GOODS, Sum.HARD_COSTS, Sum.AD_SPEND, Sum.CUSTOM_COST),
                MetricCatalog.reads(List.of("net_profit")));
        assertEquals(EnumSet.of(Sum.SALES, Sum.LEADS, Sum.CLICKS), MetricCatalog.reads(List.of("name", "sales", "leads", "clicks")));
        assertEquals(EnumSet.noneOf(Sum.class), MetricCatalog.reads(List.of("name", "parent_name", "impressions")));
    }

    private static Totals randomTotals(Random random) {
        Totals t = new Totals();
        for (Sum sum : Sum.values()) {
            // small values too, so that zero denominators and equal pairs come up
            sum.set(t, random.nextInt(4) == 0 ? random.nextInt(3) : random.nextInt(2_000_000));
        }
        return t;
    }
}
