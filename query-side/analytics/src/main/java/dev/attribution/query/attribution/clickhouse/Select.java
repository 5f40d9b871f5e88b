package dev.attribution.query.attribution.clickhouse;

import java.util.ArrayList;
import java.util.List;

/**
 * One SELECT, composed clause by clause: the conditions of WHERE, PREWHERE and HAVING are each a list joined by AND
 * (a blank condition is no condition), so no caller splices {@code " AND …"} strings. Values come in as literals of
 * {@link Sql}; the builder itself only lays out clauses, in the order ClickHouse 18.16 and current releases accept.
 */
public final class Select {

    private final List<String> columns = new ArrayList<>();
    private String from;
    private final List<String> prewhere = new ArrayList<>();
    private final List<String> where = new ArrayList<>();
    private final List<String> groupBy = new ArrayList<>();
    private final List<String> having = new ArrayList<>();

    private Select() {
    }

    /** SELECT these columns or {@code expression AS alias} items. */
    public static Select of(String... columns) {
        Select s = new Select();
        return s.columns(columns);
    }

    /** More items of the SELECT list. */
    public Select columns(String... items) {
        for (String c : items) {
            if (c != null && !c.isBlank()) {
                columns.add(c);
            }
        }
        return this;
    }

    /** More items of the SELECT list. */
    public Select columns(List<String> items) {
        return columns(items.toArray(String[]::new));
    }

    /** FROM a table ({@code db.table}, optionally with {@code FINAL}). */
    public Select from(String table) {
        this.from = table;
        return this;
    }

    /** FROM a subquery, aliased (current releases reject an unaliased subquery in a join). */
    public Select from(Select subquery, String alias) {
        this.from = subquery.subquery(alias);
        return this;
    }

    public Select prewhere(String... conditions) {
        return add(prewhere, conditions);
    }

    public Select where(String... conditions) {
        return add(where, conditions);
    }

    public Select groupBy(String... keys) {
        return add(groupBy, keys);
    }

    public Select having(String... conditions) {
        return add(having, conditions);
    }

    private Select add(List<String> clause, String... items) {
        for (String c : items) {
            if (c != null && !c.isBlank()) {
                clause.add(c);
            }
        }
        return this;
    }

    /** The statement text. */
    public String sql() {
        if (columns.isEmpty() || from == null) {
            throw new IllegalStateException("a SELECT needs columns and a FROM");
        }
        StringBuilder b = new StringBuilder("SELECT ").append(String.join(", ", columns)).append(" FROM ").append(from);
        if (!prewhere.isEmpty()) {
            b.append(" PREWHERE ").append(String.join(" AND ", prewhere));
        }
        if (!where.isEmpty()) {
            b.append(" WHERE ").append(String.join(" AND ", where));
        }
        if (!groupBy.isEmpty()) {
            b.append(" GROUP BY ").append(String.join(", ", groupBy));
        }
        if (!having.isEmpty()) {
            b.append(" HAVING ").append(String.join(" AND ", having));
        }
        return b.toString();
    }

    /** {@code (statement) AS alias}. */
    public String subquery(String alias) {
        return "(" + sql() + ") AS " + alias;
    }

    /** {@code (statement)}, for {@code IN (…)} and for callers that alias it themselves. */
    public String parenthesized() {
        return "(" + sql() + ")";
    }

    @Override
    public String toString() {
        return sql();
    }
}
