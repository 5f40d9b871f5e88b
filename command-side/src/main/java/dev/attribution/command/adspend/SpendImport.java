package dev.attribution.command.adspend;

import dev.attribution.command.imports.BatchInsert;
import dev.attribution.command.imports.ImportProgress;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import jakarta.inject.Singleton;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

import javax.sql.DataSource;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import static dev.attribution.command.imports.CopyText.escape;
import static dev.attribution.command.imports.CopyText.field;
import static dev.attribution.command.imports.CopyText.flush;

/**
 * Imports a spend file for one account (docs/ad-spend-import.md), all or nothing, in one transaction, under a
 * per-account advisory lock (one import per account at a time):
 * <ol>
 *   <li>an account without ads yet (its first import) takes the direct route: each row goes straight into
 *       {@code ad_spend_daily} with {@code COPY} while the file is still being parsed (no staging, no key probes);
 *       a row naming an ad and day the file already named is set aside in a temporary file;</li>
 *   <li>otherwise every row is streamed with {@code COPY} into a temporary staging table;</li>
 *   <li>staged (or set-aside) rows are merged with set-based statements: when a file repeats an ad and day its last
 *       line wins; a stored row is replaced (never added to) and only when a value changed, so importing the same
 *       file twice leaves the same totals and writes nothing the second time; missing rows are inserted;</li>
 *   <li>the ad accounts, campaigns, ad sets, ads ({@link AdHierarchy#fromSpendStage}, their one writer) and keywords
 *       the file names and the account lacks are created.</li>
 * </ol>
 */
@Singleton
public class SpendImport {

    /** Progress hook of a spend import (see {@link ImportProgress}). */
    public interface Progress extends ImportProgress {
        Progress NONE = (read, done) -> { };
    }

    /** What an import did: rows read, spend rows inserted or changed, dimension rows created, elapsed time. */
    public record Result(long rows, long spendRows, long adAccounts, long campaigns, long adSets, long ads, long keywords,
                         long millis) {
    }

    private static final int FLUSH_CHARS = 1 << 18;
    private static final String SPEND_COLUMNS = "account_id, platform, ad_id, day, ad_account_id, campaign_id, ad_set_id, "
            + "spend, impressions, clicks, video_views, reported_conversions, reported_revenue, currency";

    private final DataSource dataSource;

    public SpendImport(DataSource dataSource) {
        this.dataSource = DelegatingDataSource.unwrapDataSource(dataSource);
    }

    public Result importFile(String accountId, Reader file, Progress progress) {
        long started = System.nanoTime();
        Path deferred = null;
        try (Connection c = dataSource.getConnection()) {
            boolean autoCommit = c.getAutoCommit();
            c.setAutoCommit(false);
            try {
                String currency = accountCurrency(c, accountId);
                try (PreparedStatement lock = c.prepareStatement("SELECT pg_advisory_xact_lock(hashtext('spend-import:' || ?))")) {
                    lock.setString(1, accountId);
                    lock.execute();
                }
                try (Statement s = c.createStatement()) {
                    // sorts and hashes of a million staged rows stay in memory (default 4 MB spills to disk)
                    s.execute("SET LOCAL work_mem = '256MB'");
                }
                deferred = Files.createTempFile("spend-import-", ".copy");
                Set<String> known = knownAds(c, accountId);
                // an account without ads (the first import) takes the direct path; otherwise every row is staged
                boolean direct = known.isEmpty();
                if (!direct) {
                    createStage(c);
                }
                Pass pass = new Pass(accountId, known, direct);
                long rows = pass.stream(c, file, currency, deferred, progress);
                if (direct && Files.size(deferred) > 0) {
                    createStage(c);
                    copyFileIntoStage(c, deferred);
                }
                long changed = pass.direct + (direct && Files.size(deferred) == 0 ? 0 : mergeStage(c, accountId));
                Result r = dimensions(c, accountId, pass, rows, changed, started);
                c.commit();
                return r;
            } catch (RuntimeException | SQLException | IOException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(autoCommit);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("spend import failed: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            if (deferred != null) {
                try {
                    Files.deleteIfExists(deferred);
                } catch (IOException ignored) {
                    // a temp file left behind is harmless
                }
            }
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

    /** Ads the account already has ({@code platform TAB ad_id}); only their rows can meet stored spend rows. */
    private static Set<String> knownAds(Connection c, String accountId) throws SQLException {
        Set<String> known = new HashSet<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT platform, ad_id FROM ads WHERE account_id = ?")) {
            ps.setString(1, accountId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    known.add(rs.getString(1) + '\t' + rs.getString(2));
                }
            }
        }
        return known;
    }

    /** One pass over the file: routes each row, and remembers the ads and keywords it names. */
    private static final class Pass {
        final String accountId;
        final Set<String> known;
        final LongSet seen = new LongSet();
        final Map<String, String[]> ads = new LinkedHashMap<>();
        final Map<String, String[]> keywords = new LinkedHashMap<>();
        final boolean directPath;
        long direct;

        Pass(String accountId, Set<String> known, boolean directPath) {
            this.accountId = accountId;
            this.known = known;
            this.directPath = directPath;
        }

        long stream(Connection c, Reader file, String currency, Path deferred, Progress progress) throws SQLException, IOException {
            CopyIn copy = c.unwrap(PGConnection.class).getCopyAPI().copyIn(directPath
                    ? "COPY ad_spend_daily (" + SPEND_COLUMNS + ") FROM STDIN" : "COPY spend_stage FROM STDIN");
            StringBuilder buf = new StringBuilder(FLUSH_CHARS + 4096);
            long[] count = {0};
            try (BufferedWriter later = Files.newBufferedWriter(deferred, StandardCharsets.UTF_8)) {
                SpendFileReader.read(file, currency, row -> {
                    String ad = row.platform() + '\t' + row.adId();
                    ads.put(ad, new String[]{row.platform(), row.adId(), row.adAccountId(), row.campaignId(), row.adSetId(), row.adName()});
                    if (!row.keywordId().isEmpty() && !row.keyword().isEmpty()) {
                        keywords.put(row.platform() + '\t' + row.keywordId(), new String[]{row.platform(), row.keywordId(),
                                row.adSetId(), row.keyword(), row.matchType()});
                    }
                    if (!directPath) {
                        buf.append(row.line()).append('\t');
                        spendLine(buf, accountId, row);
                        if (buf.length() >= FLUSH_CHARS) {
                            flush(copy, buf);
                        }
                    } else if (!known.contains(ad) && seen.add(key(row))) {
                        spendLine(buf, accountId, row);
                        direct++;
                        if (buf.length() >= FLUSH_CHARS) {
                            flush(copy, buf);
                        }
                    } else {
                        StringBuilder line = new StringBuilder(160).append(row.line()).append('\t');
                        spendLine(line, accountId, row);
                        write(later, line);
                    }
                    if (++count[0] % ImportProgress.EVERY == 0) {
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
    }

    /** 64-bit key of (platform, ad, day); a collision only sends a row down the slower, equally correct path. */
    static long key(SpendRow row) {
        long h = 0xcbf29ce484222325L;
        for (String s : new String[]{row.platform(), row.adId()}) {
            for (int i = 0; i < s.length(); i++) {
                h = (h ^ s.charAt(i)) * 0x100000001b3L;
            }
            h = (h ^ 0xff) * 0x100000001b3L;
        }
        return h * 31 + row.day().toEpochDay();
    }

    private static void createStage(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TEMP TABLE spend_stage (line bigint, " + SPEND_COLUMNS.replace(", ", " text, ")
                    .replace("day text", "day date").replace("spend text", "spend numeric(18,2)")
                    .replace("impressions text", "impressions bigint").replace("clicks text", "clicks bigint")
                    .replace("video_views text", "video_views bigint")
                    .replace("reported_conversions text", "reported_conversions numeric(18,2)")
                    .replace("reported_revenue text", "reported_revenue numeric(18,2)") + " text) ON COMMIT DROP");
        }
    }

    private static void copyFileIntoStage(Connection c, Path deferred) throws SQLException, IOException {
        try (Reader in = Files.newBufferedReader(deferred, StandardCharsets.UTF_8)) {
            c.unwrap(PGConnection.class).getCopyAPI().copyIn("COPY spend_stage FROM STDIN", in);
        }
    }

    /** Merges the staged rows: last line wins, changed rows replaced, missing rows inserted; returns rows written. */
    private static long mergeStage(Connection c, String accountId) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("ANALYZE spend_stage");
            s.execute("""
                    DELETE FROM spend_stage s USING (
                        SELECT platform, ad_id, day, max(line) AS last FROM spend_stage
                        GROUP BY platform, ad_id, day HAVING count(*) > 1) dup
                    WHERE s.platform = dup.platform AND s.ad_id = dup.ad_id AND s.day = dup.day AND s.line <> dup.last""");
            // matching a million rows one key probe at a time is the slow plan; hash the two sides instead
            s.execute("SET LOCAL enable_nestloop = off");
        }
        long updated = exec(c, accountId, """
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
        long inserted = exec(c, accountId, """
                INSERT INTO ad_spend_daily (account_id, platform, ad_id, day, ad_account_id, campaign_id, ad_set_id,
                    spend, impressions, clicks, video_views, reported_conversions, reported_revenue, currency)
                SELECT s.account_id, s.platform, s.ad_id, s.day, s.ad_account_id, s.campaign_id, s.ad_set_id, s.spend,
                    s.impressions, s.clicks, s.video_views, s.reported_conversions, s.reported_revenue, s.currency
                FROM spend_stage s LEFT JOIN ad_spend_daily d ON d.account_id = ? AND d.platform = s.platform
                    AND d.ad_id = s.ad_id AND d.day = s.day
                WHERE d.ad_id IS NULL""");
        try (Statement s = c.createStatement()) {
            s.execute("SET LOCAL enable_nestloop = on");
        }
        return updated + inserted;
    }

    /** Creates the hierarchy rows and keywords the file named (from the ads and keywords collected in the pass). */
    private static Result dimensions(Connection c, String accountId, Pass pass, long rows, long changed, long started)
            throws SQLException, IOException {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TEMP TABLE spend_stage_ads (platform text, ad_id text, ad_account_id text, campaign_id text, "
                    + "ad_set_id text, ad_name text) ON COMMIT DROP");
            s.execute("CREATE TEMP TABLE spend_stage_keywords (platform text, keyword_id text, ad_set_id text, keyword text, "
                    + "match_type text) ON COMMIT DROP");
        }
        copyRows(c, "spend_stage_ads", pass.ads);
        copyRows(c, "spend_stage_keywords", pass.keywords);
        long[] hierarchy = AdHierarchy.fromSpendStage(c, accountId);
        long keywords = exec(c, accountId, """
                INSERT INTO ad_keywords (account_id, platform, keyword_id, ad_set_id, keyword, match_type)
                SELECT ?, platform, keyword_id, ad_set_id, keyword, match_type FROM spend_stage_keywords
                ON CONFLICT (account_id, platform, keyword_id) DO UPDATE SET keyword = EXCLUDED.keyword,
                  match_type = EXCLUDED.match_type, ad_set_id = EXCLUDED.ad_set_id""");
        return new Result(rows, changed, hierarchy[0], hierarchy[1], hierarchy[2], hierarchy[3], keywords,
                (System.nanoTime() - started) / 1_000_000);
    }

    private static void copyRows(Connection c, String table, Map<String, String[]> rows) throws SQLException, IOException {
        if (rows.isEmpty()) {
            return;
        }
        StringBuilder buf = new StringBuilder();
        for (String[] r : rows.values()) {
            for (int i = 0; i < r.length; i++) {
                escape(buf, r[i]);
                buf.append(i == r.length - 1 ? '\n' : '\t');
            }
        }
        c.unwrap(PGConnection.class).getCopyAPI().copyIn("COPY " + table + " FROM STDIN", new java.io.StringReader(buf.toString()));
    }

    /** A row of ad_spend_daily in COPY text format ({@link #SPEND_COLUMNS} order). */
    private static void spendLine(StringBuilder buf, String accountId, SpendRow row) {
        field(buf, accountId);
        field(buf, row.platform());
        field(buf, row.adId());
        buf.append(row.day()).append('\t');
        field(buf, row.adAccountId());
        field(buf, row.campaignId());
        field(buf, row.adSetId());
        buf.append(row.spend().toPlainString()).append('\t');
        buf.append(row.impressions()).append('\t').append(row.clicks()).append('\t').append(row.videoViews()).append('\t');
        buf.append(row.reportedConversions().toPlainString()).append('\t');
        buf.append(row.reportedRevenue().toPlainString()).append('\t');
        escape(buf, row.currency());
        buf.append('\n');
    }

    private static void write(BufferedWriter out, CharSequence line) {
        try {
            out.append(line);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long exec(Connection c, String accountId, String sql) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, accountId);
            return ps.executeLargeUpdate();
        }
    }

    /** A day of an ad's spend written whole (the demo seed's); its ad is in {@code ads} already ({@link AdHierarchy}). */
    public record BulkDay(String accountId, String platform, String adId, java.time.LocalDate day, String adAccountId,
                          String campaignId, String adSetId, java.math.BigDecimal spend, long impressions, long clicks,
                          long videoViews, java.math.BigDecimal conversions, java.math.BigDecimal revenue, String currency,
                          java.time.Instant updatedAt) {
    }

    /** Inserts spend days in one batch (the demo seed). */
    public static void insertBulk(Connection c, java.util.List<BulkDay> rows) throws SQLException {
        BatchInsert.run(c, "INSERT INTO ad_spend_daily (" + SPEND_COLUMNS + ", updated_at) VALUES (" + "?, ".repeat(14) + "?)", rows,
                r -> new Object[]{r.accountId(), r.platform(), r.adId(), r.day(), r.adAccountId(), r.campaignId(), r.adSetId(),
                        r.spend(), r.impressions(), r.clicks(), r.videoViews(), r.conversions(), r.revenue(), r.currency(), r.updatedAt()});
    }
}
