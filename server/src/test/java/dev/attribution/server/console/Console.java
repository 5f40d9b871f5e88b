package dev.attribution.server.console;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.server.support.Browser;
import org.openqa.selenium.By;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Drives the analyst console in a {@link Browser} as a person does: pastes a key, opens a page, fills its form,
 * submits it, and reads back what the page shows (the raw value each cell keeps in {@code data-value}).
 */
final class Console {

    private static final Set<String> FINAL = Set.of("done", "empty", "error");

    final Browser browser;
    private final String base;

    Console(Browser browser, String serverUrl) {
        this.browser = browser;
        this.base = serverUrl + "/console/";
    }

    /** Opens the console, pastes {@code key} (and the agency header value, or null) and waits for the page. */
    Console useKey(String key, String accessibleAccountId) {
        browser.open(base + "#attribution");
        browser.visible("body[data-state=ready]");
        var form = browser.visible("#key-form");
        form.findElement(By.name("apiKey")).sendKeys(key);
        var client = form.findElement(By.name("accessibleAccountId"));
        client.clear();
        if (accessibleAccountId != null) {
            client.sendKeys(accessibleAccountId);
        }
        form.findElement(By.cssSelector("button[type=submit]")).click();
        browser.await(d -> FINAL.contains(keyState()) || "ok".equals(keyState()) ? true : null);
        return this;
    }

    String keyState() {
        return (String) browser.script("return document.getElementById('key-state').dataset.state");
    }

    /** Goes to page {@code name} (the hash route) and waits for its form. */
    Console page(String name) {
        browser.script("window.location.hash = arguments[0]", "#" + name);
        browser.await(d -> name.equals(browser.script("return document.getElementById('app').dataset.page")) ? true : null);
        return this;
    }

    /** Sets control {@code name} of form {@code formId} as a user would (change event fired); checks it took. */
    Console set(String formId, String name, String value) {
        Object got = browser.script("""
                const el = document.getElementById(arguments[0]).elements[arguments[1]];
                if (el.type === 'checkbox') el.checked = arguments[2] === 'true'; else el.value = arguments[2];
                el.dispatchEvent(new Event('input', {bubbles: true}));
                el.dispatchEvent(new Event('change', {bubbles: true}));
                return el.type === 'checkbox' ? String(el.checked) : el.value;""", formId, name, value);
        assertEquals(value, got, formId + " " + name + " did not take " + value);
        return this;
    }

    /** Waits until select {@code name} of {@code formId} has loaded its options (data-state done or empty). */
    Console awaitOptions(String formId, String name) {
        browser.await(d -> {
            Object s = browser.script("return document.getElementById(arguments[0]).elements[arguments[1]].dataset.state", formId, name);
            return "done".equals(s) || "empty".equals(s) || "error".equals(s) ? true : null;
        });
        return this;
    }

    /** Chooses exactly {@code metrics} in the form's metric picker. */
    Console metrics(String formId, List<String> metrics) {
        browser.script("""
                const f = document.getElementById(arguments[0]);
                f.querySelectorAll('input[name=metric]').forEach(i => { i.checked = arguments[1].includes(i.value); });
                f.querySelector('details.metrics').dispatchEvent(new Event('change', {bubbles: true}));""", formId, metrics);
        return this;
    }

    /** Submits {@code formId} with its button and waits for {@code regionId} to finish; returns its state. */
    String submit(String formId, String regionId) {
        String before = String.valueOf(browser.script("return document.getElementById(arguments[0]).dataset.run || '0'", regionId));
        browser.visible("#" + formId + " button[type=submit]").click();
        return awaitRun(regionId, Integer.parseInt(before));
    }

    /** Clicks {@code css} (a button that starts a run of {@code regionId}) and waits for that run; returns its state. */
    String clickAndAwait(String css, String regionId) {
        String before = String.valueOf(browser.script("return document.getElementById(arguments[0]).dataset.run || '0'", regionId));
        browser.visible(css).click();
        return awaitRun(regionId, Integer.parseInt(before));
    }

    /** Waits for a run of {@code regionId} after run number {@code before} to finish; returns its state. */
    String awaitRun(String regionId, int before) {
        return browser.await(d -> {
            @SuppressWarnings("unchecked")
            Map<String, Object> r = (Map<String, Object>) browser.script(
                    "const r = document.getElementById(arguments[0]); return r ? {run: r.dataset.run || '0', state: r.dataset.state} : null;", regionId);
            return r != null && Integer.parseInt((String) r.get("run")) > before && FINAL.contains((String) r.get("state"))
                    ? (String) r.get("state") : null;
        });
    }

    /** The messages of the error box in {@code regionId}. */
    @SuppressWarnings("unchecked")
    List<String> errors(String css) {
        return (List<String>) browser.script(
                "return [...document.querySelectorAll(arguments[0] + ' .error li.message')].map(li => li.textContent)", css);
    }

    /** A table's column keys, in order. */
    @SuppressWarnings("unchecked")
    List<String> columns(String tableId) {
        return (List<String>) browser.script(
                "return [...document.querySelectorAll('#' + arguments[0] + ' thead th')].map(th => th.dataset.key)", tableId);
    }

    /** A table's rows as shown: data-key to data-value, in display order. */
    @SuppressWarnings("unchecked")
    List<Map<String, String>> rows(String tableId) {
        List<Map<String, Object>> raw = (List<Map<String, Object>>) browser.script("""
                return [...document.querySelectorAll('#' + arguments[0] + ' tbody tr')].map(tr =>
                    Object.fromEntries([...tr.children].map(td => [td.dataset.key, td.dataset.value])));""", tableId);
        List<Map<String, String>> rows = new ArrayList<>();
        for (Map<String, Object> r : raw) {
            Map<String, String> row = new LinkedHashMap<>();
            r.forEach((k, v) -> row.put(k, v == null ? null : v.toString()));
            rows.add(row);
        }
        return rows;
    }

    /** data-key to data-value of the elements under {@code css} that carry both. */
    @SuppressWarnings("unchecked")
    Map<String, String> values(String css) {
        Map<String, Object> raw = (Map<String, Object>) browser.script("""
                return Object.fromEntries([...document.querySelectorAll(arguments[0] + ' [data-key]')]
                    .filter(e => e.dataset.value !== undefined).map(e => [e.dataset.key, e.dataset.value]));""", css);
        Map<String, String> out = new LinkedHashMap<>();
        raw.forEach((k, v) -> out.put(k, String.valueOf(v)));
        return out;
    }

    /** The text the CSV link of {@code css} downloads (its blob, fetched in the page). */
    String csv(String css) {
        Object text = browser.driver() instanceof org.openqa.selenium.JavascriptExecutor js ? js.executeAsyncScript("""
                const done = arguments[arguments.length - 1];
                fetch(document.querySelector(arguments[0]).href).then(r => r.text()).then(done, e => done('fetch failed: ' + e));""", css) : null;
        assertNotNull(text);
        return (String) text;
    }

    /** Clicks the header of column {@code key} of {@code tableId}. */
    void sortBy(String tableId, String key) {
        browser.visible("#" + tableId + " thead th[data-key='" + key + "']").click();
    }

    /** How many points (or bars) of series {@code series} the chart in {@code chartId} laid out on screen (finite x and y). */
    long drawnPoints(String chartId, int series) {
        // a line series lays its points out as one flat [x0, y0, x1, y1, ...] array (NaN for a null value), a bar
        // series one rectangle per item
        return (Long) browser.script("""
                const c = echarts.getInstanceByDom(document.getElementById(arguments[0]));
                const d = c.getModel().getSeriesByIndex(arguments[1]).getData();
                const points = d.getLayout('points');
                let n = 0;
                if (points) {
                  for (let i = 0; i + 1 < points.length; i += 2) if (isFinite(points[i]) && isFinite(points[i + 1])) n++;
                  return n;
                }
                for (let i = 0; i < d.count(); i++) {
                  const p = d.getItemLayout(i);
                  if (p && isFinite(p.x) && isFinite(p.y) && isFinite(p.height)) n++;
                }
                return n;""", chartId, series);
    }

    /** The mark lines of series {@code series}: name, xAxis, yAxis as the chart holds them. */
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> markLines(String chartId, int series) {
        return (List<Map<String, Object>>) browser.script("""
                const o = echarts.getInstanceByDom(document.getElementById(arguments[0])).getOption();
                const m = o.series[arguments[1]].markLine;
                return (m && m.data || []).map(x => ({name: x.name, xAxis: x.xAxis ?? null, yAxis: x.yAxis ?? null}));""", chartId, series);
    }

    /** The texts drawn in the chart's SVG (axis labels, legend, mark labels). */
    @SuppressWarnings("unchecked")
    List<String> chartTexts(String chartId) {
        return (List<String>) browser.script(
                "return [...document.querySelectorAll('#' + arguments[0] + ' svg text')].map(t => t.textContent)", chartId);
    }

    /** The uncaught script errors of the page: console errors other than the browser's failed-request lines. */
    List<String> scriptErrors() {
        return browser.consoleErrors().stream().filter(m -> !m.contains("Failed to load resource")).toList();
    }

    /**
     * {@code shown} (a cell's data-value) is {@code api} (the same field of the API's JSON): null as "", numbers as
     * the same double (both sides parse the same JSON text), the rest as text.
     */
    static void assertShown(JsonNode api, String shown, String where) {
        if (api == null || api.isNull() || api.isMissingNode()) {
            assertEquals("", shown == null ? "" : shown, where);
        } else if (api.isNumber()) {
            assertTrue(shown != null && !shown.isEmpty(), where + ": nothing shown for " + api);
            assertEquals(api.doubleValue(), Double.parseDouble(shown), where);
        } else if (api.isValueNode()) {
            assertEquals(api.asText(), shown, where);
        } else {
            assertNotNull(shown, where);
        }
    }

    /** Every field of every API row is shown in the table row of the same {@code keyOf} (and no other rows are). */
    static void assertTableIsAnswer(List<Map<String, String>> shown, JsonNode apiRows, java.util.function.Function<JsonNode, String> keyOf,
                                    java.util.function.Function<Map<String, String>, String> shownKeyOf, java.util.function.UnaryOperator<String> column) {
        assertEquals(apiRows.size(), shown.size(), "rows: " + shown + " vs " + apiRows);
        Map<String, Map<String, String>> byKey = new LinkedHashMap<>();
        shown.forEach(r -> byKey.put(shownKeyOf.apply(r), r));
        for (JsonNode row : apiRows) {
            Map<String, String> cells = byKey.get(keyOf.apply(row));
            assertNotNull(cells, "row " + keyOf.apply(row) + " not shown: " + byKey.keySet());
            row.fieldNames().forEachRemaining(f -> {
                String key = column.apply(f);
                assertTrue(cells.containsKey(key), "column " + key + " missing: " + cells.keySet());
                assertShown(row.get(f), cells.get(key), keyOf.apply(row) + "." + key);
            });
        }
    }

    /** The CSV's lines are the table's header keys and its rows' values in display order. */
    static void assertCsvIsTable(String csv, List<String> columns, List<Map<String, String>> rows) {
        List<String> lines = csv.lines().toList();
        assertEquals(rows.size() + 1, lines.size(), csv);
        assertEquals(String.join(",", columns), lines.get(0));
        for (int i = 0; i < rows.size(); i++) {
            Map<String, String> row = rows.get(i);
            List<String> cells = new ArrayList<>();
            for (String c : columns) {
                String v = row.get(c) == null ? "" : row.get(c);
                cells.add(v.matches(".*[\",\\r\\n].*") ? "\"" + v.replace("\"", "\"\"") + "\"" : v);
            }
            assertEquals(String.join(",", cells), lines.get(i + 1), "CSV line " + (i + 1));
        }
    }
}
