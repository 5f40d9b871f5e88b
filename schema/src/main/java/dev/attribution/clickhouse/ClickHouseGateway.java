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

    /** Runs a statement that returns no rows (DDL, ALTER, OPTIMIZE). */
    void execute(String sql);

    /** Inserts rows, each a JSON object serialised on one line, into {@code table} of the configured database. */
    void insertJsonEachRow(String table, byte[] jsonLines);

    /** True when the server answers. */
    boolean ping();

    /** The database tables live in. */
    String database();

    @Override
    void close();
}
