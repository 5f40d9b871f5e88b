package dev.attribution.query.attribution.clickhouse;

import dev.attribution.clickhouse.CurrentRow;

import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The one owner of reading current sales from {@code sales} (040_sales.sql): the rows of {@code sales_current}
 * (same dedup rule, same column names) dated in a range. A sale's date never changes, so its raw versions are
 * filtered by it before the dedup: only the months of the range are read, where the view would deduplicate the
 * account's whole history first. The versions are grouped straight from the table (no {@code SELECT *} subquery:
 * ~10 % of the sales statement at 1 M leads); that is sound because no alias here is also a column name of
 * {@code sales}, so a raw condition reads the raw columns.
 */
public final class CurrentSales {

    /** The columns of {@code sales_current} a report reads: raw column, and the view's name for its current value. */
    public enum Column {
        PRICE("price", "sale_price"), USD_PRICE("usd_price", "sale_usd_price"), TAXES("taxes", "sale_taxes"),
        SHIPPING("shipping", "sale_shipping"), COST_OF_GOODS("cost_of_goods", "sale_cost_of_goods"),
        HARD_COST("hard_cost", "sale_hard_cost"), REFUNDED_AMOUNT("refunded_amount", "sale_refunded_amount"),
        RECURRING("recurring", "is_recurring"), FIRST_SALE("first_sale", "is_first_sale"), REFUNDED("refunded", "is_refunded"),
        SALE_DATE("sale_date", "sale_at");

        final String raw;
        /** The name of the current value, as in {@code sales_current}. */
        public final String current;

        Column(String raw, String current) {
            this.raw = raw;
            this.current = current;
        }
    }

    /** The amounts a sale's revenue is computed from. */
    public static final Set<Column> AMOUNTS = EnumSet.of(Column.PRICE, Column.USD_PRICE, Column.TAXES, Column.SHIPPING, Column.COST_OF_GOODS);

    /** The view's key columns, selected and grouped by default. */
    public static final String KEY = "account_id, lead_id, id";

    private final String table;
    private final String accountId;
    private final Instant from;
    private final Instant to;
    private String keys = KEY;
    private String groupBy = KEY;
    private final Set<Column> columns = EnumSet.noneOf(Column.class);
    private final List<String> rawWhere = new ArrayList<>();
    private final List<String> currentWhere = new ArrayList<>();

    private CurrentSales(String db, String accountId, Instant from, Instant to) {
        this.table = db + ".sales";
        this.accountId = accountId;
        this.from = from;
        this.to = to;
    }

    /** The account's current sales dated in [from, to]. */
    public static CurrentSales dated(String db, String accountId, Instant from, Instant to) {
        return new CurrentSales(db, accountId, from, to);
    }

    /** These current columns too (by their {@link Column#current} names). */
    public CurrentSales columns(Set<Column> more) {
        columns.addAll(more);
        return this;
    }

    /** These current columns too. */
    public CurrentSales columns(Column... more) {
        return columns(more.length == 0 ? Set.of() : EnumSet.of(more[0], more));
    }

    /**
     * Selected keys ({@code keys}: raw key columns or named expressions of them, e.g. {@code id AS conv_id}) and the
     * group ({@code groupBy}); the group must hold one sale per group (the view's key, or hashes of it).
     */
    public CurrentSales keys(String keys, String groupBy) {
        this.keys = keys;
        this.groupBy = groupBy;
        return this;
    }

    /**
     * Conditions on the raw versions before the dedup: each must select every version of a sale it selects one of
     * (on lead_id or id, which never change for a sale; a superset such as every lead of a raw click version).
     */
    public CurrentSales rawWhere(String... conditions) {
        for (String c : conditions) {
            if (c != null && !c.isBlank()) {
                rawWhere.add(c);
            }
        }
        return this;
    }

    /** Conditions on the current values (by their {@link Column#current} names), applied after the dedup. */
    public CurrentSales currentWhere(String... conditions) {
        for (String c : conditions) {
            if (c != null && !c.isBlank()) {
                currentWhere.add(c);
            }
        }
        return this;
    }

    /** The SELECT: keys, then the current columns in {@link Column} order. */
    public Select select() {
        List<String> items = new ArrayList<>();
        items.add(keys);
        for (Column c : columns) {
            items.add(CurrentRow.latest(c.raw, c.current));
        }
        Select s = Select.of(items.toArray(String[]::new)).from(table)
                .where(Sql.eq("account_id", accountId), Sql.between("sale_date", from, to))
                .where(rawWhere.toArray(String[]::new))
                .groupBy(groupBy)
                // a soft-deleted sale (deleted = 1) leaves sales_current like a deleted row
                .having(CurrentRow.live(), CurrentRow.latest("deleted") + " = 0")
                .having(currentWhere.toArray(String[]::new));
        return s;
    }

    /** {@link #select()} as an aliased subquery. */
    public String subquery(String alias) {
        return select().subquery(alias);
    }

    /**
     * The leads of the account's raw sale versions dated in [from, to] that match {@code rawWhere}: a superset of
     * the current sales' leads (no dedup), cheap to read by the sort key.
     */
    public static Select rawLeads(String db, String accountId, Instant from, Instant to, String... rawWhere) {
        return Select.of("lead_id").from(db + ".sales").where(Sql.eq("account_id", accountId), Sql.between("sale_date", from, to))
                .where(rawWhere);
    }
}
