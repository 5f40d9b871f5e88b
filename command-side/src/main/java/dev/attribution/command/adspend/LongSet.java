package dev.attribution.command.adspend;

/** An open-addressing set of longs (keys of the rows already sent straight to the table). */
final class LongSet {
    private long[] slots = new long[1 << 12];
    private boolean[] used = new boolean[1 << 12];
    private int size;

    /** Adds {@code v}; false when it was already present. */
    boolean add(long v) {
        if (size * 2 >= slots.length) {
            grow();
        }
        int mask = slots.length - 1;
        int i = (int) (mix(v) & mask);
        while (used[i]) {
            if (slots[i] == v) {
                return false;
            }
            i = (i + 1) & mask;
        }
        used[i] = true;
        slots[i] = v;
        size++;
        return true;
    }

    private void grow() {
        long[] oldSlots = slots;
        boolean[] oldUsed = used;
        slots = new long[oldSlots.length * 2];
        used = new boolean[oldUsed.length * 2];
        size = 0;
        for (int i = 0; i < oldSlots.length; i++) {
            if (oldUsed[i]) {
                add(oldSlots[i]);
            }
        }
    }

    private static long mix(long v) {
        v ^= v >>> 33;
        v *= 0xff51afd7ed558ccdL;
        v ^= v >>> 33;
        return v;
    }
}
