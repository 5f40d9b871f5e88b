package dev.attribution.query.attribution.roas;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.ApiException;
import dev.attribution.clickhouse.ClickHouseGateway;
import dev.attribution.clickhouse.ClickHouseSql;
import dev.attribution.query.attribution.clickhouse.AdScope;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * One entity of the ad hierarchy named by {@code id} and {@code level} (spec 4.5, roas and marginal-cac-curve): an
 * ad, an ad set / ad group ({@code source_link}), a campaign or an ad account. Shared by {@link RoasReport} and
 * {@link MarginalCacCurve}; see docs/marginal-cac.md.
 */
public record AdEntity(Level level, String id, String name) {

    /** The levels of the two endpoints and the column of {@code ads} / {@code ad_spend_daily} that carries the id. */
    public enum Level {
        ad(AdScope.Column.ad_id, "ads_current"),
        source_link(AdScope.Column.ad_set_id, "ad_sets_current"),
        campaign(AdScope.Column.campaign_id, "ad_campaigns_current"),
        account(AdScope.Column.ad_account_id, "ad_accounts_current");

        public final AdScope.Column column;
        final String dimension;

        Level(AdScope.Column column, String dimension) {
            this.column = column;
            this.dimension = dimension;
        }

        static final List<String> NAMES = Arrays.stream(values()).map(Enum::name).toList();

        static Level of(String value) {
            for (Level l : values()) {
                if (l.name().equals(value)) {
                    return l;
                }
            }
            throw ApiException.badRequest("Invalid level: " + value + ". Accepted values: " + String.join(", ", NAMES));
        }

        String upper() {
            return name().toUpperCase(Locale.ROOT);
        }
    }

    /** Spec 7.3: an id not belonging to the account at the level. */
    public static String notFound(Level level, String id) {
        return "Id not found at level " + level.name() + ": " + id;
    }

    /** This entity's rows of {@code ads_current} or {@code ad_spend_daily_current}. */
    public AdScope scope() {
        return scope(level, id);
    }

    /** The rows of the entity {@code id} at {@code level}, known before it is resolved. */
    public static AdScope scope(Level level, String id) {
        return AdScope.of(level.column, id);
    }

    /**
     * Resolves {@code id} at {@code level} within the account: it belongs when the level's dimension table
     * (ads, ad_sets, ad_campaigns, ad_accounts) or an ad of the account carries it, on any platform. 400 otherwise.
     * The name is the dimension row's, else (unnamed, or only ads carry the id) the id; null at account.
     */
    static AdEntity resolve(ClickHouseGateway clickHouse, String accountId, Level level, String id) {
        String db = clickHouse.database();
        String acc = ClickHouseSql.str(accountId);
        String match = AdScope.of(level.column, id).where();
        List<JsonNode> named = clickHouse.select("SELECT name AS entity_name FROM " + db + "." + level.dimension
                + " WHERE account_id = " + acc + " AND " + match + " ORDER BY platform LIMIT 1");
        if (!named.isEmpty()) {
            // an entity nobody named (the API's writes and the spend import register ids only) is named by its id, as
            // GET /attribution names its rows
            String name = named.get(0).get("entity_name").asText();
            return new AdEntity(level, id, level == Level.account ? null : name.isEmpty() ? id : name);
        }
        List<JsonNode> viaAds = clickHouse.select("SELECT count() AS n FROM " + db + ".ads_current WHERE account_id = "
                + acc + " AND " + match);
        if (viaAds.isEmpty() || viaAds.get(0).get("n").asLong() == 0) {
            throw ApiException.badRequest(notFound(level, id));
        }
        return new AdEntity(level, id, level == Level.account ? null : id);
    }
}
