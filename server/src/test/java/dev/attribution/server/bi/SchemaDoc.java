package dev.attribution.server.bi;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What docs/clickhouse-schema.md promises BI tools, read from the markdown: each {@code #### Table `x`} /
 * {@code #### View `x`} heading followed by a {@code | column | type | meaning |} table, the objects named on the
 * {@code Not for BI:} line, and the {@code sql} blocks of the "Example queries" section.
 */
record SchemaDoc(Map<String, Map<String, String>> columns, Set<String> notForBi, List<String> examples) {

    private static final Pattern HEADING = Pattern.compile("^#### (?:Table|View) `(\\w+)`\\s*$");
    private static final Pattern ROW = Pattern.compile("^\\| `(\\w+)` \\| ([^|]+?) \\| (.*?)\\s*\\|\\s*$");
    private static final Pattern TICKED = Pattern.compile("`(\\w+)`");
    private static final Pattern SQL = Pattern.compile("```sql\\n(.*?)```", Pattern.DOTALL);

    static Path file() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.exists(p.resolve("docs/clickhouse-schema.md"))) {
            p = p.getParent();
        }
        if (p == null) {
            throw new IllegalStateException("docs/clickhouse-schema.md not found above " + Path.of("").toAbsolutePath());
        }
        return p.resolve("docs/clickhouse-schema.md");
    }

    static SchemaDoc read() throws IOException {
        String text = Files.readString(file());
        Map<String, Map<String, String>> columns = new LinkedHashMap<>();
        Set<String> notForBi = new LinkedHashSet<>();
        String current = null;
        boolean notForBiParagraph = false;
        for (String line : text.split("\n")) {
            notForBiParagraph = line.startsWith("Not for BI:") || (notForBiParagraph && !line.isBlank());
            Matcher h = HEADING.matcher(line);
            if (h.matches()) {
                current = h.group(1);
                if (columns.containsKey(current)) {
                    throw new IllegalStateException("docs/clickhouse-schema.md documents " + current + " twice");
                }
                columns.put(current, new LinkedHashMap<>());
                continue;
            }
            if (line.startsWith("#")) {
                current = null;
            }
            if (notForBiParagraph) {
                Matcher t = TICKED.matcher(line);
                while (t.find()) {
                    notForBi.add(t.group(1));
                }
            }
            Matcher r = ROW.matcher(line);
            if (current != null && r.matches()) {
                if (r.group(3).isEmpty()) {
                    throw new IllegalStateException("docs/clickhouse-schema.md: " + current + "." + r.group(1) + " has no meaning");
                }
                columns.get(current).put(r.group(1), r.group(2).trim());
            }
        }
        int at = text.indexOf("### Example queries");
        int end = text.indexOf("\n## ", at);
        List<String> examples = new ArrayList<>();
        Matcher m = SQL.matcher(text.substring(at, end));
        while (m.find()) {
            examples.add(m.group(1).trim());
        }
        return new SchemaDoc(columns, notForBi, examples);
    }
}
