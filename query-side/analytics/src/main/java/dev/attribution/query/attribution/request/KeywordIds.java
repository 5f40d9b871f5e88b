package dev.attribution.query.attribution.request;

import dev.attribution.api.ApiException;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code keywordsIds} parameter of {@code GET /attribution} at keyword levels (spec 4.5): one or more groups
 * {@code <adGroupId>:[<keywordId>,<keywordId>,...]} separated by commas, e.g. {@code 123:[k1,k2],456:[k3]}.
 * Blanks around tokens are ignored; an id may be wrapped in double quotes; ids hold no {@code : [ ] ,} or quote.
 * docs/attribution-models.md ("Keyword levels") states the grammar and the 400 messages.
 */
public final class KeywordIds {

    /** One requested keyword: its ad group (ad set) and its id. {@link #key()} is the row's channel key. */
    public record Keyword(String adGroupId, String keywordId) {
        public String key() {
            return adGroupId + ":" + keywordId;
        }
    }

    static final int MAX = 50;
    static final String SHAPE = "Expected <adGroupId>:[<keywordId>,...] separated by commas";

    private static final String ID = "\\s*\"?([^\\s:\\[\\],\"]+)\"?\\s*";
    private static final Pattern GROUP = Pattern.compile(ID + ":\\s*\\[([^\\[\\]]*)\\]\\s*(,|$)");
    private static final Pattern KEYWORD = Pattern.compile(ID);

    private KeywordIds() {
    }

    /** The keywords in order, duplicates dropped; 400 for a malformed value, an empty list or more than 50 keywords. */
    public static List<Keyword> parse(String raw) {
        String invalid = "Invalid keywordsIds: " + raw + ". " + SHAPE;
        List<Keyword> out = new ArrayList<>();
        Matcher g = GROUP.matcher(raw);
        int at = 0;
        while (at < raw.length()) {
            if (!g.find(at) || g.start() != at) {
                throw ApiException.badRequest(invalid);
            }
            String group = g.group(1);
            String list = g.group(2);
            if (list.isBlank()) {
                throw ApiException.badRequest(invalid);
            }
            for (String k : list.split(",", -1)) {
                Matcher m = KEYWORD.matcher(k);
                if (!m.matches()) {
                    throw ApiException.badRequest(invalid);
                }
                Keyword kw = new Keyword(group, m.group(1));
                if (!out.contains(kw)) {
                    out.add(kw);
                }
            }
            at = g.end();
            if (g.group(3).equals(",") && at == raw.length()) {
                throw ApiException.badRequest(invalid);
            }
        }
        if (out.isEmpty()) {
            throw ApiException.badRequest(invalid);
        }
        if (out.size() > MAX) {
            throw ApiException.badRequest("The maximum number of keywordsIds to be provided is " + MAX);
        }
        return out;
    }
}
