package dev.attribution.command.emailevents;

import dev.attribution.command.imports.ImportProgress;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import jakarta.inject.Singleton;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

import javax.sql.DataSource;
import java.io.Reader;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static dev.attribution.command.imports.CopyText.escape;
import static dev.attribution.command.imports.CopyText.field;
import static dev.attribution.command.imports.CopyText.flush;

/**
 * Imports an email-event file for one account (docs/email-events.md), all or nothing, in one transaction, under a
 * per-account advisory lock (one import per account at a time):
 * <ol>
 *   <li>every row is streamed with {@code COPY} into a temporary staging table while the file is parsed;</li>
 *   <li>when the file names a message and type more than once, its last line wins;</li>
 *   <li>each row's lead is found by id, else by email (case-insensitive); erased leads are not found. Rows whose
 *       lead is not found are skipped and counted (their first line numbers are reported);</li>
 *   <li>the rest is merged into {@code lead_email_events}, keyed by (account, message id, type): a stored row is
 *       replaced (never doubled) and only when a value changed, so importing the same file twice writes nothing the
 *       second time.</li>
 * </ol>
 */
@Singleton
public class EmailEventImport {

    /** What an import did: rows read, events inserted or changed, rows skipped for an unknown lead. */
    public record Result(long rows, long eventsWritten, long unknownLeads, List<Long> unknownLeadLines, long millis) {
    }

    /** How many line numbers of unknown-lead rows a result lists. */
    public static final int UNKNOWN_LINES_LISTED = 10;
    private static final int FLUSH_CHARS = 1 << 18;

    private final DataSource dataSource;

    public EmailEventImport(DataSource dataSource) {
        this.dataSource = DelegatingDataSource.unwrapDataSource(dataSource);
    }

    public Result importFile(String accountId, Reader file) {
        return importFile(accountId, file, ImportProgress.NONE);
    }

    public Result importFile(String accountId, Reader file, ImportProgress progress) {
        long started = System.nanoTime();
        try (Connection c = dataSource.getConnection()) {
            boolean autoCommit = c.getAutoCommit();
            c.setAutoCommit(false);
            try {
                requireAccount(c, accountId);
                try (PreparedStatement lock = c.prepareStatement("SELECT pg_advisory_xact_lock(hashtext('email-import:' || ?))")) {
                    lock.setString(1, accountId);
                    lock.execute();
                }
                try (Statement s = c.createStatement()) {
                    s.execute("""
                            CREATE TEMP TABLE email_stage (line bigint, lead_id text, email text, message_id text, kind text,
                                occurred_at timestamptz, name text, provider text, resolved text) ON COMMIT DROP""");
                }
                long rows = stage(c, file, progress);
                progress.rows(rows, true);
                Result r = merge(c, accountId, rows, started);
                c.commit();
                return r;
            } catch (RuntimeException | SQLException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(autoCommit);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("email-event import failed: " + e.getMessage(), e);
        }
    }

    private static void requireAccount(Connection c, String accountId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM accounts WHERE id = ?")) {
            ps.setString(1, accountId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new IllegalArgumentException("no account " + accountId);
                }
            }
        }
    }

    /** Parses the file and streams its rows into {@code email_stage}; returns the number of rows. */
    private static long stage(Connection c, Reader file, ImportProgress progress) throws SQLException {
        CopyIn copy = c.unwrap(PGConnection.class).getCopyAPI().copyIn(
                "COPY email_stage (line, lead_id, email, message_id, kind, occurred_at, name, provider) FROM STDIN");
        StringBuilder buf = new StringBuilder(FLUSH_CHARS + 4096);
        long[] count = {0};
        try {
            long rows = EmailEventFileReader.read(file, row -> {
                if (++count[0] % ImportProgress.EVERY == 0) {
                    progress.rows(count[0], false);
                }
                buf.append(row.line()).append('\t');
                field(buf, row.leadId());
                field(buf, row.email());
                field(buf, row.messageId());
                field(buf, row.kind());
                buf.append(row.occurredAt()).append('\t');
                field(buf, row.name());
                escape(buf, row.provider());
                buf.append('\n');
                if (buf.length() >= FLUSH_CHARS) {
                    flush(copy, buf);
                }
            });
            flush(copy, buf);
            copy.endCopy();
            return rows;
        } finally {
            if (copy.isActive()) {
                copy.cancelCopy();
            }
        }
    }

    /** Last line wins per message and type, leads resolved, unknown leads counted, the rest upserted. */
    private static Result merge(Connection c, String accountId, long rows, long started) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("ANALYZE email_stage");
            s.execute("""
                    DELETE FROM email_stage s USING (
                        SELECT message_id, kind, max(line) AS last FROM email_stage
                        GROUP BY message_id, kind HAVING count(*) > 1) dup
                    WHERE s.message_id = dup.message_id AND s.kind = dup.kind AND s.line <> dup.last""");
        }
        exec(c, accountId, """
                UPDATE email_stage s SET resolved = l.id FROM leads l
                WHERE s.lead_id <> '' AND l.account_id = ? AND l.id = s.lead_id AND NOT l.erased""");
        exec(c, accountId, """
                UPDATE email_stage s SET resolved = l.id FROM leads l
                WHERE s.lead_id = '' AND l.account_id = ? AND lower(l.email) = lower(s.email) AND NOT l.erased""");
        long unknown;
        List<Long> unknownLines = new ArrayList<>();
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*), (array_agg(line ORDER BY line))[1:" + UNKNOWN_LINES_LISTED
                     + "] FROM email_stage WHERE resolved IS NULL")) {
            rs.next();
            unknown = rs.getLong(1);
            Array lines = rs.getArray(2);
            if (lines != null) {
                for (Long line : (Long[]) lines.getArray()) {
                    unknownLines.add(line);
                }
            }
        }
        long written = exec(c, accountId, """
                INSERT INTO lead_email_events AS e (account_id, message_id, kind, lead_id, occurred_at, name, provider)
                SELECT ?, message_id, kind, resolved, occurred_at, name, provider FROM email_stage WHERE resolved IS NOT NULL
                ON CONFLICT (account_id, message_id, kind) DO UPDATE SET lead_id = EXCLUDED.lead_id,
                    occurred_at = EXCLUDED.occurred_at, name = EXCLUDED.name, provider = EXCLUDED.provider, imported_at = now()
                WHERE (e.lead_id, e.occurred_at, e.name, e.provider)
                      IS DISTINCT FROM (EXCLUDED.lead_id, EXCLUDED.occurred_at, EXCLUDED.name, EXCLUDED.provider)""");
        return new Result(rows, written, unknown, List.copyOf(unknownLines), (System.nanoTime() - started) / 1_000_000);
    }

    private static long exec(Connection c, String accountId, String sql) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, accountId);
            return ps.executeLargeUpdate();
        }
    }

    /** The lead's imported email events, gone with it ({@code DELETE /leads}, spec 3.2): this class is their only writer. */
    public static void eraseLead(Connection c, String accountId, String leadId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM lead_email_events WHERE account_id = ? AND lead_id = ?")) {
            ps.setString(1, accountId);
            ps.setString(2, leadId);
            ps.executeUpdate();
        }
    }
}
