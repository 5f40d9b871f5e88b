package dev.attribution.api;

import java.util.List;

/** Product (sale) tags as clients write them: the {@code $} prefix is added when omitted (spec 4.2, 4.3, 4.6). */
public final class SaleTags {

    private SaleTags() {
    }

    /** {@code "widget"} → {@code "$widget"}; {@code "$widget"} unchanged; surrounding blanks dropped. */
    public static String of(String tag) {
        String t = tag.trim();
        return t.startsWith("$") ? t : "$" + t;
    }

    public static List<String> of(List<String> tags) {
        return tags.stream().map(SaleTags::of).toList();
    }
}
