package dev.attribution.command.urlrules;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.attribution.api.JsonBody;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * The stored form of a rule's scores, column {@code url_rules.scores} (jsonb {@code [{keywords:[..], score:n}]}): the
 * write side owns the table, so it alone writes the column and reads it back to match visits.
 */
final class UrlRuleScoresColumn {

    private UrlRuleScoresColumn() {
    }

    static String toJson(List<UrlRuleEngine.Score> scores) {
        ArrayNode array = JsonBody.mapper().createArrayNode();
        for (UrlRuleEngine.Score s : scores) {
            ObjectNode o = array.addObject();
            ArrayNode k = o.putArray("keywords");
            s.keywords().forEach(k::add);
            o.put("score", s.score());
        }
        return array.toString();
    }

    static List<UrlRuleEngine.Score> parse(String json) {
        try {
            List<UrlRuleEngine.Score> out = new ArrayList<>();
            for (JsonNode s : JsonBody.mapper().readTree(json)) {
                List<String> keywords = new ArrayList<>();
                s.get("keywords").forEach(k -> keywords.add(k.asText()));
                out.add(new UrlRuleEngine.Score(keywords, new BigDecimal(s.get("score").asText())));
            }
            return out;
        } catch (Exception e) {
            throw new IllegalStateException("bad scores " + json, e);
        }
    }
}
