package dev.attribution.server.marketing;

import dev.attribution.command.adspend.SpendImport;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.Test;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Spend import throughput (bench/spend-import.sh): a generated file of {@code bench.rows} rows (default 1,000,000:
 * 2,000 ads × 500 days over 4 platforms, 40 ad accounts, 200 campaigns, 1,000 ad sets), imported into a fresh
 * account (after a 100,000-row warm-up into another account), then imported again (every row compared, none
 * rewritten). Skipped unless {@code -Dbench=true}.
 * The CDC role is off so the measurement is the import alone.
 */
@MicronautTest(transactional = false)
@EnabledIfSystemProperty(named = "bench", matches = "true", disabledReason = "run bench/spend-import.sh")
class SpendImportBench extends MarketingApiTest {

    @Inject
    SpendImport spendImport;

    @Override
    public Map<String, String> getProperties() {
        Map<String, String> p = new HashMap<>(super.getProperties());
        p.put("attribution.roles.cdc", "false");
        return p;
    }

    @Test
    void importThroughput() throws IOException {
        int rows = Integer.getInteger("bench.rows", 1_000_000);
        Path file = Files.createTempFile("spend-bench", ".csv");
        try {
            long genStart = System.nanoTime();
            generate(file, rows);
            System.out.printf("BENCH generated %,d rows (%,d bytes) in %d ms%n", rows, Files.size(file),
                    (System.nanoTime() - genStart) / 1_000_000);
            // warm-up: the first 100,000 rows into a separate account, so the JIT has compiled the parse path
            String warm = newAccount();
            String warmAccount = directory.findActiveKey(dev.attribution.api.auth.ApiKeys.hash(warm)).orElseThrow().account().id();
            try (var lines = Files.lines(file, StandardCharsets.UTF_8)) {
                String head = String.join("\n", (Iterable<String>) lines.limit(100_001)::iterator) + "\n";
                long w0 = System.nanoTime();
                SpendImport.Result w = spendImport.importFile(warmAccount, new java.io.StringReader(head), SpendImport.Progress.NONE);
                System.out.printf("BENCH warm-up: %,d rows in %.2f s%n", w.rows(), (System.nanoTime() - w0) / 1e9);
            }
            String key = newAccount();
            String account = directory.findActiveKey(dev.attribution.api.auth.ApiKeys.hash(key)).orElseThrow().account().id();
            for (String run : new String[]{"first import", "re-import (unchanged)"}) {
                long t0 = System.nanoTime();
                SpendImport.Result r = spendImport.importFile(account, Files.newBufferedReader(file, StandardCharsets.UTF_8),
                        SpendImport.Progress.NONE);
                double secs = (System.nanoTime() - t0) / 1e9;
                System.out.printf("BENCH %s: %,d rows in %.2f s = %,.0f rows/s (spend rows written %,d, ads created %,d)%n",
                        run, r.rows(), secs, r.rows() / secs, r.spendRows(), r.ads());
                assertEquals(rows, r.rows());
            }
        } finally {
            Files.deleteIfExists(file);
        }
    }

    static void generate(Path file, int rows) throws IOException {
        String[] platforms = {"FACEBOOK", "GOOGLE", "TIKTOK", "BING"};
        int ads = 2_000;
        LocalDate start = LocalDate.of(2024, 1, 1);
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            w.write("platform,ad_account_id,campaign_id,ad_set_id,ad_id,date,spend,impressions,clicks,video_views,"
                    + "reported_conversions,reported_revenue,currency\n");
            StringBuilder b = new StringBuilder(256);
            for (int i = 0; i < rows; i++) {
                int ad = i % ads;
                int day = i / ads;
                int adSet = ad / 2;
                int campaign = adSet / 5;
                int adAccount = campaign / 5;
                b.setLength(0);
                b.append(platforms[adAccount % platforms.length]).append(",act_").append(adAccount)
                        .append(",cmp_").append(campaign).append(",as_").append(adSet).append(",ad_").append(ad).append(',')
                        .append(start.plusDays(day)).append(',')
                        .append((i * 37L) % 50_000 / 100).append('.').append(i % 100 < 10 ? "0" : "").append(i % 100).append(',')
                        .append(1000 + i % 5000).append(',').append(10 + i % 300).append(',').append(i % 97).append(',')
                        .append(i % 7).append(',').append(i % 13).append(".50,USD\n");
                w.write(b.toString());
            }
        }
    }
}
