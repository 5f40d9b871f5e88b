package dev.attribution.server.reports;

import dev.attribution.query.attribution.models.scientific.MarkovChain;
import dev.attribution.query.attribution.models.scientific.PathCredit;
import dev.attribution.query.attribution.models.scientific.PathCredit.Sale;
import dev.attribution.query.attribution.models.scientific.PathCredit.Touch;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The hand-solved three-channel example of docs/attribution-models.md ("Scientific", worked example), number by number. */
class ScientificExampleTest {

    static final double EPS = 1e-12;

    static final List<MarkovChain.Path> PATHS = List.of(
            new MarkovChain.Path(List.of("A", "B"), true),
            new MarkovChain.Path(List.of("B", "A"), false),
            new MarkovChain.Path(List.of("C"), true),
            new MarkovChain.Path(List.of("A", "C"), false));

    @Test
    void transitionMatrix() {
        MarkovChain chain = new MarkovChain(PATHS);
        assertEquals(List.of("A", "B", "C"), chain.channels());
        assertEquals(1.0 / 2, chain.transition("START", "A"), EPS);
        assertEquals(1.0 / 4, chain.transition("START", "B"), EPS);
        assertEquals(1.0 / 4, chain.transition("START", "C"), EPS);
        assertEquals(0, chain.transition("START", "CONVERSION"), EPS);
        assertEquals(1.0 / 3, chain.transition("A", "B"), EPS);
        assertEquals(1.0 / 3, chain.transition("A", "C"), EPS);
        assertEquals(1.0 / 3, chain.transition("A", "NULL"), EPS);
        assertEquals(0, chain.transition("A", "CONVERSION"), EPS);
        assertEquals(1.0 / 2, chain.transition("B", "A"), EPS);
        assertEquals(1.0 / 2, chain.transition("B", "CONVERSION"), EPS);
        assertEquals(1.0 / 2, chain.transition("C", "CONVERSION"), EPS);
        assertEquals(1.0 / 2, chain.transition("C", "NULL"), EPS);
    }

    @Test
    void absorptionProbabilities() {
        MarkovChain chain = new MarkovChain(PATHS);
        // Full chain: x_START, x_A, x_B, x_C.
        assertArray(new double[]{1.0 / 2, 2.0 / 5, 7.0 / 10, 1.0 / 2}, chain.absorption(null));
        // A removed: x_A = 0, x_B = 1/2, x_C = 1/2, x_START = 1/4.
        assertArray(new double[]{1.0 / 4, 0, 1.0 / 2, 1.0 / 2}, chain.absorption("A"));
        // B removed: x_A = 1/6, x_START = 5/24.
        assertArray(new double[]{5.0 / 24, 1.0 / 6, 0, 1.0 / 2}, chain.absorption("B"));
        // C removed: x_A = 1/5, x_B = 3/5, x_START = 1/4.
        assertArray(new double[]{1.0 / 4, 1.0 / 5, 3.0 / 5, 0}, chain.absorption("C"));
    }

    @Test
    void removalEffectsAndShares() {
        Map<String, Double> re = new MarkovChain(PATHS).removalEffects();
        assertEquals(1.0 / 2, re.get("A"), EPS);
        assertEquals(7.0 / 12, re.get("B"), EPS);
        assertEquals(1.0 / 2, re.get("C"), EPS);
        double sum = re.values().stream().mapToDouble(Double::doubleValue).sum();
        assertEquals(19.0 / 12, sum, EPS);
        assertEquals(6.0 / 19, re.get("A") / sum, EPS);
        assertEquals(7.0 / 19, re.get("B") / sum, EPS);
        assertEquals(6.0 / 19, re.get("C") / sum, EPS);
    }

    @Test
    void creditPerSale() {
        Sale s1 = new Sale("s1", "L1", false, true, 10000, List.of(touch(1, "A"), touch(2, "B")));
        Sale s3 = new Sale("s3", "L3", false, true, 5000, List.of(touch(3, "C")));
        Map<String, PathCredit.Credit> credit = PathCredit.credit(List.of(s1, s3),
                List.of(List.of(touch(4, "B"), touch(5, "A")), List.of(touch(6, "A"), touch(7, "C"))));
        assertEquals(6.0 / 13, credit.get("A").sales, EPS);
        assertEquals(7.0 / 13, credit.get("B").sales, EPS);
        assertEquals(1.0, credit.get("C").sales, EPS);
        assertEquals(6.0 / 13, credit.get("A").uniqueCustomers, EPS);
        assertEquals(4615, PathCredit.cents(credit.get("A").revenue)); // 4615.38... cents → 46.15
        assertEquals(5385, PathCredit.cents(credit.get("B").revenue)); // 5384.61... cents → 53.85
        assertEquals(5000, PathCredit.cents(credit.get("C").revenue));
        assertEquals(60000.0 / 13, credit.get("A").revenue, 1e-9);
    }

    private static Touch touch(long at, String channel) {
        return new Touch(at, "k" + at, false, channel);
    }

    private static void assertArray(double[] want, double[] got) {
        assertEquals(want.length, got.length);
        for (int i = 0; i < want.length; i++) {
            assertEquals(want[i], got[i], EPS, "state " + i);
        }
    }
}
