package dev.attribution.clickhouse;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;

/**
 * The one door to ClickHouse. Reads name their rows as JSON objects; writes send JSONEachRow batches.
 * Implementations must work against Debian's ClickHouse 18.16 and current releases alike: SQL passed here uses
 * no query parameters (18.16 has none), so callers build literals with {@link ClickHouseSql}.
 */
public interface ClickHouseGateway extends AutoCloseable {

    /** Runs a SELECT (without a FORMAT clause; the gateway adds {@code FORMAT JSONEachRow}) and returns its rows. */
    List<JsonNode> select(String sql);

    /**
     * Runs independent SELECTs at the same time (a report's sums over different tables: ClickHouse works on each with
     * its own threads, so the report takes about as long as the longest, not the sum) and returns their rows in the
     * order of {@code sqls}. The first failure is thrown as {@link #select} would throw it.
     */
    default List<List<JsonNode>> selectAll(List<String> sqls) {
        return sqls.stream().map(this::select).toList();
    }

    /**
     * Starts a SELECT whose rows are needed later (a report's independent statement, sent before the ones it does
     * not depend on); {@code get()} waits for its rows and throws what {@link #select} would throw.
     */
    default java.util.function.Supplier<List<JsonNode>> selectLater(String sql) {
        List<JsonNode> rows = select(sql);
        return () -> rows;
    }

    /**
     * Runs a SELECT whose rows are too many to read as JSON objects (millions of numbers): the gateway adds
     * {@code FORMAT RowBinary} and hands the answer to {@code reader} ({@link RowBinaryInput}). The server answers
     * only once the query has ended, so a failure is thrown as {@link #select} would throw it, never read as a cut
     * stream of rows.
     */
    <T> T selectRowBinary(String sql, java.util.function.Function<RowBinaryInput, T> reader);

    /** {@link #selectRowBinary}, started now and read by {@code get()}, as {@link #selectLater}. */
    default <T> java.util.function.Supplier<T> selectRowBinaryLater(String sql, java.util.function.Function<RowBinaryInput, T> reader) {
        T read = selectRowBinary(sql, reader);
        return () -> read;
    }

    /** Runs a statement that returns no rows (DDL, ALTER, OPTIMIZE). */
    void execute(String sql);

    /**
     * {@link #execute} waiting up to {@code timeout} instead of the usual limit: for the statements of a schema
     * migration that copy a whole table (the backfill of a table fed by a materialized view).
     */
    default void execute(String sql, java.time.Duration timeout) {
        execute(sql);
    }

    /** Inserts rows, each a JSON object serialised on one line, into {@code table} of the configured database. */
    void insertJsonEachRow(String table, byte[] jsonLines);

    /** True when the server answers. */
    boolean ping();

    /** The database tables live in. */
    String database();

    @Override
    void close();
}
