package dev.attribution.command.urlrules;

import dev.attribution.command.leads.LeadTags;
import dev.attribution.command.leads.LeadsTable;
import jakarta.inject.Singleton;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Runs an account's enabled URL rules over a visit and applies what matched to a lead, on the caller's connection
 * and transaction (a click or page-visit write handler calls it). Tag rules add their tag (a tag the lead already
 * holds keeps its date); lead-stage rules set the lead's current stage; of the source-link rules only the one
 * {@link UrlRuleEngine#sourceFor} picks is applied, so a {@code disregardSource} rule never overrides a source the
 * lead already has.
 */
@Singleton
public class UrlRuleMatcher {

    private final LeadsTable leads;

    UrlRuleMatcher(LeadsTable leads) {
        this.leads = leads;
    }

    /** The enabled API-managed rules of the account, oldest first. */
    public List<UrlRuleEngine.Rule> rules(Connection c, String accountId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT r.*, ts.name AS ts_name FROM url_rules r
                LEFT JOIN traffic_sources ts ON ts.account_id = r.account_id AND ts.id = r.traffic_source_id
                WHERE r.account_id = ? AND r.is_enabled ORDER BY r.created_at, r.id""")) {
            ps.setString(1, accountId);
            try (ResultSet rs = ps.executeQuery()) {
                List<UrlRuleEngine.Rule> out = new ArrayList<>();
                while (rs.next()) {
                    List<String> dynamic = strings(rs.getArray("traffic_source_to_match"));
                    out.add(new UrlRuleEngine.Rule(rs.getString("external_id"), rs.getString("tag"), rs.getString("action_type"),
                            strings(rs.getArray("words_to_match")), strings(rs.getArray("words_not_to_match")),
                            strings(rs.getArray("source_rule_types")).stream().map(UrlRuleEngine.SourceRuleType::valueOf).toList(),
                            rs.getBoolean("apply_base_domain"), rs.getBoolean("disregard_source"), true,
                            UrlRuleScoresColumn.parse(rs.getString("scores")),
                            dynamic.isEmpty() ? null : dynamic.get(0), rs.getString("ts_name")));
                }
                return out;
            }
        }
    }

    /** Matches the visit and applies the result to the lead; returns the matches applied. */
    public List<UrlRuleEngine.Match> apply(Connection c, String accountId, String leadId, UrlRuleEngine.Visit visit, Instant at)
            throws SQLException {
        List<UrlRuleEngine.Rule> rules = rules(c, accountId);
        List<UrlRuleEngine.Match> applied = new ArrayList<>();
        for (UrlRuleEngine.Match m : UrlRuleEngine.matchAll(rules, visit)) {
            if (!"SOURCE_LINK".equals(m.rule().actionType())) {
                applied.add(m);
            }
        }
        UrlRuleEngine.sourceFor(rules, visit, hasSource(c, accountId, leadId)).ifPresent(applied::add);
        for (UrlRuleEngine.Match m : applied) {
            if ("LEAD_STAGE".equals(m.rule().actionType())) {
                leads.setStage(c, accountId, leadId, m.rule().tag(), at, at);
            } else {
                LeadTags.insertTags(c, accountId, leadId, List.of(m.rule().tag()), at);
            }
        }
        return applied;
    }

    private static boolean hasSource(Connection c, String accountId, String leadId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT EXISTS (SELECT 1 FROM lead_tags WHERE account_id = ? AND lead_id = ? AND tag LIKE '@%')")) {
            ps.setString(1, accountId);
            ps.setString(2, leadId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        }
    }

    private static List<String> strings(Array array) throws SQLException {
        return array == null ? List.of() : Arrays.asList((String[]) array.getArray());
    }
}
