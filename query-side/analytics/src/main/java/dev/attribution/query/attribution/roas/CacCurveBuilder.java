package dev.attribution.query.attribution.roas;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The marginal-CAC curve from daily samples, in plain Java (no I/O), exactly as docs/marginal-cac.md states it:
 * <ol>
 * <li>sampled days = days with spend &gt; 0, sorted by spend ascending, ties by date ascending;</li>
 * <li>bucket count k = min(10, floor(sqrt(n))), at least 1; sizes differ by at most one: with n = k*q + r the last
 *     r buckets (the most expensive) hold q + 1 days;</li>
 * <li>per bucket: spendPerDay = S/d, avgCac = S/C (null when C = 0), marginalCac versus the previous bucket
 *     = (S_i*d_j - S_j*d_i) / (C_i*d_j - C_j*d_i) (the ratio of the spend-per-day and customers-per-day increases),
 *     null for the first bucket or when customers per day did not increase;</li>
 * <li>a bucket is wasteful when its spend per day is higher than the previous bucket's and either its customers per
 *     day are not (EXTRA_SPEND_WITHOUT_CUSTOMERS) or, with a ceiling, its marginal CAC is above the ceiling
 *     (MARGINAL_CAC_ABOVE_CEILING); the saturation point is the first bucket from which every bucket is wasteful.</li>
 * </ol>
 * Money is in cents; output values are rounded HALF_UP to 2 decimals.
 */
public final class CacCurveBuilder {

    public static final int MAX_BUCKETS = 10;
    public static final String NO_SPEND_DATA = "NO_SPEND_DATA";
    public static final String NO_CUSTOMERS = "NO_CUSTOMERS";
    public static final String INSUFFICIENT_DATA = "INSUFFICIENT_DATA";
    public static final String ABOVE_CEILING = "MARGINAL_CAC_ABOVE_CEILING";
    public static final String WITHOUT_CUSTOMERS = "EXTRA_SPEND_WITHOUT_CUSTOMERS";

    /** One day of the range: the entity's spend (cents) and the new customers whose credited click is on that day. */
    public record Day(LocalDate date, long spendCents, long newCustomers) {
    }

    /** One point of the curve (the wire shape of a {@code curve} item). */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record Bucket(BigDecimal spendPerDay, int days, long newCustomers, BigDecimal avgCac, BigDecimal marginalCac) {
    }

    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record Saturation(BigDecimal efficientSpendPerDay, BigDecimal saturatedSpendPerDay, String reason) {
    }

    public record Curve(int daysSampled, List<Bucket> buckets, Saturation saturation, List<String> notes) {
    }

    private CacCurveBuilder() {
    }

    /** Bucket sizes for n sampled days (docs: the bucket count rule). */
    public static int[] sizes(int n) {
        if (n == 0) {
            return new int[0];
        }
        int k = Math.max(1, Math.min(MAX_BUCKETS, (int) Math.floor(Math.sqrt(n))));
        int q = n / k;
        int r = n % k;
        int[] out = new int[k];
        for (int i = 0; i < k; i++) {
            out[i] = q + (i >= k - r ? 1 : 0);
        }
        return out;
    }

    /**
     * @param days        every day of the range (days without spend may be included with spend 0; they are not sampled)
     * @param ceilingCents the CAC ceiling in cents (fractional allowed), or null for none
     */
    public static Curve build(List<Day> days, BigDecimal ceilingCents) {
        List<Day> sampled = new ArrayList<>(days.stream().filter(d -> d.spendCents() > 0).toList());
        sampled.sort(Comparator.comparingLong(Day::spendCents).thenComparing(Day::date));
        List<String> notes = new ArrayList<>();
        int n = sampled.size();
        if (n == 0) {
            notes.add(NO_SPEND_DATA);
            return new Curve(0, List.of(), null, notes);
        }
        long customers = sampled.stream().mapToLong(Day::newCustomers).sum();
        if (customers == 0) {
            notes.add(NO_CUSTOMERS);
        }
        int[] sizes = sizes(n);
        if (sizes.length < 2) {
            notes.add(INSUFFICIENT_DATA);
        }
        long[] spend = new long[sizes.length];
        long[] cust = new long[sizes.length];
        int at = 0;
        for (int b = 0; b < sizes.length; b++) {
            for (int i = 0; i < sizes[b]; i++, at++) {
                spend[b] += sampled.get(at).spendCents();
                cust[b] += sampled.get(at).newCustomers();
            }
        }
        List<Bucket> buckets = new ArrayList<>();
        String[] waste = new String[sizes.length];
        for (int b = 0; b < sizes.length; b++) {
            BigDecimal perDay = cents(BigDecimal.valueOf(spend[b]).divide(BigDecimal.valueOf(sizes[b]), 10, RoundingMode.HALF_UP));
            BigDecimal avg = cust[b] == 0 ? null : cents(BigDecimal.valueOf(spend[b]).divide(BigDecimal.valueOf(cust[b]), 10, RoundingMode.HALF_UP));
            BigDecimal marginal = null;
            if (b > 0) {
                long num = spend[b] * sizes[b - 1] - spend[b - 1] * sizes[b];
                long den = cust[b] * sizes[b - 1] - cust[b - 1] * sizes[b];
                if (den > 0) {
                    BigDecimal m = BigDecimal.valueOf(num).divide(BigDecimal.valueOf(den), 10, RoundingMode.HALF_UP);
                    marginal = cents(m);
                    if (num > 0 && ceilingCents != null && m.compareTo(ceilingCents) > 0) {
                        waste[b] = ABOVE_CEILING;
                    }
                } else if (num > 0) {
                    waste[b] = WITHOUT_CUSTOMERS;
                }
            }
            buckets.add(new Bucket(perDay, sizes[b], cust[b], avg, marginal));
        }
        Saturation saturation = null;
        if (customers > 0 && sizes.length >= 2 && waste[sizes.length - 1] != null) {
            int first = sizes.length - 1;
            while (first > 1 && waste[first - 1] != null) {
                first--;
            }
            saturation = new Saturation(buckets.get(first - 1).spendPerDay(), buckets.get(first).spendPerDay(), waste[first]);
        }
        return new Curve(n, buckets, saturation, notes);
    }

    /** Cents (any scale) to money with 2 decimals, HALF_UP. */
    private static BigDecimal cents(BigDecimal cents) {
        return cents.movePointLeft(2).setScale(2, RoundingMode.HALF_UP);
    }
}
