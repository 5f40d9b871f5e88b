package dev.attribution.command.requests;

import dev.attribution.server.support.ApiTest;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The worker's outcome UPDATE of the request log ({@link WriteRequestLog#finish}) is planned with each batch's real
 * arrays, never kept as a server-prepared statement: a generic plan cached while the log was small scanned the whole
 * log on every batch afterwards (docs/BENCHMARKS.md "The lead render's planning, and the outcome UPDATE's kept plan").
 */
@MicronautTest(transactional = false)
class OutcomeUpdatePlanTest extends ApiTest {

    @Test
    void theOutcomeUpdateIsNeverServerPreparedAndMarksEveryRequestOfTheBatch() throws Exception {
        String key = newAccount();
        List<String> requestIds = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            requestIds.add(sendWrite(key, "POST", "/api/v1.0/leads", "{\"email\":\"outcome-" + i + "@plan.test\"}"));
        }
        awaitAllProcessed(key, requestIds);
        try (Connection c = DelegatingDataSource.unwrapDataSource(ownDataSource).getConnection()) {
            c.setAutoCommit(false);
            try {
                List<Long> seqs = new ArrayList<>();
                try (PreparedStatement ps = c.prepareStatement("SELECT seq FROM write_requests WHERE id = ANY(?) ORDER BY seq")) {
                    ps.setArray(1, c.createArrayOf("text", requestIds.toArray()));
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            seqs.add(rs.getLong(1));
                        }
                    }
                }
                assertEquals(3, seqs.size());
                // more calls than pgjdbc's prepareThreshold (5), after which a statement is normally server-prepared
                for (int round = 0; round < 8; round++) {
                    List<WriteWorker.Outcome> outcomes = new ArrayList<>();
                    for (long seq : seqs.subList(0, 1 + round % 3)) {
                        outcomes.add(new WriteWorker.Outcome(seq, "FAILED", "round " + round, null));
                    }
                    WriteRequestLog.finish(c, outcomes, "SELECT 1");
                }
                try (PreparedStatement ps = c.prepareStatement(
                        "SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE '%UPDATE write_requests w SET status%'");
                     ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    assertEquals(0, rs.getLong(1), "the outcome UPDATE is not kept prepared on the connection");
                }
                try (PreparedStatement ps = c.prepareStatement(
                        "SELECT string_agg(status || ':' || error_message, ',' ORDER BY seq) FROM write_requests WHERE id = ANY(?)")) {
                    ps.setArray(1, c.createArrayOf("text", requestIds.toArray()));
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        // the last round (7) marked the first 2 of the batch; round 6 the first one, round 5 all 3
                        assertEquals("FAILED:round 7,FAILED:round 7,FAILED:round 5", rs.getString(1));
                    }
                }
            } finally {
                c.rollback();
            }
        }
    }
}
