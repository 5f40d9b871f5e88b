package dev.attribution.cdc;

import java.util.List;

/**
 * Where changes go. The bridge hands over batches in WAL order and commits its offsets only after
 * {@link #write} returns, so a sink must be idempotent under replay (ClickHouse: versioned rows).
 * Debezium Server or Kafka Connect can replace the embedded engine in front of the same sink contract.
 */
public interface ChangeSink {

    void write(List<Change> changes);
}
