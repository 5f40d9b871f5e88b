package dev.attribution.cdc;

import java.util.Map;

/**
 * One row change as the sink sees it: the table, the row's columns (after-image, or before-image for a delete),
 * a version that only grows (the change's WAL position) and whether the row is gone.
 */
public record Change(String table, Map<String, Object> row, long version, boolean deleted, long sourceMillis) {
}
