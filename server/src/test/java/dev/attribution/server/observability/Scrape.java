package dev.attribution.server.observability;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** One {@code /prometheus} answer (text format 0.0.4), its samples by name and labels. */
record Scrape(String text, List<Sample> samples) {

    record Sample(String name, Map<String, String> labels, double value) {
    }

    private static final Pattern LINE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)})? (\\S+)$");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\",?");

    static Scrape parse(String text) {
        List<Sample> samples = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            Matcher m = LINE.matcher(line);
            if (!m.matches()) {
                throw new AssertionError("not a sample line: " + line);
            }
            Map<String, String> labels = new LinkedHashMap<>();
            if (m.group(2) != null) {
                Matcher l = LABEL.matcher(m.group(2));
                while (l.find()) {
                    labels.put(l.group(1), l.group(2));
                }
            }
            samples.add(new Sample(m.group(1), labels, Double.parseDouble(m.group(3))));
        }
        return new Scrape(text, samples);
    }

    /** The samples of {@code name} whose labels include {@code labels}. */
    List<Sample> find(String name, Map<String, String> labels) {
        return samples.stream().filter(s -> s.name().equals(name) && s.labels().entrySet().containsAll(labels.entrySet())).toList();
    }

    /** The one sample of {@code name} with exactly these labels' values (others may exist); 0 when absent. */
    double value(String name, Map<String, String> labels) {
        List<Sample> found = find(name, labels);
        if (found.size() > 1) {
            throw new AssertionError("several samples of " + name + labels + ": " + found);
        }
        return found.isEmpty() ? 0 : found.get(0).value();
    }

    /** The value of a sample that must be there. */
    double present(String name, Map<String, String> labels) {
        List<Sample> found = find(name, labels);
        if (found.size() != 1) {
            throw new AssertionError("expected one sample of " + name + labels + ", found " + found);
        }
        return found.get(0).value();
    }
}
