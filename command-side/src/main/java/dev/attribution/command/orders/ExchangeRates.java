package dev.attribution.command.orders;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Connection;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.ZoneOffset;

/** USD amounts of sales from {@code exchange_rates} (loaded by the admin CLI). */
public final class ExchangeRates {

    private ExchangeRates() {
    }

    /** {@code amount} in USD at the rate in force on {@code date} (UTC day), to the cent half-even; null without a rate. */
    public static BigDecimal toUsd(Connection c, BigDecimal amount, String currency, Instant date) throws SQLException {
        if ("USD".equals(currency)) {
            return amount.setScale(2, RoundingMode.HALF_EVEN);
        }
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT usd_rate FROM exchange_rates WHERE currency = ? AND valid_from <= ? ORDER BY valid_from DESC LIMIT 1")) {
            ps.setString(1, currency);
            ps.setDate(2, Date.valueOf(date.atOffset(ZoneOffset.UTC).toLocalDate()));
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? amount.multiply(rs.getBigDecimal(1)).setScale(2, RoundingMode.HALF_EVEN) : null;
            }
        }
    }

    /** Stores (or replaces) the rate of {@code currency} from {@code validFrom}. */
    public static void set(Connection c, String currency, java.time.LocalDate validFrom, BigDecimal usdRate) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO exchange_rates (currency, valid_from, usd_rate) VALUES (?, ?, ?)
                ON CONFLICT (currency, valid_from) DO UPDATE SET usd_rate = EXCLUDED.usd_rate, loaded_at = now()""")) {
            ps.setString(1, currency);
            ps.setDate(2, Date.valueOf(validFrom));
            ps.setBigDecimal(3, usdRate);
            ps.executeUpdate();
        }
    }
}
