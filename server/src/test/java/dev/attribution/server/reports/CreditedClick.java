package dev.attribution.server.reports;

import dev.attribution.server.reports.AttributionOracle.Click;
import dev.attribution.server.reports.AttributionOracle.Data;
import dev.attribution.server.reports.AttributionOracle.Opts;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** The click models' credit rules of {@link AttributionOracle}: which click of a lead a conversion is credited to. */
final class CreditedClick {

    private CreditedClick() {
    }

    /**
     * The click a conversion of {@code lead} at {@code at} is credited to (section "Which click gets a sale", steps
     * 1-3), null when it has no candidate.
     */
    static Click of(Data d, String lead, Instant at, String config, int windowDays, Opts o, boolean last) {
        List<Click> candidates = new ArrayList<>();
        for (Click c : d.clicks()) {
            if (!c.leadId().equals(lead) || c.at().isAfter(at)) {
                continue;
            }
            if (windowDays > 0 && c.at().isBefore(at.minusSeconds(windowDays * 86400L))) {
                continue;
            }
            if (!o.keeps(c, config)) {
                continue;
            }
            candidates.add(c);
        }
        if (candidates.isEmpty()) {
            return null;
        }
        boolean anyPreferred = candidates.stream().anyMatch(c -> preferred(c, config));
        List<Click> pool = candidates.stream().filter(c -> !anyPreferred || preferred(c, config)).toList();
        Comparator<Click> order = Comparator.comparing(Click::at).thenComparing(Click::id);
        return last ? pool.stream().max(order).orElseThrow() : pool.stream().min(order).orElseThrow();
    }

    private static boolean preferred(Click c, String config) {
        return switch (config) {
            case "prioritize_paid" -> !c.organic();
            case "prioritize_organic" -> c.organic();
            default -> true;
        };
    }
}
