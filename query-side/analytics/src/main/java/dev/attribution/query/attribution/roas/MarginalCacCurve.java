package dev.attribution.query.attribution.roas;

import dev.attribution.query.attribution.clickhouse.CustomCostAllocation;
import dev.attribution.query.attribution.models.AttributedSales;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.ApiDates;
import dev.attribution.api.ApiException;
import dev.attribution.api.QueryParams;
import dev.attribution.clickhouse.ClickHouseGateway;
import dev.attribution.clickhouse.ClickHouseSql;
import dev.attribution.query.attribution.clickhouse.AdScope;
import dev.attribution.query.attribution.clickhouse.ScopeAds;
import dev.attribution.query.attribution.clickhouse.SpendDays;
import dev.attribution.query.attribution.clickhouse.Sql;
import jakarta.inject.Singleton;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * {@code GET /attribution/marginal-cac-curve} on ClickHouse (spec 4.5): daily spend and new customers of one entity,
 * turned into a curve by {@link CacCurveBuilder}; the ceiling is the caller's or the LTV break-even.
 * Definitions: docs/marginal-cac.md.
 */
@Singleton
public class MarginalCacCurve {

    /** The default history and the cap of the day-grouped range at {@code account} level, in days. */
    static final int HISTORY_DAYS = 90;
    /** An inverted range on either endpoint (the spec names no text for attribution reports). */
    static final String LTV_CEILING_UNAVAILABLE = "LTV_CEILING_UNAVAILABLE";

    public enum Model { first_click, last_click }

    /** LTV windows: 6_months = 183 days, 1_year = 365 days. */
    public enum LtvWindow {
        w30("30_days", 30), w60("60_days", 60), w90("90_days", 90), m6("6_months", 183), y1("1_year", 365);

        final String wire;
        final int days;

        LtvWindow(String wire, int days) {
            this.wire = wire;
            this.days = days;
        }

        static LtvWindow of(String v) {
            for (LtvWindow w : values()) {
                if (w.wire.equals(v)) {
                    return w;
                }
            }
            throw ApiException.badRequest("Invalid ltvWindow: " + v + ". Accepted values: 30_days, 60_days, 90_days, 6_months, 1_year");
        }
    }

    /** The validated parameters; {@code startText}/{@code endText} are the bounds as used (defaults filled in). */
    public record Request(String id, AdEntity.Level level, String startText, String endText, ApiDates.Span span,
                   LtvWindow ltvWindow, BigDecimal cacCeiling, Model model) {


    public     static Request read(QueryParams q, ZoneId zone, Clock clock) {
            String id = q.required("id");
            AdEntity.Level level = AdEntity.Level.of(q.required("level"));
            Model model = q.string("attributionModel").map(v -> {
                for (Model m : Model.values()) {
                    if (m.name().equals(v)) {
                        return m;
                    }
                }
                throw ApiException.badRequest("Invalid attributionModel: " + v + ". Accepted values: first_click, last_click");
            }).orElse(Model.first_click);
            LtvWindow window = q.string("ltvWindow").map(LtvWindow::of).orElse(null);
            if (window != null && level == AdEntity.Level.account) {
                throw ApiException.badRequest("ltvWindow is not accepted at level account");
            }
            BigDecimal ceiling = q.string("cacCeiling").map(v -> {
                try {
                    BigDecimal c = new BigDecimal(v);
                    if (c.signum() >= 0) {
                        return c;
                    }
                } catch (NumberFormatException e) {
                    // falls through to the 400
                }
                throw ApiException.badRequest("Invalid cacCeiling: " + v + ". It must be a number zero or greater");
            }).orElse(null);
            // Defaults: endDate today, startDate 90 days before endDate's date; a defaulted bound has no offset.
            String end = q.string("endDate").orElseGet(() -> LocalDate.now(clock.withZone(zone)).toString());
            String start = q.string("startDate").orElseGet(() -> ApiDates.parse(end).writtenDate().minusDays(HISTORY_DAYS).toString());
            ApiDates.Span span = ApiDates.attributionSpan(start, end, zone, clock);
            if (level == AdEntity.Level.account && ChronoUnit.DAYS.between(LocalDate.ofInstant(span.start(), zone),
                    LocalDate.ofInstant(span.end(), zone)) > HISTORY_DAYS) {
                throw ApiException.badRequest("The date range cannot be longer than 90 days at level account");
            }
            return new Request(id, level, start, end, span, window, ceiling, model);
        }
    }

    /** The wire shape of {@code result}; every field is written, null where there is no value. */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record Result(String id, String level, String name, String startDate, String endDate, String attributionModel,
                         int daysSampled, BigDecimal cacCeiling, String ceilingBasis, String ltvWindow,
                         List<CacCurveBuilder.Bucket> curve, CacCurveBuilder.Saturation saturationPoint, List<String> notes) {
    }

    private final ClickHouseGateway clickHouse;
    private final CustomCostAllocation customCosts;
    private final Clock clock;

    public MarginalCacCurve(ClickHouseGateway clickHouse, CustomCostAllocation customCosts) {
        this.clickHouse = clickHouse;
        this.customCosts = customCosts;
        this.clock = Clock.systemUTC();
    }

    public Result curve(String accountId, ZoneId zone, Request r) {
        LocalDate from = LocalDate.ofInstant(r.span().start(), zone);
        LocalDate to = LocalDate.ofInstant(r.span().end(), zone);
        // the entity's ads and custom costs are read while the entity is resolved (an unknown id: 400, both unused)
        AdScope scope = AdEntity.scope(r.level(), r.id());
        Supplier<ScopeAds> adsLater = ScopeAds.readLater(clickHouse, accountId, scope);
        Supplier<Map<LocalDate, Long>> customLater = customCosts.byDayLater(accountId, scope, r.id(), from, to);
        AdEntity entity = AdEntity.resolve(clickHouse, accountId, r.level(), r.id());
        ScopeAds ads = adsLater.get();
        String db = clickHouse.database();
        String acc = ClickHouseSql.str(accountId);
        Map<LocalDate, long[]> days = new HashMap<>();
        boolean last = r.model() == Model.last_click;
        // New customers: leads whose first purchase is credited to the entity, on the day of the credited click.
        // Grouped by 15-minute slot (every zone offset in use is a multiple of 15 minutes), then by day in Java.
        // Only sales from the start on are read: a sale is not older than its click, and the items of a lead's first
        // purchase share its date, so a lead whose first purchase is older has none of them read.
        String attributed = AttributedSales.sql(db, accountId, ads, last, r.span().start(), Sql.LATEST);
        // the daily spend and the new customers at once (different tables)
        List<List<JsonNode>> read = clickHouse.selectAll(List.of(
                "SELECT toString(day) AS d, sum(toInt64(round(toFloat64(spend) * 100))) AS c FROM "
                        + SpendDays.between(db, accountId, from, to, entity.scope()).subquery("sp") + " WHERE "
                        + entity.scope().where() + " GROUP BY d",
                "SELECT intDiv(toUInt32(first_click), 900) AS slot, count() AS n FROM (SELECT " + AttributedSales.LEAD + " AS lead_id, "
                        + "argMin(attributed_at, sale_at) AS first_click FROM (" + attributed + ") AS x WHERE is_first_sale = 1 GROUP BY lead_id) AS f"
                        + " WHERE first_click >= " + Sql.dateTime(r.span().start()) + " AND first_click <= "
                        + Sql.dateTime(r.span().end()) + " GROUP BY slot" + ClickHouseSql.UNINDEXED_IN_SUBQUERIES));
        for (JsonNode row : read.get(0)) {
            days.computeIfAbsent(LocalDate.parse(row.get("d").asText()), k -> new long[2])[0] = row.get("c").asLong();
        }
        // a day's spend includes the custom costs allocated to the entity that day (docs/attribution-models.md)
        customLater.get().forEach((d, cents) -> days.computeIfAbsent(d, k -> new long[2])[0] += cents);
        for (JsonNode row : read.get(1)) {
            LocalDate d = LocalDate.ofInstant(Instant.ofEpochSecond(row.get("slot").asLong() * 900), zone);
            days.computeIfAbsent(d, k -> new long[2])[1] += row.get("n").asLong();
        }
        List<CacCurveBuilder.Day> samples = new ArrayList<>();
        days.forEach((d, v) -> samples.add(new CacCurveBuilder.Day(d, v[0], v[1])));
        List<String> notes = new ArrayList<>();
        BigDecimal ceiling = r.cacCeiling();
        String basis = ceiling == null ? null : "CALLER_PROVIDED";
        String window = null;
        if (ceiling == null && r.level() != AdEntity.Level.account) {
            LtvWindow w = r.ltvWindow() == null ? LtvWindow.w90 : r.ltvWindow();
            BigDecimal ltv = ltv(db, acc, AttributedSales.sql(db, accountId, ads, last, Instant.EPOCH, Sql.LATEST), w);
            if (ltv == null) {
                notes.add(LTV_CEILING_UNAVAILABLE);
            } else {
                ceiling = ltv;
                basis = "LTV_BREAKEVEN";
                window = w.wire;
            }
        }
        CacCurveBuilder.Curve curve = CacCurveBuilder.build(samples, ceiling == null ? null : ceiling.movePointRight(2));
        List<String> allNotes = new ArrayList<>(curve.notes());
        allNotes.addAll(notes);
        return new Result(r.id(), r.level().upper(), entity.name(), r.startText(), r.endText(),
                r.model().name().toUpperCase(Locale.ROOT), curve.daysSampled(), ceiling, basis, window, curve.buckets(),
                curve.saturation(), allNotes);
    }

    /**
     * LTV over window w: the average, over the entity's new customers (any date) whose first purchase is at least w
     * days old, of the price of all their sales (one-time and rebills) in [first purchase, first purchase + w days).
     * Null when no such customer exists.
     */
    BigDecimal ltv(String db, String acc, String attributed, LtvWindow w) {
        long seconds = w.days * 86400L;
        String cohort = "SELECT " + AttributedSales.LEAD + " AS lead_id, min(sale_at) AS first_at FROM (" + attributed + ") AS x WHERE is_first_sale = 1 GROUP BY lead_id"
                + " HAVING first_at <= " + ClickHouseSql.dateTime(clock.instant().minusSeconds(seconds));
        String sales = "SELECT lead_id, sale_at, toInt64(round(toFloat64(sale_price) * 100)) AS cents FROM " + db
                + ".sales_current WHERE account_id = " + acc;
        JsonNode row = clickHouse.select("SELECT count() AS n, sum(v) AS total FROM (SELECT lead_id, sum(if(sale_at >= first_at AND sale_at < first_at + "
                + seconds + ", cents, 0)) AS v FROM (" + cohort + ") AS k ALL INNER JOIN (" + sales + ") AS s USING (lead_id) GROUP BY lead_id) AS l"
                + ClickHouseSql.UNINDEXED_IN_SUBQUERIES).get(0);
        long n = row.get("n").asLong();
        if (n == 0) {
            return null;
        }
        return BigDecimal.valueOf(row.get("total").asLong()).divide(BigDecimal.valueOf(n), 0, RoundingMode.HALF_UP).movePointLeft(2);
    }
}
