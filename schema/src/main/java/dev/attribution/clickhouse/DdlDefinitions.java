package dev.attribution.clickhouse;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one-file definitions of the ClickHouse objects and the directives by which numbered DDL files refer to them.
 * Each table has its current {@code CREATE TABLE} in {@code clickhouse/tables/<name>.sql}, each view (plain or
 * materialized) its current {@code CREATE … VIEW} in {@code clickhouse/views/<name>.sql}; a numbered file says
 * <ul>
 *   <li>{@code @table T}: create T as {@code tables/T.sql} defines it, when it does not exist;</li>
 *   <li>{@code @view V}: a plain view is dropped and created again as {@code views/V.sql} defines it; a materialized
 *       view is only created when missing (dropping it would lose the inserts of the gap: a new definition of a feed
 *       is a new view under a new name, and the numbered file that adds it drops the old one);</li>
 *   <li>{@code @column T.C}: add column C of T as {@code tables/T.sql} defines it; {@link ClickHouseSchema} skips it
 *       when the table has it already (a table created from its current file; 18.16 has no {@code ADD COLUMN IF NOT
 *       EXISTS}).</li>
 *   <li>{@code @derive D}: the statements of {@code clickhouse/derived/D.sql} (one per line) over every account
 *       ({@code {scope}} 1): a new table's rows derived from the tables it is computed from, for a database that held
 *       rows before it existed.</li>
 * </ul>
 * A column is added at the end (ALTER appends), so a table file lists added columns last, in the order they were added:
 * a fresh database then has the same shape as one migrated file by file ({@code ClickHouseUpgradeTest}).
 */
final class DdlDefinitions {

    static final String TABLES = "tables/";
    static final String VIEWS = "views/";
    static final String DERIVED = "derived/";
    private static final Pattern DIRECTIVE = Pattern.compile("^@(table|view|column|derive)\\s+(\\w+)(?:\\.(\\w+))?\\s*$");
    private static final Pattern CREATE_TABLE = Pattern.compile("^CREATE\\s+TABLE\\s+IF\\s+NOT\\s+EXISTS\\s+\\{db}\\.(\\w+)\\s*\\(", Pattern.CASE_INSENSITIVE);
    private static final Pattern CREATE_VIEW = Pattern.compile("^CREATE\\s+(MATERIALIZED\\s+)?VIEW\\s+IF\\s+NOT\\s+EXISTS\\s+\\{db}\\.(\\w+)\\s", Pattern.CASE_INSENSITIVE);

    private final String root;

    /** {@code root}: the classpath folder holding INDEX, the numbered files, {@code tables/} and {@code views/}. */
    DdlDefinitions(String root) {
        this.root = root;
    }

    static boolean isDirective(String line) {
        return line.trim().startsWith("@");
    }

    /** The statements a directive line stands for, with {@code {db}} and engine placeholders left for rendering. */
    List<String> expand(String line) {
        Matcher d = DIRECTIVE.matcher(line.trim());
        if (!d.matches()) {
            throw new IllegalStateException("unknown DDL directive (expected @table T, @view V, @column T.C or @derive D): " + line);
        }
        String name = d.group(2);
        return switch (d.group(1)) {
            case "table" -> {
                requireNoColumn(d);
                yield List.of(table(name));
            }
            case "view" -> {
                requireNoColumn(d);
                String view = view(name);
                Matcher m = CREATE_VIEW.matcher(view);
                m.find();
                yield m.group(1) != null ? List.of(view) : List.of("DROP TABLE IF EXISTS {db}." + name, view);
            }
            case "derive" -> {
                requireNoColumn(d);
                yield derived(name);
            }
            default -> {
                if (d.group(3) == null) {
                    throw new IllegalStateException("@column needs table.column: " + line);
                }
                yield List.of("ALTER TABLE {db}." + name + " ADD COLUMN " + column(name, d.group(3)));
            }
        };
    }

    /** The one {@code CREATE TABLE} of {@code tables/<name>.sql}. */
    String table(String name) {
        String statement = single(TABLES + name + ".sql");
        Matcher m = CREATE_TABLE.matcher(statement);
        if (!m.find() || !m.group(1).equals(name)) {
            throw new IllegalStateException(TABLES + name + ".sql must hold CREATE TABLE IF NOT EXISTS {db}." + name + " (…)");
        }
        return statement;
    }

    /** The one {@code CREATE [MATERIALIZED] VIEW} of {@code views/<name>.sql}. */
    String view(String name) {
        String statement = single(VIEWS + name + ".sql");
        Matcher m = CREATE_VIEW.matcher(statement);
        if (!m.find() || !m.group(2).equals(name)) {
            throw new IllegalStateException(VIEWS + name + ".sql must hold CREATE [MATERIALIZED] VIEW IF NOT EXISTS {db}." + name + " …");
        }
        return statement;
    }

    /** The statements of {@code derived/<name>.sql}, one per line (comments dropped), over every account. */
    List<String> derived(String name) {
        List<String> out = read(DERIVED + name + ".sql").lines().filter(l -> !l.isBlank() && !l.startsWith("--"))
                .map(l -> l.replace("{scope}", "1")).toList();
        if (out.isEmpty()) {
            throw new IllegalStateException(DERIVED + name + ".sql holds no statement");
        }
        return out;
    }

    /** {@code <column> <type> [DEFAULT …]} as the table's file defines it. */
    String column(String table, String column) {
        String create = table(table);
        String body = create.substring(create.indexOf('(') + 1);
        Matcher m = Pattern.compile("^\\s*(" + column + "\\s+.+?),?\\s*$", Pattern.MULTILINE).matcher(body);
        if (!m.find()) {
            throw new IllegalStateException(TABLES + table + ".sql has no column " + column);
        }
        return m.group(1).trim();
    }

    private String single(String file) {
        List<String> statements = ClickHouseSchema.statements(read(file));
        if (statements.size() != 1) {
            throw new IllegalStateException(file + " must hold exactly one statement, has " + statements.size());
        }
        return statements.get(0);
    }

    private static void requireNoColumn(Matcher d) {
        if (d.group(3) != null) {
            throw new IllegalStateException("@" + d.group(1) + " takes a name, not table.column: " + d.group(0));
        }
    }

    String read(String file) {
        String resource = root + "/" + file;
        try (InputStream in = DdlDefinitions.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
