package dev.attribution.query.attribution.models.scientific;

import dev.attribution.clickhouse.RowBinaryInput;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Java walk of the chain's count ({@link LeadPaths}) on hand-made RowBinary rows: grouping and order, windows,
 * the sourceConfiguration preference, dropped clicks, ties and key collisions, paths kept whole. The same rules are
 * checked end to end against the independent oracle by ApiWrittenAttributionTest (server module).
 */
class LeadPathsTest {

    private static final long A = 0xF000_0000_0000_0001L;   // an unsigned key above 2^63
    private static final long B = 42L;
    private static final long C = 7L;

    private final List<long[]> rows = new ArrayList<>();

    private void click(long key, long time, int channel, boolean organic, boolean dropped) {
        rows.add(new long[]{key, key * 31, time << 32 | (dropped ? ChainTransitions.DROPPED : 0) | (organic ? ChainTransitions.ORGANIC : 0) | channel});
    }

    private void sale(long key, long time) {
        rows.add(new long[]{key, key * 31, time << 32 | ChainTransitions.SALE});
    }

    private LeadPaths count(long back, Boolean preferOrganic, int... detail) {
        boolean[] marked = new boolean[10];
        for (int d : detail) {
            marked[d] = true;
        }
        ByteBuffer bytes = ByteBuffer.allocate(rows.size() * 24).order(ByteOrder.LITTLE_ENDIAN);
        rows.forEach(r -> bytes.putLong(r[0]).putLong(r[1]).putLong(r[2]));
        // as ChainTransitions does: rows taken from the kept ones, given back after the count
        LeadPaths.Rows taken = LeadPaths.Rows.take();
        try {
            return LeadPaths.count(taken.read(new RowBinaryInput(new ByteArrayInputStream(bytes.array()))),
                    new LeadPaths.Rules(back, 0, 10_000, preferOrganic, marked));
        } finally {
            taken.release();
        }
    }

    /** "from>to" → count, with S = START, C = CONVERSION, N = NULL. */
    private static Map<String, Long> transitions(LeadPaths counted) {
        Map<String, Long> out = new TreeMap<>();
        counted.counts.forEach((t, n) -> out.merge(state(t >>> ChainTransitions.FROM) + ">" + state(t & ChainTransitions.CHANNEL), n, Long::sum));
        return out;
    }

    private static String state(long s) {
        return s == ChainTransitions.START ? "S" : s == ChainTransitions.CONVERSION ? "C" : s == ChainTransitions.NULL ? "N" : String.valueOf(s);
    }

    @Test
    void pathsAreCutPerSaleInTimeOrderWhateverTheRowOrder() {
        sale(A, 250);
        click(A, 200, 2, false, false);
        click(B, 100, 2, true, false);
        click(A, 100, 1, false, false);
        click(A, 300, 3, false, false);   // after the only sale: in no path
        LeadPaths counted = count(1000, null);
        assertEquals(Map.of("S>1", 1L, "1>2", 1L, "2>C", 1L, "S>2", 1L, "2>N", 1L), transitions(counted));
        assertTrue(counted.tied.isEmpty());
    }

    @Test
    void aConvertingPathHoldsOnlyTheClicksOfItsLookBack() {
        click(A, 100, 1, false, false);
        click(A, 180, 2, false, false);
        sale(A, 200);
        sale(A, 400);
        assertEquals(Map.of("S>2", 1L, "2>C", 1L), transitions(count(50, null)));
    }

    @Test
    void thePreferredKindIsKeptWhenThePathHasOne() {
        click(A, 100, 1, true, false);
        click(A, 200, 2, false, false);
        sale(A, 300);
        click(B, 100, 3, true, false);
        sale(B, 300);
        assertEquals(Map.of("S>2", 1L, "2>C", 1L, "S>3", 1L, "3>C", 1L), transitions(count(1000, false)));
        assertEquals(Map.of("S>1", 1L, "1>C", 1L, "S>3", 1L, "3>C", 1L), transitions(count(1000, true)));
    }

    @Test
    void droppedClicksAreInNoPathButStillTieAndTouch() {
        click(A, 100, 1, false, true);
        click(A, 200, 2, false, false);
        sale(A, 300);
        LeadPaths counted = count(1000, null, 1);
        assertEquals(Map.of("S>2", 1L, "2>C", 1L), transitions(counted));
        assertArrayEquals(new long[]{200L << 32 | 2}, counted.paths.get(Long.toUnsignedString(A) + ":300"));
        rows.clear();
        click(A, 100, 1, false, true);
        click(A, 100, 2, false, false);
        sale(A, 300);
        assertEquals(java.util.Set.of(Long.toUnsignedString(A)), count(1000, null).tied);
    }

    @Test
    void tiedLeadsAndCollidingKeysAreNamedNotCounted() {
        click(A, 100, 1, false, false);
        click(A, 100, 1, false, false);   // two versions of one click, not merged yet
        click(B, 100, 1, false, false);
        rows.add(new long[]{B, 99, 200L << 32 | 2});   // another lead with B's key
        click(C, 100, 3, false, false);
        LeadPaths counted = count(1000, null);
        assertEquals(java.util.Set.of(Long.toUnsignedString(A), Long.toUnsignedString(B)), counted.tied);
        assertEquals(Map.of("S>3", 1L, "3>N", 1L), transitions(counted));
    }

    @Test
    void onlyTouchingLeadsKeepTheirConvertingPathsWhole() {
        click(A, 100, 1, false, false);
        click(A, 200, 2, false, false);
        sale(A, 300);
        click(B, 100, 3, false, false);
        sale(B, 300);
        LeadPaths counted = count(1000, null, 2);
        assertEquals(java.util.Set.of(Long.toUnsignedString(A) + ":300"), counted.paths.keySet());
        assertArrayEquals(new long[]{100L << 32 | 1, 200L << 32 | 2}, counted.paths.get(Long.toUnsignedString(A) + ":300"));
    }

    @Test
    void aLeadWithManyClicksIsSortedWhole() {
        for (int t = 500; t >= 1; t--) {
            click(A, t, t % 2 == 0 ? 1 : 2, false, false);
        }
        for (long k = 1000; k < 1200; k++) {
            click(k, 10, 3, false, false);
        }
        sale(A, 600);
        // 1 → 2 → 1 → … : 500 touches from 2 (t = 1), ending in 1 (t = 500)
        assertEquals(Map.of("S>2", 1L, "2>1", 250L, "1>2", 249L, "1>C", 1L, "S>3", 200L, "3>N", 200L), transitions(count(1000, null)));
    }

    @Test
    void anAnswerCutInsideARowIsAnError() {
        byte[] cut = new byte[30];
        assertThrows(UncheckedIOException.class, () -> new LeadPaths.Rows().read(new RowBinaryInput(new ByteArrayInputStream(cut))));
    }

    @Test
    void rowsOfAnEmptyRangeTakeRowsWhenKeptForTheNext() {
        LeadPaths.Rows kept = new LeadPaths.Rows();
        kept.sortByKeyAndNumber();
        ByteBuffer bytes = ByteBuffer.allocate(2 * 24).order(ByteOrder.LITTLE_ENDIAN);
        bytes.putLong(B).putLong(7).putLong(20).putLong(A).putLong(8).putLong(10);
        kept.read(new RowBinaryInput(new ByteArrayInputStream(bytes.array()))).sortByKeyAndNumber();
        assertEquals(B, kept.key(0));   // unsigned order: A is above 2^63
        assertEquals(A, kept.key(1));
    }

    @Test
    void rowsKeptFromABiggerRequestCountASmallerOneAlike() {
        for (long k = 1; k <= 5000; k++) {
            click(k, 100, (int) (k % 7) + 1, false, false);
            click(k, 200, 2, false, false);
            sale(k, 300);
        }
        Map<String, Long> big = transitions(count(1000, null));
        assertEquals(5000L, big.get("2>C"));
        // the same arrays again (both ranges' rows are given back), now holding fewer rows: none of the earlier ones shows
        rows.clear();
        click(A, 100, 1, false, false);
        click(A, 200, 3, false, false);
        sale(A, 250);
        click(B, 150, 4, false, false);
        assertEquals(Map.of("S>1", 1L, "1>3", 1L, "3>C", 1L, "S>4", 1L, "4>N", 1L), transitions(count(1000, null)));
        assertEquals(Map.of("S>1", 1L, "1>3", 1L, "3>C", 1L, "S>4", 1L, "4>N", 1L), transitions(count(1000, null)));
    }
}
