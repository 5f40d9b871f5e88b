package dev.attribution.query.attribution.models.scientific;

import dev.attribution.query.attribution.request.AttributionRequest;
import dev.attribution.clickhouse.RowBinaryInput;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The scientific chain's count over one range of leads, done in Java on the raw numbers {@link ChainTransitions}
 * reads from ClickHouse: each row is (lead_key, lead_check, number), a number being a click or a kept sale of the
 * window (time in the high 32 bits, then the sale / dropped / organic flags and the channel's code). The rows are
 * grouped by lead_key and sorted by number (a radix pass on the key, then a small sort per bucket: no hash table of a
 * million leads), and each lead's paths are cut, filtered and counted in one walk over its numbers — the rules of
 * docs/attribution-models.md ("Paths"; "How the paths are read" for ties and collisions).
 * <p>
 * A lead whose clicks share a second (versions of one click, or two clicks of one second) or whose rows carry two
 * lead_check values (two leads of one key) is "tied": it is not counted here, only named, and counted exactly by
 * {@link ChainTransitions}. The converting paths of untied leads with a window click on a requested entity are kept
 * whole (their numbers, by "lead_key:sale epoch"), so that the report needs no second read of them.
 */
public final class LeadPaths {

    /**
     * What the walk needs of the request: a converting path holds the clicks in [sale − back, sale], a
     * non-converting one those in [nonConvertingFrom, end]; {@code preferOrganic} null keeps every click, else the
     * clicks of that kind when the path has one (prioritize_organic / prioritize_paid); {@code detail[code]} marks
     * the channels whose converting paths are kept whole.
     */
    record Rules(long back, long nonConvertingFrom, long end, Boolean preferOrganic, boolean[] detail) {

        static Rules of(TouchPaths.Window w, AttributionRequest.SourceConfiguration sources, boolean[] detail) {
            Boolean organic = switch (sources) {
                case prioritize_paid -> false;
                case prioritize_organic -> true;
                default -> null;
            };
            return new Rules(w.back(), w.nonConvertingFrom(), w.end(), organic, detail);
        }
    }

    /** Transition counts: (from state << 24 | to state) → count. */
    final Counts counts = new Counts();
    /** Converting paths of untied leads touching a detail channel: "lead_key:sale epoch" → the numbers of its window. */
    final Map<String, long[]> paths = new HashMap<>();
    /** Keys (unsigned decimal) of the tied leads, whose paths were not counted. */
    final Set<String> tied = new TreeSet<>();

    private final Rules rules;
    private long[] kept = new long[64];
    private long[] window = new long[64];

    private LeadPaths(Rules rules) {
        this.rules = rules;
    }

    /** Counts the paths of the leads of {@code rows} (a range's clicks and sales). */
    static LeadPaths count(Rows rows, Rules rules) {
        rows.sortByKeyAndNumber();
        LeadPaths out = new LeadPaths(rules);
        int n = rows.size;
        for (int from = 0, to; from < n; from = to) {
            to = from + 1;
            while (to < n && rows.key(to) == rows.key(from)) {
                to++;
            }
            out.lead(rows, from, to);
        }
        return out;
    }

    /** One lead's rows [from, to), sorted by number. */
    private void lead(Rows rows, int from, int to) {
        long key = rows.key(from);
        boolean tiedLead = false;
        boolean touching = false;
        long previousClick = -1;
        int nk = 0;
        int sales = 0;
        for (int i = from; i < to; i++) {
            long x = rows.number(i);
            tiedLead |= rows.check(i) != rows.check(from);
            if ((x & ChainTransitions.SALE) != 0) {
                sales++;
                continue;
            }
            // every raw row counts for ties and for touching (as clicks_by_ad would name the lead); only kept ones for paths
            tiedLead |= previousClick >= 0 && (previousClick >>> 32) == (x >>> 32);
            previousClick = x;
            int code = (int) (x & ChainTransitions.CHANNEL);
            touching |= code < rules.detail().length && rules.detail()[code];
            if ((x & ChainTransitions.DROPPED) == 0) {
                kept = grow(kept, nk);
                kept[nk++] = x;
            }
        }
        if (tiedLead) {
            tied.add(Long.toUnsignedString(key));
            return;
        }
        if (sales == 0) {
            path(key, nk, rules.nonConvertingFrom(), rules.end(), false, 0, false);
            return;
        }
        for (int i = from; i < to; i++) {
            long x = rows.number(i);
            if ((x & ChainTransitions.SALE) != 0) {
                long sale = x >>> 32;
                path(key, nk, sale - rules.back(), sale, true, sale, touching);
            }
        }
    }

    /** The path of the kept clicks in [lo, hi]: its transitions counted, and kept whole when {@code keep}. */
    private void path(long key, int nk, long lo, long hi, boolean converted, long sale, boolean keep) {
        int nw = 0;
        boolean preferred = false;
        for (int i = 0; i < nk; i++) {
            long t = kept[i] >>> 32;
            if (t >= lo && t <= hi) {
                window = grow(window, nw);
                window[nw++] = kept[i];
                preferred |= rules.preferOrganic() != null && organic(kept[i]) == rules.preferOrganic();
            }
        }
        if (nw == 0) {
            return;
        }
        long prev = ChainTransitions.START;
        for (int i = 0; i < nw; i++) {
            if (preferred && organic(window[i]) != rules.preferOrganic()) {
                continue;
            }
            long channel = window[i] & ChainTransitions.CHANNEL;
            counts.add(prev << ChainTransitions.FROM | channel, 1);
            prev = channel;
        }
        counts.add(prev << ChainTransitions.FROM | (converted ? ChainTransitions.CONVERSION : ChainTransitions.NULL), 1);
        if (keep) {
            paths.put(Long.toUnsignedString(key) + ":" + sale, java.util.Arrays.copyOf(window, nw));
        }
    }

    private static boolean organic(long number) {
        return (number & ChainTransitions.ORGANIC) != 0;
    }

    private static long[] grow(long[] a, int used) {
        return used < a.length ? a : java.util.Arrays.copyOf(a, a.length * 2);
    }

    /**
     * Rows of (lead_key, lead_check, number), stored side by side in one array (three longs a row: a row moved by the
     * sort is one cache line, not three).
     */
    static final class Rows {
        /**
         * Rows kept for the next request's ranges, at most one per range read at once: a range of a million leads is
         * ~50 MB of arrays, allocated again (and collected) per request otherwise. Bigger ones are not kept.
         */
        private static final java.util.concurrent.ConcurrentLinkedQueue<Rows> SPARE = new java.util.concurrent.ConcurrentLinkedQueue<>();
        private static final int KEPT_LONGS = 3 << 21;

        private static final int INITIAL_LONGS = 3 << 12;

        private long[] data = new long[INITIAL_LONGS];
        /** The sort's target, then the previous data: swapped with it on each sort. */
        private long[] other = new long[0];
        private int size;

        /** Empty rows: kept ones of an earlier request when there are, else new. {@link #release} them after use. */
        static Rows take() {
            Rows r = SPARE.poll();
            if (r == null) {
                return new Rows();
            }
            r.size = 0;
            return r;
        }

        /** Gives the arrays back for a later {@link #take} (this object must not be used after). */
        void release() {
            if (data.length <= KEPT_LONGS && other.length <= KEPT_LONGS && SPARE.size() < ChainTransitions.PARTS) {
                SPARE.add(this);
            }
        }

        long key(int i) {
            return data[3 * i];
        }

        long check(int i) {
            return data[3 * i + 1];
        }

        long number(int i) {
            return data[3 * i + 2];
        }

        /** Adds the rows of (lead_key, lead_check, number) of {@code in}. */
        Rows read(RowBinaryInput in) {
            while (in.hasMore()) {
                add(in.readLong(), in.readLong(), in.readLong());
            }
            return this;
        }

        private void add(long k, long c, long x) {
            if (3 * size == data.length) {
                // an empty range's sort may have left the empty spare array as data
                data = java.util.Arrays.copyOf(data, Math.max(INITIAL_LONGS, data.length * 2));
            }
            int at = 3 * size++;
            data[at] = k;
            data[at + 1] = c;
            data[at + 2] = x;
        }

        /**
         * Sorts by (key, number): one counting pass into buckets of a few rows each by high bits of the key (a hash,
         * so the buckets are even), then a small sort inside each bucket. Equal keys share a bucket, so a lead's
         * rows end up together, in number order.
         */
        void sortByKeyAndNumber() {
            int bits = Math.max(1, Math.min(20, 31 - Integer.numberOfLeadingZeros(Math.max(1, size / 8))));
            int buckets = 1 << bits;
            int[] start = new int[buckets + 1];
            for (int i = 0; i < size; i++) {
                start[bucket(data[3 * i], bits) + 1]++;
            }
            for (int b = 0; b < buckets; b++) {
                start[b + 1] += start[b];
            }
            int[] next = java.util.Arrays.copyOf(start, buckets);
            long[] sorted = other.length >= 3 * size ? other : new long[data.length];
            for (int i = 0; i < 3 * size; i += 3) {
                int at = 3 * next[bucket(data[i], bits)]++;
                sorted[at] = data[i];
                sorted[at + 1] = data[i + 1];
                sorted[at + 2] = data[i + 2];
            }
            other = data;
            data = sorted;
            for (int b = 0; b < buckets; b++) {
                sort(start[b], start[b + 1]);
            }
        }

        /** Sorts rows [lo, hi) by (key, number): insertion sort for a few rows, else a merge sort (a lead with many clicks). */
        private void sort(int lo, int hi) {
            if (hi - lo <= 32) {
                for (int i = lo + 1; i < hi; i++) {
                    long k = data[3 * i];
                    long c = data[3 * i + 1];
                    long x = data[3 * i + 2];
                    int j = i - 1;
                    while (j >= lo && before(k, x, data[3 * j], data[3 * j + 2])) {
                        data[3 * j + 3] = data[3 * j];
                        data[3 * j + 4] = data[3 * j + 1];
                        data[3 * j + 5] = data[3 * j + 2];
                        j--;
                    }
                    data[3 * j + 3] = k;
                    data[3 * j + 4] = c;
                    data[3 * j + 5] = x;
                }
                return;
            }
            int mid = (lo + hi) >>> 1;
            sort(lo, mid);
            sort(mid, hi);
            long[] left = java.util.Arrays.copyOfRange(data, 3 * lo, 3 * mid);
            int i = 0;
            int j = mid;
            int at = lo;
            while (i < left.length) {
                if (j < hi && before(data[3 * j], data[3 * j + 2], left[i], left[i + 2])) {
                    System.arraycopy(data, 3 * j++, data, 3 * at++, 3);
                } else {
                    System.arraycopy(left, i, data, 3 * at++, 3);
                    i += 3;
                }
            }
        }

        /** (k1, x1) sorts before (k2, x2). */
        private static boolean before(long k1, long x1, long k2, long x2) {
            return k1 < k2 || k1 == k2 && x1 < x2;
        }

        /**
         * The bits of the key right below its top bit (a range of ChainTransitions holds one value of the top bit): the
         * buckets follow the keys' order, so rows that arrive sorted (a ClickHouse part) are written in order.
         */
        private static int bucket(long key, int bits) {
            return (int) ((key << 1) >>> (64 - bits));
        }
    }

    /** Counts by a long key (open addressing, no boxing). */
    static final class Counts {
        private long[] keys = new long[1024];
        private long[] values = new long[1024];
        private boolean[] used = new boolean[1024];
        private int size;

        void add(long key, long n) {
            int i = slot(key);
            if (!used[i]) {
                used[i] = true;
                keys[i] = key;
                size++;
            }
            values[i] += n;
            if (size * 2 > keys.length) {
                rehash();
            }
        }

        void addAll(Counts other) {
            other.forEach(this::add);
        }

        void forEach(java.util.function.BiConsumer<Long, Long> each) {
            for (int i = 0; i < keys.length; i++) {
                if (used[i]) {
                    each.accept(keys[i], values[i]);
                }
            }
        }

        /** The slot of {@code key}: where it is, or the free one where it would go. */
        private int slot(long key) {
            int mask = keys.length - 1;
            int i = (int) (key * 0x9E3779B97F4A7C15L >>> 40) & mask;
            while (used[i] && keys[i] != key) {
                i = (i + 1) & mask;
            }
            return i;
        }

        private void rehash() {
            long[] oldKeys = keys;
            long[] oldValues = values;
            boolean[] oldUsed = used;
            keys = new long[oldKeys.length * 2];
            values = new long[oldKeys.length * 2];
            used = new boolean[oldKeys.length * 2];
            size = 0;
            for (int i = 0; i < oldKeys.length; i++) {
                if (oldUsed[i]) {
                    add(oldKeys[i], oldValues[i]);
                }
            }
        }
    }
}
