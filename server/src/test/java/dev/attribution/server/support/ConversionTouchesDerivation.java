package dev.attribution.server.support;

import dev.attribution.clickhouse.ClickHouseGateway;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;

/**
 * For tests that insert the rows the CDC sink would write straight into ClickHouse: derives the account's
 * {@code conversion_touches} rows (the projection PostgreSQL's triggers maintain and the bridge streams) from the
 * clicks, sales and calls inserted, with clickhouse/derived/conversion_touches.sql (the bench's generator too).
 * Call it after every change of those rows. ConversionTouchesTriggerTest checks the triggers themselves through CDC.
 */
public final class ConversionTouchesDerivation {

    private static final AtomicLong VERSION = new AtomicLong(System.currentTimeMillis() * 1000);

    private ConversionTouchesDerivation() {
    }

    public static void derive(ClickHouseGateway clickHouse, String accountId) {
        String version = Long.toString(VERSION.addAndGet(2));
        for (String line : sql().split("\n")) {
            if (line.isBlank() || line.startsWith("--")) {
                continue;
            }
            clickHouse.execute(line.replace("{db}", clickHouse.database()).replace("{acc}", accountId)
                    .replace("{scope}", "1").replace("{version}", version).replace("{lo}", "0")
                    .replace("{hi}", "18446744073709551615"));
        }
    }

    private static String sql() {
        try (InputStream in = ConversionTouchesDerivation.class.getClassLoader().getResourceAsStream("clickhouse/derived/conversion_touches.sql")) {
            if (in == null) {
                throw new IllegalStateException("missing resource clickhouse/derived/conversion_touches.sql");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
