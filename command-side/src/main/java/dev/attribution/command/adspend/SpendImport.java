package dev.attribution.command.adspend;

import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import jakarta.inject.Singleton;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

import javax.sql.DataSource;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Imports a spend file for one account (docs/ad-spend-import.md), all or nothing, in one transaction:
 * <ol>
 *   <li>stream the parsed rows into a temporary staging table with {@code COPY} (no per-row round trips);</li>
 *   <li>create the ad accounts, campaigns, ad sets, ads and keywords the rows name and the account lacks;</li>
 *   <li>upsert daily spend per (platform, ad, day): a row already stored is replaced, never added to, so importing
 *       the same file twice leaves the same totals; when a file repeats an ad and day, its last line wins. Rows of
 *       ads new to the account are inserted in bulk without key probes; rows of known ads are matched with hash
 *       joins (update what changed, insert what is missing), unchanged rows are not rewritten.</li>
 * </ol>
 * Imports of one account are serialized with a transaction-scoped advisory lock.
 */
@Singleton
public class SpendImport {

    /** Progress hook: called with the number of rows read so far (every {@link #PROGRESS_EVERY} rows, and at the end). */
    public interface Progress {
        void rows(long read, boolean done);

        Progress NONE = (read, done) -> { };
    }

    /** What an import did. */
    public record Result(long rows, long spendRows, long adAccounts, long campaigns, long adSets, long ads, long keywords,
                         long millis) {
    }

    public static final int PROGRESS_EVERY = 50_000;
    private static final int FLUSH_BYTES = 1 << 18;

    private final DataSource dataSource;

    public SpendImport(DataSource dataSource) {
        this.dataSource = DelegatingDataSource.unwrapDataSource(dataSource);
    }

    public Result importFile(String accountId, Reader file, Progress progress) {
        long started = System.nanoTime();
        try (Connection c = dataSource.getConnection()) {
            boolean autoCommit = c.getAutoCommit();
            c.setAutoCommit(false);
            try {
                String currency = accountCurrency(c, accountId);
                try (PreparedStatement lock = c.prepareStatement("SELECT pg_advisory_xact_lock(hashtext('spend-import:' || ?))")) {
                    lock.setString(1, accountId);
                    lock.execute(); // one import per account at a time: the insert below relies on it
                }
                try (Statement s = c.createStatement()) {
                    // sorts and hashes of a million staged rows stay in memory (default 4 MB spills to disk)
                    s.execute("SET LOCAL work_mem = '256MB'");
                    s.execute("""
                            CREATE TEMP TABLE spend_stage (line bigint, platform text, ad_account_id text, campaign_id text,
                              ad_set_id text, ad_id text, day date, spend numeric(18,2), impressions bigint, clicks bigint,
                              video_views bigint, reported_conversions numeric(18,2), reported_revenue numeric(18,2), currency text,
                              keyword_id text, keyword text, match_type text) ON COMMIT DROP""");
                }
                long rows = stage(c, file, currency, progress);
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
            throw new IllegalStateException("spend import failed: " + e.getMessage(), e);
        }
    }

    private static String accountCurrency(Connection c, String accountId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT currency FROM accounts WHERE id = ?")) {
            ps.setString(1, accountId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new IllegalArgumentException("no account " + accountId);
                }
                return rs.getString(1).trim();
            }
        }
    }

    /** COPY (text format) of every parsed row into spend_stage. */
    private static long stage(Connection c, Reader file, String currency, Progress progress) throws SQLException {
        CopyIn copy = c.unwrap(PGConnection.class).getCopyAPI().copyIn("COPY spend_stage FROM STDIN");
        StringBuilder buf = new StringBuilder(FLUSH_BYTES + 4096);
        long[] count = {0};
        try {
            SpendFileReader.read(file, currency, row -> {
                buf.append(row.line()).append('\t');
                field(buf, row.platform());
                field(buf, row.adAccountId());
                field(buf, row.campaignId());
                field(buf, row.adSetId());
                field(buf, row.adId());
                buf.append(row.day()).append('\t');
                buf.append(row.spend().toPlainString()).append('\t');
                buf.append(row.impressions()).append('\t').append(row.clicks()).append('\t').append(row.videoViews()).append('\t');
                buf.append(row.reportedConversions().toPlainString()).append('\t');
                buf.append(row.reportedRevenue().toPlainString()).append('\t');
                field(buf, row.currency());
                field(buf, row.keywordId());
                field(buf, row.keyword());
                escape(buf, row.matchType());
                buf.append('\n');
                if (buf.length() >= FLUSH_BYTES) {
                    flush(copy, buf);
                }
                if (++count[0] % PROGRESS_EVERY == 0) {
                    progress.rows(count[0], false);
                }
            });
            flush(copy, buf);
            copy.endCopy();
        } finally {
            if (copy.isActive()) {
                copy.cancelCopy();
            }
        }
        progress.rows(count[0], true);
        return count[0];
    }

    private static void flush(CopyIn copy, StringBuilder buf) {
        if (buf.length() == 0) {
            return;
        }
        byte[] bytes = buf.toString().getBytes(StandardCharsets.UTF_8);
        try {
            copy.writeToCopy(bytes, 0, bytes.length);
        } catch (SQLException e) {
            throw new IllegalStateException("COPY failed: " + e.getMessage(), e);
        }
        buf.setLength(0);
    }

    private static void field(StringBuilder buf, String value) {
        escape(buf, value);
        buf.append('\t');
    }

    /** COPY text format escaping. */
    private static void escape(StringBuilder buf, String value) {
        for (int i = 0; i < value.length(); i++) {
            char ch = value.charAt(i);
            switch (ch) {
                case '\\' -> buf.append("\\\\");
                case '\t' -> buf.append("\\t");
                case '\n' -> buf.append("\\n");
                case '\r' -> buf.append("\\r");
                default -> buf.append(ch);
            }
        }
    }

    private static Result merge(Connection c, String accountId, long rows, long started) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("ANALYZE spend_stage");
            // the ads the file names, one row each (parent ids from the ad's last line): every dimension comes from
            // this small table instead of another pass over the staged rows
            s.execute("""
                    CREATE TEMP TABLE spend_stage_ads ON COMMIT DROP AS
                    SELECT DISTINCT ON (platform, ad_id) platform, ad_id, ad_account_id, campaign_id, ad_set_id
                    FROM (SELECT platform, ad_id, ad_account_id, campaign_id, ad_set_id, max(line) AS line
                          FROM spend_stage GROUP BY platform, ad_id, ad_account_id, campaign_id, ad_set_id) per_parent
                    ORDER BY platform, ad_id, line DESC""");
        }
        long adAccounts = exec(c, accountId, """
                INSERT INTO ad_accounts (account_id, platform, ad_account_id)
                SELECT DISTINCT ?, platform, ad_account_id FROM spend_stage_ads ON CONFLICT DO NOTHING""");
        long campaigns = exec(c, accountId, """
                INSERT INTO ad_campaigns (account_id, platform, campaign_id, ad_account_id)
                SELECT DISTINCT ON (platform, campaign_id) ?, platform, campaign_id, ad_account_id FROM spend_stage_ads
                WHERE campaign_id <> '' ORDER BY platform, campaign_id ON CONFLICT DO NOTHING""");
        long adSets = exec(c, accountId, """
                INSERT INTO ad_sets (account_id, platform, ad_set_id, ad_account_id, campaign_id)
                SELECT DISTINCT ON (platform, ad_set_id) ?, platform, ad_set_id, ad_account_id, campaign_id FROM spend_stage_ads
                WHERE ad_set_id <> '' ORDER BY platform, ad_set_id ON CONFLICT DO NOTHING""");
        long ads = exec(c, accountId, """
                INSERT INTO ads (account_id, platform, ad_id, ad_account_id, campaign_id, ad_set_id)
                SELECT ?, platform, ad_id, ad_account_id, campaign_id, ad_set_id FROM spend_stage_ads
                ON CONFLICT DO NOTHING""");
        long keywords = exec(c, accountId, """
                INSERT INTO ad_keywords (account_id, platform, keyword_id, ad_set_id, keyword, match_type)
                SELECT DISTINCT ON (platform, keyword_id) ?, platform, keyword_id, ad_set_id, keyword, match_type FROM spend_stage
                WHERE keyword_id <> '' AND keyword <> '' ORDER BY platform, keyword_id, line DESC
                ON CONFLICT (account_id, platform, keyword_id) DO UPDATE SET keyword = EXCLUDED.keyword,
                  match_type = EXCLUDED.match_type, ad_set_id = EXCLUDED.ad_set_id""");
        dropDuplicateLines(c);
        try (Statement s = c.createStatement()) {
            // ads with stored spend: only their rows can collide with stored rows
            s.execute("ALTER TABLE spend_stage_ads ADD COLUMN known boolean");
        }
        exec(c, accountId, """
                UPDATE spend_stage_ads a SET known = EXISTS (SELECT 1 FROM ad_spend_daily d
                    WHERE d.account_id = ? AND d.platform = a.platform AND d.ad_id = a.ad_id)""");
        // rows of ads new to the account: a plain bulk insert, no per-row key probe
        long inserted = exec(c, accountId, """
                INSERT INTO ad_spend_daily (account_id, platform, ad_id, day, ad_account_id, campaign_id, ad_set_id,
                    spend, impressions, clicks, video_views, reported_conversions, reported_revenue, currency)
                SELECT ?, s.platform, s.ad_id, s.day, s.ad_account_id, s.campaign_id, s.ad_set_id, s.spend, s.impressions,
                    s.clicks, s.video_views, s.reported_conversions, s.reported_revenue, s.currency
                FROM spend_stage s JOIN spend_stage_ads a ON a.platform = s.platform AND a.ad_id = s.ad_id AND NOT a.known""");
        long updated = 0;
        boolean anyKnown;
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT bool_or(known) FROM spend_stage_ads")) {
            rs.next();
            anyKnown = rs.getBoolean(1);
        }
        if (anyKnown) {
            try (Statement s = c.createStatement()) {
                // a million key probes one by one is the slow plan; hash the two sides instead
                s.execute("SET LOCAL enable_nestloop = off");
            }
            updated = exec(c, accountId, """
                    UPDATE ad_spend_daily d SET ad_account_id = s.ad_account_id, campaign_id = s.campaign_id,
                        ad_set_id = s.ad_set_id, spend = s.spend, impressions = s.impressions, clicks = s.clicks,
                        video_views = s.video_views, reported_conversions = s.reported_conversions,
                        reported_revenue = s.reported_revenue, currency = s.currency, updated_at = now()
                    FROM spend_stage s
                    WHERE d.account_id = ? AND d.platform = s.platform AND d.ad_id = s.ad_id AND d.day = s.day
                      AND (d.spend, d.impressions, d.clicks, d.video_views, d.reported_conversions, d.reported_revenue,
                           d.currency, d.ad_account_id, d.campaign_id, d.ad_set_id)
                      IS DISTINCT FROM (s.spend, s.impressions, s.clicks, s.video_views, s.reported_conversions,
                           s.reported_revenue, s.currency, s.ad_account_id, s.campaign_id, s.ad_set_id)""");
            inserted += exec2(c, accountId, """
                    INSERT INTO ad_spend_daily (account_id, platform, ad_id, day, ad_account_id, campaign_id, ad_set_id,
                        spend, impressions, clicks, video_views, reported_conversions, reported_revenue, currency)
                    SELECT ?, s.platform, s.ad_id, s.day, s.ad_account_id, s.campaign_id, s.ad_set_id, s.spend,
                        s.impressions, s.clicks, s.video_views, s.reported_conversions, s.reported_revenue, s.currency
                    FROM spend_stage s
                    JOIN spend_stage_ads a ON a.platform = s.platform AND a.ad_id = s.ad_id AND a.known
                    LEFT JOIN ad_spend_daily d ON d.account_id = ? AND d.platform = s.platform AND d.ad_id = s.ad_id
                        AND d.day = s.day
                    WHERE d.ad_id IS NULL""");
            try (Statement s = c.createStatement()) {
                s.execute("SET LOCAL enable_nestloop = on");
            }
        }
        long spend = updated + inserted;
        return new Result(rows, spend, adAccounts, campaigns, adSets, ads, keywords, (System.nanoTime() - started) / 1_000_000);
    }

    /** When the file repeats an (ad, day), keeps only its last line. */
    private static void dropDuplicateLines(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("""
                    DELETE FROM spend_stage s USING (
                        SELECT platform, ad_id, day, max(line) AS last FROM spend_stage
                        GROUP BY platform, ad_id, day HAVING count(*) > 1) dup
                    WHERE s.platform = dup.platform AND s.ad_id = dup.ad_id AND s.day = dup.day AND s.line <> dup.last""");
        }
    }

    private static long exec2(Connection c, String accountId, String sql) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, accountId);
            ps.setString(2, accountId);
            return ps.executeLargeUpdate();
        }
    }

    private static long exec(Connection c, String accountId, String sql) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, accountId);
            return ps.executeLargeUpdate();
        }
    }
}
