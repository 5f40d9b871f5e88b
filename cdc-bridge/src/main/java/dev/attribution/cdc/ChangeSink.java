package dev.attribution.cdc;

import java.util.List;

/**
 * Where changes go. The bridge hands over batches in WAL order and commits a batch's offsets only after its write
 * returned, so a sink must be idempotent under replay (ClickHouse: versioned rows).
 * Debezium Server or Kafka Connect can replace the embedded engine in front of the same sink contract.
 */
public interface ChangeSink {

    void write(List<Change> changes);

    /**
     * Splits {@link #write} in two: the work that needs only the changes (serialising them) runs now, on the
     * caller's thread; the returned write sends them, possibly on another thread while the caller prepares the next
     * batch. Writes run one at a time, in the order prepared. By default everything happens in the returned write.
     */
    default Runnable prepare(List<Change> changes) {
        return () -> write(changes);
    }
}
