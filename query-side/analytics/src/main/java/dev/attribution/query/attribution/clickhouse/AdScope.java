package dev.attribution.query.attribution.clickhouse;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * Which ads a report covers, as data: the ads (of {@code platform}, when given) whose {@code column} takes one of
 * {@code values} — with {@code withAd}, only rows that name an ad — each counted under its row key {@link #entity()}:
 * the value of the column, or one fixed name ({@link #namedAs}). The columns are those {@code ads_current} and
 * {@code ad_spend_daily_current} share. This record alone turns a scope into SQL (through {@link Sql}), so the
 * classes that read a report's tables pass the scope on, not a condition string.
 */
public record AdScope(Optional<String> platform, Column column, List<String> values, boolean withAd,
                      Optional<String> fixedEntity) {

    /** The columns of the ad hierarchy a scope selects on. */
    public enum Column { ad_account_id, campaign_id, ad_set_id, ad_id }

    public AdScope {
        values = List.copyOf(values);
    }

    /** The ads whose {@code column} is {@code value}, on any platform. */
    public static AdScope of(Column column, String value) {
        return new AdScope(Optional.empty(), column, List.of(value), false, Optional.empty());
    }

    /** The ads of {@code platform} (null: any) whose {@code column} is one of {@code values}. */
    public static AdScope of(String platform, Column column, Collection<String> values) {
        return new AdScope(Optional.ofNullable(platform), column, List.copyOf(values), false, Optional.empty());
    }

    /** This scope without the rows that name no ad (campaign- or ad-set-level rows). */
    public AdScope withAdOnly() {
        return new AdScope(platform, column, values, true, fixedEntity);
    }

    /** This scope with every row counted under {@code entity}. */
    public AdScope namedAs(String entity) {
        return new AdScope(platform, column, values, withAd, Optional.of(entity));
    }

    /** The condition over the shared columns. */
    public String where() {
        List<String> conditions = new ArrayList<>();
        platform.ifPresent(p -> conditions.add(Sql.eq("platform", p)));
        if (withAd) {
            conditions.add("ad_id != ''");
        }
        conditions.add(Sql.in(column.name(), values));
        return String.join(" AND ", conditions);
    }

    /** The expression naming a row's entity. */
    public String entity() {
        return fixedEntity.map(Sql::str).orElse(column.name());
    }
}
