package dev.attribution.command.orders;

import dev.attribution.api.ApiException;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Currency;
import java.util.List;

/**
 * Amounts as whole minor units of their currency (docs/money.md). The stored scale is the currency's own number of
 * decimals, capped at 2 (JPY 0, USD 2; the three-decimal currencies are held to the cent). {@code priceFormat}
 * INTEGER means the amount is written in the currency's native minor units (cents for USD, yen for JPY,
 * fils for KWD); DECIMAL means major units. Never a double anywhere.
 */
public final class Money {

    public static final List<String> FORMATS = java.util.Arrays.stream(Format.values()).map(Enum::name).toList();

    /** How amounts are written: decimal units, or integer minor units. */
    public enum Format { DECIMAL, INTEGER }
    /** Largest amount accepted for one money field, in major units (keeps every sum inside numeric(18,2)). */
    public static final BigDecimal MAX_AMOUNT = new BigDecimal("10000000000");

    private Money() {
    }

    /** True for an ISO 4217 code the JDK knows. */
    public static boolean isCurrency(String code) {
        try {
            return code != null && code.length() == 3 && Currency.getInstance(code) != null;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** Decimals stored for {@code currency}: its own, at most 2. */
    public static int scale(String currency) {
        return Math.min(nativeDigits(currency), 2);
    }

    static int nativeDigits(String currency) {
        int digits = Currency.getInstance(currency).getDefaultFractionDigits();
        return digits < 0 ? 2 : digits;
    }

    /**
     * An amount as sent, in {@code format}, converted to minor units at {@link #scale}. DECIMAL amounts with more
     * decimals than the scale are rounded half-even; INTEGER amounts must be whole numbers.
     */
    public static long toMinor(String field, BigDecimal amount, String format, String currency) {
        if (amount.signum() < 0) {
            throw ApiException.badRequest(field + " must not be negative");
        }
        BigDecimal major = amount;
        if ("INTEGER".equals(format)) {
            if (amount.stripTrailingZeros().scale() > 0) {
                throw ApiException.badRequest(field + " must be a whole number when priceFormat is INTEGER");
            }
            major = amount.movePointLeft(nativeDigits(currency));
        }
        if (major.compareTo(MAX_AMOUNT) > 0) {
            throw ApiException.badRequest(field + " is above the maximum allowed amount");
        }
        return major.setScale(scale(currency), RoundingMode.HALF_EVEN).unscaledValue().longValueExact();
    }

    /** Minor units back to a decimal at the currency's scale (what PostgreSQL numeric stores). */
    public static BigDecimal toDecimal(long minor, String currency) {
        return BigDecimal.valueOf(minor, scale(currency));
    }

    /** A stored decimal as minor units of {@code currency}. */
    public static long fromDecimal(BigDecimal amount, String currency) {
        return amount.setScale(scale(currency), RoundingMode.HALF_EVEN).unscaledValue().longValueExact();
    }
}
