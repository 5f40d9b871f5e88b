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

    /**
     * The request {@code requestId} when the caller may read it (issue 22 item 23, docs/clients.md "Who owns a request
     * id"): a request belongs to the account it wrote to, and whoever may act on that account reads it, with or
     * without {@code Accessible-Account-Id}: the account itself ({@code accountId}, the header's target or the key
     * owner), the key owner ({@code ownerId}), and an agency with an APPROVED relation to an ACTIVE client. Any
     * other request is "not found", so ids of other accounts are not revealed.
     */
    @Transactional(readOnly = true)
    public Optional<RequestStatus> find(String accountId, String ownerId, String requestId) {
        return jdbc.prepareStatement("""
                SELECT id, status, event_type, error_message, created_at, processed_at, result::text AS result
                FROM write_requests r WHERE id = ? AND (account_id = ? OR account_id = ? OR EXISTS (
                    SELECT 1 FROM agency_links l JOIN accounts a ON a.id = l.client_id
                    WHERE l.agency_id = ? AND l.client_id = r.account_id AND l.state = 'APPROVED' AND a.state = 'ACTIVE'))""", ps -> {
            ps.setString(1, requestId);
            ps.setString(2, accountId);
            ps.setString(3, ownerId);
            ps.setString(4, ownerId);
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
