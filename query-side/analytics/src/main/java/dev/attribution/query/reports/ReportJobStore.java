package dev.attribution.query.reports;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.attribution.api.JsonBody;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import jakarta.inject.Singleton;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code report_jobs} table (V90): the only state of report generation, so any node can answer a poll and any
 * node's worker can run or resume a job. Every write to a running job is conditional on holding its lease.
 */
@Singleton
public class ReportJobStore {

    /** A job as stored. {@code rows} and {@code notes} are those of the parts done. */
    public record Job(String id, String accountId, String reportType, ZoneId zone, Map<String, String> parameters,
                      List<String> columns, String status, int partsTotal, int partsDone, ArrayNode rows, ArrayNode notes,
                      String error, int attempts, Instant createdAt, Instant startedAt, Instant finishedAt, Instant expiresAt) {

        /** Whole percent of parts done; 100 only when DONE. */
        public int progress() {
            if ("DONE".equals(status)) {
                return 100;
            }
            return partsTotal == 0 ? 0 : Math.min(99, partsDone * 100 / partsTotal);
        }
    }

    private static final String COLUMNS = "id, account_id, report_type, time_zone, parameters, columns, status, parts_total, "
            + "parts_done, rows_json, notes_json, error_message, attempts, created_at, started_at, finished_at, expires_at";

    /**
     * Rows as the report's GET writes them: money keeps its two decimals ({@code 120.50}, not {@code 120.5}); a
     * null metric is left out, as GET /attribution leaves it out.
     */
    static final ObjectMapper ROWS = JsonBody.mapper().copy()
            .configure(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES, false)
            .setSerializationInclusion(JsonInclude.Include.NON_NULL);

    private final DataSource dataSource;

    public ReportJobStore(DataSource dataSource) {
        // plain autocommit statements from the pool, outside any request transaction (like the write worker)
        this.dataSource = DelegatingDataSource.unwrapDataSource(dataSource);
    }

    /** Jobs waiting for a worker (PENDING) and being run (RUNNING), on every node. */
    public record Queue(long pending, long running) {
    }

    /** The queue (Prometheus {@code report_jobs{status=…}}), through the partial index of unfinished jobs. */
    public static Queue queue(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT count(*) FILTER (WHERE status = 'PENDING'), "
                + "count(*) FILTER (WHERE status = 'RUNNING') FROM report_jobs WHERE status IN ('PENDING', 'RUNNING')");
             ResultSet rs = ps.executeQuery()) {
            rs.next();
            return new Queue(rs.getLong(1), rs.getLong(2));
        }
    }

    void insert(String id, String accountId, String reportType, ZoneId zone, Map<String, String> parameters,
                List<String> columns, int partsTotal) {
        update("INSERT INTO report_jobs (id, account_id, report_type, time_zone, parameters, columns, parts_total) "
                + "VALUES (?, ?, ?, ?, ?, ?, ?)", id, accountId, reportType, zone.getId(), json(parameters), json(columns), partsTotal);
    }

    /** The job of this account, unless it expired; another account's job is not found. */
    public Optional<Job> find(String accountId, String id) {
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + " FROM report_jobs WHERE id = ? AND account_id = ? "
                     + "AND (expires_at IS NULL OR expires_at > clock_timestamp())")) {
            ps.setString(1, id);
            ps.setString(2, accountId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(job(rs)) : Optional.empty();
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Leases the oldest job that is PENDING and due, or RUNNING with its lease run out (its node died), to
     * {@code owner} for {@code lease}; skips rows another node is claiming.
     */
    Optional<Job> claim(String owner, Duration lease) {
        String sql = "UPDATE report_jobs SET status = 'RUNNING', lease_owner = ?, lease_until = clock_timestamp() + ? * interval '1 millisecond', "
                + "attempts = attempts + 1, started_at = coalesce(started_at, clock_timestamp()) WHERE id = (SELECT id FROM report_jobs "
                + "WHERE status IN ('PENDING', 'RUNNING') AND (lease_until IS NULL OR lease_until < clock_timestamp()) "
                + "ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING " + COLUMNS;
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, owner);
            ps.setLong(2, lease.toMillis());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(job(rs)) : Optional.empty();
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Saves the parts done so far and renews the lease; false when {@code owner} lost the lease. */
    boolean savePart(String id, String owner, int partsDone, ArrayNode rows, ArrayNode notes, Duration lease) {
        return update("UPDATE report_jobs SET parts_done = ?, rows_json = ?, notes_json = ?, "
                + "lease_until = clock_timestamp() + ? * interval '1 millisecond' WHERE id = ? AND lease_owner = ? AND status = 'RUNNING'",
                partsDone, rows.toString(), notes.toString(), lease.toMillis(), id, owner) == 1;
    }

    boolean finish(String id, String owner, Duration retention) {
        return update("UPDATE report_jobs SET status = 'DONE', lease_owner = NULL, lease_until = NULL, finished_at = clock_timestamp(), "
                + "expires_at = clock_timestamp() + ? * interval '1 millisecond' WHERE id = ? AND lease_owner = ? AND status = 'RUNNING'",
                retention.toMillis(), id, owner) == 1;
    }

    boolean fail(String id, String owner, String message, Duration retention) {
        return update("UPDATE report_jobs SET status = 'FAILED', error_message = ?, lease_owner = NULL, lease_until = NULL, "
                + "finished_at = clock_timestamp(), expires_at = clock_timestamp() + ? * interval '1 millisecond' "
                + "WHERE id = ? AND lease_owner = ? AND status = 'RUNNING'", message, retention.toMillis(), id, owner) == 1;
    }

    /** Gives a job back (this node stops, or a part failed): PENDING again, due after {@code delay}. */
    boolean release(String id, String owner, Duration delay) {
        return update("UPDATE report_jobs SET status = 'PENDING', lease_owner = NULL, lease_until = clock_timestamp() + ? * interval '1 millisecond' "
                + "WHERE id = ? AND lease_owner = ? AND status = 'RUNNING'", delay.toMillis(), id, owner) == 1;
    }

    /** Deletes finished jobs whose results expired; returns how many. */
    int deleteExpired() {
        return update("DELETE FROM report_jobs WHERE expires_at < clock_timestamp()");
    }

    private int update(String sql, Object... args) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                ps.setObject(i + 1, args[i]);
            }
            return ps.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Job job(ResultSet rs) throws SQLException {
        try {
            return new Job(rs.getString("id"), rs.getString("account_id"), rs.getString("report_type"), ZoneId.of(rs.getString("time_zone")),
                    JsonBody.mapper().readValue(rs.getString("parameters"), new TypeReference<java.util.LinkedHashMap<String, String>>() { }),
                    JsonBody.mapper().readValue(rs.getString("columns"), new TypeReference<List<String>>() { }),
                    rs.getString("status"), rs.getInt("parts_total"), rs.getInt("parts_done"),
                    (ArrayNode) ROWS.readTree(rs.getString("rows_json")),
                    (ArrayNode) JsonBody.mapper().readTree(rs.getString("notes_json")),
                    rs.getString("error_message"), rs.getInt("attempts"), instant(rs, "created_at"), instant(rs, "started_at"),
                    instant(rs, "finished_at"), instant(rs, "expires_at"));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("corrupt report job " + rs.getString("id"), e);
        }
    }

    private static Instant instant(ResultSet rs, String column) throws SQLException {
        Timestamp t = rs.getTimestamp(column);
        return t == null ? null : t.toInstant();
    }

    private static String json(Object value) {
        try {
            return JsonBody.mapper().writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A result row as stored: null metrics left out, decimals as computed. */
    static JsonNode tree(Map<String, Object> row) {
        Map<String, Object> present = new java.util.LinkedHashMap<>();
        row.forEach((k, v) -> {
            if (v != null) {
                present.put(k, v);
            }
        });
        return ROWS.valueToTree(present);
    }
}
