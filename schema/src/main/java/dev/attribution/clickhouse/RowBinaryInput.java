package dev.attribution.clickhouse;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The rows of a {@code FORMAT RowBinary} answer ({@link ClickHouseGateway#selectRowBinary}), read column by column
 * in the statement's order. Only the fixed-width types the readers need: {@code UInt64} / {@code Int64} as a Java
 * long (little-endian, an unsigned value keeps its bits). A row cut short by the end of the answer is an error.
 */
public final class RowBinaryInput {

    private static final VarHandle LITTLE_ENDIAN_LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final InputStream in;
    private final byte[] buf = new byte[1 << 16];
    private int pos;
    private int end;

    public RowBinaryInput(InputStream in) {
        this.in = in;
    }

    /** True when another row follows (the answer has not ended). */
    public boolean hasMore() {
        return pos < end || fill(1);
    }

    /** The next 8-byte column (UInt64, Int64) of the current row. */
    public long readLong() {
        if (end - pos < Long.BYTES && !fill(Long.BYTES)) {
            throw new UncheckedIOException(new IOException("ClickHouse answer ended inside a row"));
        }
        long v = (long) LITTLE_ENDIAN_LONG.get(buf, pos);
        pos += Long.BYTES;
        return v;
    }

    /** Reads until at least {@code need} bytes are buffered; false when the answer ends first. */
    private boolean fill(int need) {
        if (pos > 0) {
            System.arraycopy(buf, pos, buf, 0, end - pos);
            end -= pos;
            pos = 0;
        }
        try {
            while (end < need) {
                int n = in.read(buf, end, buf.length - end);
                if (n < 0) {
                    return false;
                }
                end += n;
            }
            return true;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
