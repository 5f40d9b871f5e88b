package dev.attribution.command.imports;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.function.Function;

/**
 * One INSERT run as a JDBC batch over typed rows: how a table's owner class writes many rows at once (its
 * {@code insertBulk}, used by the demo seed), without the SQL leaving the owner. Instants are bound as timestamps and
 * dates as SQL dates.
 */
public final class BatchInsert {

    private BatchInsert() {
    }

    /** Runs {@code sql} once per row, with the values {@code values} gives it in parameter order; nothing for no rows. */
    public static <R> void run(Connection c, String sql, List<R> rows, Function<R, Object[]> values) throws SQLException {
        if (rows.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (R row : rows) {
                Object[] v = values.apply(row);
                for (int i = 0; i < v.length; i++) {
                    ps.setObject(i + 1, v[i] instanceof Instant at ? Timestamp.from(at)
                            : v[i] instanceof LocalDate day ? java.sql.Date.valueOf(day) : v[i]);
                }
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }
}
