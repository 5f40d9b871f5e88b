package dev.attribution.cdc.resync;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.attribution.clickhouse.ClickHouseGateway;
import dev.attribution.clickhouse.ClickHouseSql;
import dev.attribution.server.support.TwoEngines;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The CDC bridge's current-row builder ({@link CdcTable}: {@code CurrentRow.latest} per key, {@code CurrentRow.live()})
 * and every {@code <table>_current} view of the DDL keep the same keys of the same versioned rows, on ClickHouse 18.16
 * and on a current release ({@link TwoEngines}: fresh databases, every DDL file applied). The query side's owners are
 * compared with their views on API-written data by {@code CurrentRowsTest}; this covers every table that has a view.
 *
 * <p>Data: a ClickHouse-level fixture, rows shaped as the CDC sink writes them (every column of the table, DateTime as
 * epoch seconds, Date as {@code YYYY-MM-DD}, Decimal as a number, Nullable as null, {@code _version} and
 * {@code is_deleted}), because the API cannot give every table the cases the rule must get right: per key, several
 * versions whose other columns (the partition column and, for calls and subscriptions, the lead) change between
 * versions, so the versions sit in different partitions; a key whose newest version is a delete; a key deleted then
 * written again; and a key soft-deleted ({@code deleted = 1}) or erased ({@code erased = 1}) in PostgreSQL, which the
 * bridge keeps (PostgreSQL still holds the row) and the view drops.
 */
class CurrentRowViewsTest {

    private static final Pattern GROUP_BY = Pattern.compile("\\bGROUP BY\\s+(.+?)\\s+HAVING\\b");
    private static final Pattern MONTH = Pattern.compile("toYYYYMM\\((\\w+)\\)");
    private static final List<String> META = List.of("_version", "is_deleted");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ACC = "acc-rows";

    /** The fixture's keys, by label (the value of every String key column but account_id) and what becomes of them. */
    private enum Case {
        /** three versions, the newest live: in both */
        UPDATED,
        /** two versions, the newest a delete: in neither */
        DELETED,
        /** a delete, then a live version: in both */
        REVIVED,
        /** the newest version soft-deleted or erased in PostgreSQL: kept by the bridge, dropped by the view */
        SOFT_DELETED
    }

    @Test
    void theBridgeBuilderKeepsTheKeysOfEveryCurrentViewOnBothEngines() throws Exception {
        try (TwoEngines two = TwoEngines.start("currentrows")) {
            for (Map.Entry<String, ClickHouseGateway> engine : two.engines().entrySet()) {
                ClickHouseGateway g = engine.getValue();
                List<String> views = g.select("SELECT name FROM system.tables WHERE database = " + ClickHouseSql.str(g.database())
                        + " AND name LIKE '%\\\\_current'").stream().map(r -> r.get("name").asText()).toList();
                assertTrue(views.size() >= 15, engine.getKey() + ": " + views);
                for (String view : views) {
                    String table = view.substring(0, view.length() - "_current".length());
                    CdcTable t = describe(g, table, view);
                    Map<Case, Long> newest = insertFixture(g, t);
                    Map<String, String> expectedView = new TreeMap<>();
                    Map<String, String> expectedBridge = new TreeMap<>();
                    for (Map.Entry<Case, Long> c : newest.entrySet()) {
                        String hash = g.select("SELECT toString(" + t.chHash() + ") AS h FROM " + g.database() + "." + table
                                + " WHERE _version = " + c.getValue()).get(0).get("h").asText();
                        if (c.getKey() == Case.UPDATED || c.getKey() == Case.REVIVED) {
                            expectedView.put(c.getKey().name(), c.getValue().toString());
                            expectedBridge.put(c.getKey().name(), hash);
                        } else if (c.getKey() == Case.SOFT_DELETED) {
                            expectedBridge.put(c.getKey().name(), hash);
                        }
                    }
                    String where = engine.getKey() + " " + table;
                    assertEquals(expectedView, viewKeys(g, t, view), where + ": the view's keys and their newest versions");
                    assertEquals(expectedBridge, bridgeKeys(g, t), where + ": the bridge builder's keys and their newest rows' hashes");
                }
            }
        }
    }

    /** The table as {@link CdcTables#describe} sees it, without PostgreSQL: every column but the meta ones. */
    private static CdcTable describe(ClickHouseGateway g, String table, String view) {
        String db = ClickHouseSql.str(g.database());
        JsonNode t = g.select("SELECT partition_key FROM system.tables WHERE database = " + db + " AND name = " + ClickHouseSql.str(table)).get(0);
        Matcher month = MONTH.matcher(t.get("partition_key").asText());
        String create = g.select("SELECT create_table_query FROM system.tables WHERE database = " + db + " AND name = " + ClickHouseSql.str(view))
                .get(0).get("create_table_query").asText();
        Matcher key = GROUP_BY.matcher(create);
        assertTrue(key.find(), create);
        List<String> keys = Arrays.stream(key.group(1).split(",")).map(s -> s.replace("`", "").trim()).toList();
        List<CdcTable.Column> columns = new ArrayList<>();
        for (JsonNode r : g.select("SELECT name, type FROM system.columns WHERE database = " + db + " AND table = " + ClickHouseSql.str(table))) {
            if (!META.contains(r.get("name").asText())) {
                columns.add(new CdcTable.Column(r.get("name").asText(), r.get("type").asText(), "text"));
            }
        }
        return new CdcTable(table, columns, keys, month.find() ? month.group(1) : null);
    }

    /** Inserts the fixture's versions of the table; returns the cases it holds and the newest version of each. */
    private static Map<Case, Long> insertFixture(ClickHouseGateway g, CdcTable t) {
        boolean soft = t.columns().stream().anyMatch(c -> c.name().equals("deleted") || c.name().equals("erased"));
        Map<Case, int[]> deletes = new LinkedHashMap<>();
        deletes.put(Case.UPDATED, new int[]{0, 0, 0});
        deletes.put(Case.DELETED, new int[]{0, 1});
        deletes.put(Case.REVIVED, new int[]{1, 0});
        if (soft) {
            deletes.put(Case.SOFT_DELETED, new int[]{0, 2});
        }
        StringBuilder rows = new StringBuilder();
        Map<Case, Long> newest = new LinkedHashMap<>();
        long version = 100;
        for (Map.Entry<Case, int[]> c : deletes.entrySet()) {
            // the newest version is written first: the rule must not depend on the order rows arrive in
            for (int i = c.getValue().length - 1; i >= 0; i--) {
                long v = version + 7L * (i + 1);
                newest.putIfAbsent(c.getKey(), v);
                rows.append(row(t, c.getKey().name(), i + 1, v, c.getValue()[i])).append('\n');
            }
            version += 100;
        }
        g.insertJsonEachRow(t.name(), rows.toString().getBytes(StandardCharsets.UTF_8));
        return newest;
    }

    /** One version: key columns from the label, the others changing with {@code n}; {@code state} 1 = delete, 2 = soft delete. */
    private static String row(CdcTable t, String label, int n, long version, int state) {
        ObjectNode o = JSON.createObjectNode();
        for (CdcTable.Column c : t.columns()) {
            String name = c.name();
            String base = c.base();
            if (name.equals("account_id")) {
                o.put(name, ACC);
            } else if (name.equals("deleted") || name.equals("erased")) {
                o.put(name, state == 2 ? 1 : 0);
            } else if (t.key().contains(name)) {
                if (base.equals("Date")) {
                    o.put(name, "2026-03-0" + (label.length() % 9 + 1));
                } else if (base.startsWith("DateTime")) {
                    o.put(name, LocalDate.of(2026, 3, label.length() % 9 + 1).toEpochDay() * 86400);
                } else {
                    o.put(name, label);
                }
            } else if (c.nullable() && n == 2) {
                o.putNull(name);
            } else if (base.startsWith("DateTime")) {
                o.put(name, LocalDate.of(2026, n, 15).toEpochDay() * 86400 + n);
            } else if (base.equals("Date")) {
                o.put(name, LocalDate.of(2026, n, 15).toString());
            } else if (base.startsWith("Decimal")) {
                o.put(name, new BigDecimal(n + ".25"));
            } else if (base.startsWith("Array(")) {
                o.putArray(name).add("t" + n);
            } else if (base.startsWith("UInt8")) {
                o.put(name, n % 2);
            } else if (base.startsWith("Int") || base.startsWith("UInt")) {
                o.put(name, n);
            } else {
                o.put(name, name.equals("lead_id") ? "lead-" + n : name + "-" + n);
            }
        }
        o.put("_version", version);
        o.put("is_deleted", state == 1 ? 1 : 0);
        return o.toString();
    }

    /** The labels of the view's keys for the account, each with its {@code last_version}. */
    private static Map<String, String> viewKeys(ClickHouseGateway g, CdcTable t, String view) {
        String label = t.key().stream().filter(k -> !k.equals("account_id")).findFirst().orElseThrow();
        Map<String, String> out = new TreeMap<>();
        g.select("SELECT toString(" + label + ") AS l, toString(last_version) AS v FROM " + g.database() + "." + view
                        + " WHERE account_id = " + ClickHouseSql.str(ACC)).forEach(r -> out.put(r.get("l").asText(), r.get("v").asText()));
        return out;
    }

    /** The labels of the keys the bridge's builder keeps ({@link CdcTable#chKeyedRows}, every month it finds), with their hashes. */
    private static Map<String, String> bridgeKeys(ClickHouseGateway g, CdcTable t) {
        String db = g.database();
        String label = t.key().stream().filter(k -> !k.equals("account_id")).findFirst().orElseThrow();
        Pattern labelIn = Pattern.compile("(?:^|, )" + label + "=([^,]*)");
        Map<String, String> out = new TreeMap<>();
        Set<Integer> months = new TreeSet<>();
        g.select("SELECT DISTINCT m FROM (" + t.chLiveRows(db) + ") AS live").forEach(r -> months.add(r.get("m").asInt()));
        for (int month : months) {
            for (JsonNode r : g.select(t.chKeyedRows(db, month))) {
                Matcher m = labelIn.matcher(r.get("k").asText());
                assertTrue(m.find(), r.toString());
                out.put(m.group(1), r.get("h").asText());
            }
        }
        return out;
    }
}
