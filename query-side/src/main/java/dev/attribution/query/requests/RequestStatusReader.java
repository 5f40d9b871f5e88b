package dev.attribution.query.requests;

import dev.attribution.api.ApiDates;
import dev.attribution.api.JsonBody;
import io.micronaut.data.jdbc.runtime.JdbcOperations;
import io.micronaut.transaction.annotation.Transactional;
import jakarta.inject.Singleton;

import java.sql.ResultSet;
import java.sql.Timestamp;
import java.util.Optional;

/** Reads a request's status from the durable request log ({@code write_requests}). */
@Singleton
public class RequestStatusReader {

    private final JdbcOperations jdbc;

    public RequestStatusReader(JdbcOperations jdbc) {
        this.jdbc = jdbc;
    }

    @Transactional(readOnly = true)
    public Optional<RequestStatus> find(String accountId, String requestId) {
        return jdbc.prepareStatement("""
                SELECT id, status, event_type, error_message, created_at, processed_at, result::text AS result
                FROM write_requests WHERE account_id = ? AND id = ?""", ps -> {
            ps.setString(1, accountId);
            ps.setString(2, requestId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                String status = rs.getString("status");
                Timestamp processed = rs.getTimestamp("processed_at");
                String result = rs.getString("result");
                try {
                    return Optional.of(new RequestStatus(
                            rs.getString("id"),
                            status,
                            rs.getString("event_type"),
                            "FAILED".equals(status) ? rs.getString("error_message") : null,
                            ApiDates.formatUtc(rs.getTimestamp("created_at").toInstant()),
                            processed == null ? null : ApiDates.formatUtc(processed.toInstant()),
                            "PROCESSED".equals(status) && result != null ? JsonBody.mapper().readTree(result) : null));
                } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                    throw new IllegalStateException("stored result is not JSON", e);
                }
            }
        });
    }
}
