package dev.attribution.query.attribution.models.scientific;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A first-order Markov chain over touch paths (docs/attribution-models.md, "scientific"): states START, one state per
 * channel, and the absorbing CONVERSION and NULL. Transition probabilities are the observed transition counts divided
 * by the state's outgoing count. Absorption probabilities are solved exactly (Gaussian elimination with partial
 * pivoting on the transient states), not simulated.
 */
public final class MarkovChain {

    /** One path: its channels in touch order (at least one) and whether it ended in a conversion. */
    public record Path(List<String> channels, boolean converted) {
    }

    private final List<String> channels;
    private final Map<String, Integer> index = new LinkedHashMap<>();
    /** Transient states: 0 = START, 1..n = channels. Columns n+1 = CONVERSION, n+2 = NULL. */
    private final long[][] counts;

    /**
     * Observed transitions {@code from} → {@code to}, {@code count} times: {@code from} null is START, {@code to} null
     * the absorbing state (CONVERSION when {@code converted}, else NULL). What a query that counts the transitions of
     * the paths returns, so the chain can be built without the paths themselves.
     */
    public record Transition(String from, String to, boolean converted, long count) {
    }

    public MarkovChain(List<Path> paths) {
        this(transitions(paths));
    }

    /** The chain of the transition counts (several entries of one transition add up). */
    public static MarkovChain ofTransitions(List<Transition> transitions) {
        return new MarkovChain(transitions);
    }

    private MarkovChain(Iterable<Transition> transitions) {
        java.util.TreeSet<String> sorted = new java.util.TreeSet<>();
        for (Transition t : transitions) {
            if (t.from() != null) {
                sorted.add(t.from());
            }
            if (t.to() != null) {
                sorted.add(t.to());
            }
        }
        for (String c : sorted) {
            index.put(c, index.size() + 1);
        }
        channels = new ArrayList<>(index.keySet());
        int n = channels.size();
        counts = new long[n + 1][n + 3];
        for (Transition t : transitions) {
            int from = t.from() == null ? 0 : index.get(t.from());
            int to = t.to() != null ? index.get(t.to()) : t.converted() ? n + 1 : n + 2;
            counts[from][to] += t.count();
        }
    }

    private static List<Transition> transitions(List<Path> paths) {
        List<Transition> out = new ArrayList<>();
        for (Path p : paths) {
            String from = null;
            for (String c : p.channels()) {
                out.add(new Transition(from, c, p.converted(), 1));
                from = c;
            }
            if (!p.channels().isEmpty()) {
                out.add(new Transition(from, null, p.converted(), 1));
            }
        }
        return out;
    }

    /** The channels, sorted (so the arithmetic, hence the last bits of every double, does not depend on row order). */
    public List<String> channels() {
        return List.copyOf(channels);
    }

    /** P(a → b) where a, b are "START", a channel, "CONVERSION" or "NULL" (a must be transient). */
    public double transition(String a, String b) {
        int from = state(a);
        long out = 0;
        for (long x : counts[from]) {
            out += x;
        }
        return out == 0 ? 0 : (double) counts[from][state(b)] / out;
    }

    private int state(String s) {
        int n = channels.size();
        return switch (s) {
            case "START" -> 0;
            case "CONVERSION" -> n + 1;
            case "NULL" -> n + 2;
            default -> index.get(s);
        };
    }

    /** The probability of reaching CONVERSION from each transient state (START first, then the channels, sorted). */
    public double[] absorption(String removed) {
        int n = channels.size();
        int m = n + 1;
        int cut = removed == null ? -1 : index.getOrDefault(removed, -1);
        // x_i = sum_j P(i→j) x_j + P(i→CONVERSION), with x_removed = 0 (every transition into it goes to NULL).
        double[][] a = new double[m][m + 1];
        for (int i = 0; i < m; i++) {
            a[i][i] = 1;
            if (i == cut) {
                continue;
            }
            long out = 0;
            for (long x : counts[i]) {
                out += x;
            }
            if (out == 0) {
                continue;
            }
            for (int j = 0; j < m; j++) {
                if (j != cut) {
                    a[i][j] -= (double) counts[i][j] / out;
                }
            }
            a[i][m] = (double) counts[i][n + 1] / out;
        }
        return solve(a);
    }

    /** P(START reaches CONVERSION), with channel {@code removed} removed (null: the full chain). */
    public double conversionProbability(String removed) {
        return absorption(removed)[0];
    }

    /** Removal effect of each channel: 1 - P(conversion without c) / P(conversion); 0 for all when P = 0. */
    public Map<String, Double> removalEffects() {
        double p = conversionProbability(null);
        Map<String, Double> effects = new LinkedHashMap<>();
        for (String c : channels) {
            effects.put(c, p == 0 ? 0 : Math.max(0, 1 - conversionProbability(c) / p));
        }
        return effects;
    }

    /** Gaussian elimination with partial pivoting on an augmented m × (m+1) matrix. */
    private static double[] solve(double[][] a) {
        int m = a.length;
        for (int col = 0; col < m; col++) {
            int pivot = col;
            for (int r = col + 1; r < m; r++) {
                if (Math.abs(a[r][col]) > Math.abs(a[pivot][col])) {
                    pivot = r;
                }
            }
            double[] t = a[col];
            a[col] = a[pivot];
            a[pivot] = t;
            double d = a[col][col];
            if (d == 0) {
                // Only states with no path to an absorbing state could do this; none exist (every path ends absorbed).
                throw new IllegalStateException("singular Markov chain");
            }
            for (int r = 0; r < m; r++) {
                if (r == col || a[r][col] == 0) {
                    continue;
                }
                double f = a[r][col] / d;
                for (int k = col; k <= m; k++) {
                    a[r][k] -= f * a[col][k];
                }
            }
        }
        double[] x = new double[m];
        for (int i = 0; i < m; i++) {
            x[i] = a[i][m] / a[i][i];
        }
        return x;
    }
}
