package dev.attribution.cdc;

import dev.attribution.clickhouse.ClickHouseGateway;
import dev.attribution.clickhouse.ClickHouseSql;

import java.time.Duration;
import java.time.Instant;

/**
 * {@code ALTER TABLE … DELETE} that returns once the rows are gone. 18.16 has no {@code mutations_sync} setting
 * (current releases do), so both are served the same way: run the mutation, then poll {@code system.mutations}
 * until no mutation of the table is pending.
 */
public final class Mutations {

    private static final Duration TIMEOUT = Duration.ofMinutes(10);

    private final ClickHouseGateway clickhouse;

    public Mutations(ClickHouseGateway clickhouse) {
        this.clickhouse = clickhouse;
    }

    /** Deletes the rows of {@code table} matching {@code where} and waits until the mutation is done. */
    public void delete(String table, String where) {
        clickhouse.execute("ALTER TABLE " + clickhouse.database() + "." + table + " DELETE WHERE " + where);
        awaitDone(table);
    }

    private void awaitDone(String table) {
        Instant deadline = Instant.now().plus(TIMEOUT);
        String pending = "SELECT count() AS n FROM system.mutations WHERE database = " + ClickHouseSql.str(clickhouse.database())
                + " AND table = " + ClickHouseSql.str(table) + " AND is_done = 0";
        while (clickhouse.select(pending).get(0).get("n").asLong() > 0) {
            if (Instant.now().isAfter(deadline)) {
                throw new IllegalStateException("ClickHouse mutation on " + table + " not done after " + TIMEOUT.toMinutes() + " minutes");
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
    }
}
