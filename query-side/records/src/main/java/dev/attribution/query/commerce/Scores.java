package dev.attribution.query.commerce;

import java.math.BigDecimal;

/**
 * The {@code score} of a sale or call (spec 2.7, 2.8): the URL-rule qualification score (spec 2.15 UrlRuleScore),
 * {@code 0} meaning unqualified, its default. Always rendered, so a client never has to tell "absent" from 0
 * (docs/commerce.md "Scores").
 */
public final class Scores {

    /** The default score: unqualified (spec 2.15). */
    public static final BigDecimal UNSCORED = BigDecimal.ZERO;

    private Scores() {
    }

    /** The stored score, or {@link #UNSCORED} when none was given. */
    public static BigDecimal of(BigDecimal stored) {
        return stored == null ? UNSCORED : stored;
    }
}
