package dev.attribution.command.urlrules;

import dev.attribution.command.leads.LeadStages;
import dev.attribution.command.sources.SourcesTable;
import io.micronaut.data.jdbc.runtime.JdbcOperations;
import jakarta.inject.Singleton;

import java.security.SecureRandom;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** SQL of the URL rule writes (table url_rules of V51 and the named rows of V50), inside the caller's transaction. */
@Singleton
class UrlRuleStore {

    private static final SecureRandom RANDOM = new SecureRandom();

    private final JdbcOperations jdbc;

    UrlRuleStore(JdbcOperations jdbc) {
        this.jdbc = jdbc;
    }

    /** A fresh opaque id: {@code ur-} and 16 hex digits, unrelated to the row's key. */
    static String newExternalId() {
        byte[] bytes = new byte[8];
        RANDOM.nextBytes(bytes);
        return "ur-" + HexFormat.of().formatHex(bytes);
    }

    Optional<UrlRuleDraft> load(String accountId, String externalId) {
        return jdbc.prepareStatement("""
                SELECT r.*, ts.name AS ts_name, sc.name AS sc_name FROM url_rules r
                LEFT JOIN traffic_sources ts ON ts.account_id = r.account_id AND ts.id = r.traffic_source_id
                LEFT JOIN source_categories sc ON sc.account_id = r.account_id AND sc.id = r.source_category_id
                WHERE r.account_id = ? AND r.external_id = ? AND r.rule_type = 'SIMPLE' FOR UPDATE OF r""", ps -> {
            ps.setString(1, accountId);
            ps.setString(2, externalId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                return Optional.of(new UrlRuleDraft(rs.getString("name"), rs.getString("tag"),
                        strings(rs.getArray("words_to_match")), strings(rs.getArray("words_not_to_match")),
                        strings(rs.getArray("source_rule_types")), rs.getBoolean("apply_base_domain"),
                        rs.getBoolean("disregard_source"), strings(rs.getArray("traffic_source_to_match")),
                        strings(rs.getArray("source_category_to_match")), rs.getString("ts_name"), rs.getString("sc_name"),
                        UrlRuleScoresColumn.parse(rs.getString("scores")),
                        rs.getBoolean("is_enabled"), "LEAD_STAGE".equals(rs.getString("action_type"))));
            }
        });
    }

    /** Another managed rule with the same tag, or the same set of words to match (ignoring case and order). */
    boolean duplicate(String accountId, String exceptExternalId, UrlRuleDraft draft) {
        List<String> words = draft.wordsToMatch().stream().map(w -> w.toLowerCase(Locale.ROOT)).distinct().sorted().toList();
        return jdbc.prepareStatement("""
                SELECT EXISTS (SELECT 1 FROM url_rules r WHERE r.account_id = ? AND r.rule_type = 'SIMPLE'
                  AND r.external_id IS DISTINCT FROM ?
                  AND (r.tag = ? OR ARRAY(SELECT DISTINCT lower(w) FROM unnest(r.words_to_match) w ORDER BY 1) = ?::text[]))""", ps -> {
            ps.setString(1, accountId);
            ps.setString(2, exceptExternalId);
            ps.setString(3, draft.tag());
            ps.setArray(4, ps.getConnection().createArrayOf("text", words.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        });
    }

    String insert(String accountId, UrlRuleDraft d) {
        String externalId = newExternalId();
        jdbc.prepareStatement("""
                INSERT INTO url_rules (account_id, external_id, name, tag, action_type, stage_id, words_to_match,
                    words_not_to_match, source_rule_types, apply_base_domain, disregard_source, traffic_source_to_match,
                    source_category_to_match, traffic_source_id, source_category_id, scores, is_enabled)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?)""", ps -> {
            ps.setString(1, accountId);
            ps.setString(2, externalId);
            bindRule(ps, 3, accountId, d);
            return ps.executeUpdate();
        });
        return externalId;
    }

    void update(String accountId, String externalId, UrlRuleDraft d) {
        jdbc.prepareStatement("""
                UPDATE url_rules SET name = ?, tag = ?, action_type = ?, stage_id = ?, words_to_match = ?,
                    words_not_to_match = ?, source_rule_types = ?, apply_base_domain = ?, disregard_source = ?,
                    traffic_source_to_match = ?, source_category_to_match = ?, traffic_source_id = ?,
                    source_category_id = ?, scores = ?::jsonb, is_enabled = ?
                WHERE account_id = ? AND external_id = ?""", ps -> {
            int next = bindRule(ps, 1, accountId, d);
            ps.setString(next, accountId);
            ps.setString(next + 1, externalId);
            return ps.executeUpdate();
        });
    }

    boolean delete(String accountId, String externalId) {
        return jdbc.prepareStatement("DELETE FROM url_rules WHERE account_id = ? AND external_id = ? AND rule_type = 'SIMPLE'", ps -> {
            ps.setString(1, accountId);
            ps.setString(2, externalId);
            return ps.executeUpdate() == 1;
        });
    }

    /** Binds name … is_enabled from {@code i}; returns the next parameter index. */
    private int bindRule(PreparedStatement ps, int i, String accountId, UrlRuleDraft d) throws SQLException {
        Connection c = ps.getConnection();
        ps.setString(i++, d.name());
        ps.setString(i++, d.tag());
        ps.setString(i++, d.actionType());
        if (d.leadStage()) {
            LeadStages.ensureAccountStage(c, accountId, d.tag());
        }
        ps.setObject(i++, d.leadStage() ? named(c, "url_rule_stages", accountId, d.tag()) : null);
        ps.setArray(i++, c.createArrayOf("text", d.wordsToMatch().toArray()));
        ps.setArray(i++, c.createArrayOf("text", d.wordsNotToMatch().toArray()));
        ps.setArray(i++, c.createArrayOf("text", d.sourceRuleTypes().toArray()));
        ps.setBoolean(i++, d.applyBaseDomain());
        ps.setBoolean(i++, d.disregardSource());
        ps.setArray(i++, c.createArrayOf("text", d.trafficSourceToMatch().toArray()));
        ps.setArray(i++, c.createArrayOf("text", d.sourceCategoryToMatch().toArray()));
        ps.setObject(i++, d.trafficSourceCategory() == null ? null : SourcesTable.named(c, "traffic_sources", accountId, d.trafficSourceCategory()));
        ps.setObject(i++, d.sourceCategory() == null ? null : SourcesTable.named(c, "source_categories", accountId, d.sourceCategory()));
        ps.setString(i++, UrlRuleScoresColumn.toJson(d.scores()));
        ps.setBoolean(i++, d.isEnabled());
        return i;
    }

    /** The id of the named URL rule stage, created when absent (spec: "created if absent"); the source names are {@link SourcesTable}'s. */
    static long named(Connection c, String table, String accountId, String name) throws SQLException {
        boolean exact = table.equals("url_rule_stages");
        String match = exact ? "name = ?" : "lower(name) = lower(?)";
        try (PreparedStatement ps = c.prepareStatement("SELECT id FROM " + table + " WHERE account_id = ? AND " + match)) {
            ps.setString(1, accountId);
            ps.setString(2, name);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    return rs.getLong(1);
                }
            }
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " (account_id, name) VALUES (?, ?) "
                + "ON CONFLICT DO NOTHING RETURNING id")) {
            ps.setString(1, accountId);
            ps.setString(2, name);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    return rs.getLong(1);
                }
            }
        }
        return named(c, table, accountId, name);
    }

    private static List<String> strings(Array array) throws SQLException {
        return array == null ? List.of() : Arrays.asList((String[]) array.getArray());
    }
}
