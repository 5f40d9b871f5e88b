package dev.attribution.query.attribution.clickhouse;

import io.micronaut.data.jdbc.runtime.JdbcOperations;
import io.micronaut.transaction.annotation.Transactional;
import jakarta.inject.Singleton;

import java.sql.ResultSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The keywords of {@code keywordsIds} that exist: PostgreSQL {@code ad_keywords} (migration V52, GET /keywords). */
@Singleton
public class AdKeywordNames {

    private final JdbcOperations jdbc;

    public AdKeywordNames(JdbcOperations jdbc) {
        this.jdbc = jdbc;
    }

    /** The requested keywords ({@code <adGroupId>:<keywordId>}) the account has on the platform, with their text. */
    @Transactional(readOnly = true)
    public Map<String, String> resolve(String accountId, String platform, List<String> keys) {
        String[] ids = keys.stream().map(k -> k.substring(k.indexOf(':') + 1)).distinct().toArray(String[]::new);
        return jdbc.prepareStatement("SELECT ad_set_id, keyword_id, keyword FROM ad_keywords WHERE account_id = ? AND platform = ? "
                + "AND keyword_id = ANY (?)", ps -> {
            ps.setString(1, accountId);
            ps.setString(2, platform);
            ps.setArray(3, ps.getConnection().createArrayOf("text", ids));
            Map<String, String> out = new HashMap<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String key = rs.getString(1) + ":" + rs.getString(2);
                    if (keys.contains(key)) {
                        out.put(key, rs.getString(3));
                    }
                }
            }
            return out;
        });
    }
}
