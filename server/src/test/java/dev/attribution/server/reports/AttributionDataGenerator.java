package dev.attribution.server.reports;

import dev.attribution.clickhouse.ClickHouseGateway;

import javax.sql.DataSource;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * The seeded random data sets of {@link AttributionPropertyTest}: ads, leads with stages, clicks, sales and spend (or a
 * Google account with keywords), inserted straight into ClickHouse's streamed tables (the rows the CDC sink would
 * write) and returned as the {@link AttributionOracle}'s input. The same seed gives the same data set.
 */
final class AttributionDataGenerator {

    static final DateTimeFormatter TS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneOffset.UTC);

    private final ClickHouseGateway clickHouse;
    private final DataSource dataSource;
    /** The generated leads' stage names (PostgreSQL knows Hot and Cold for lead_stage). */
    private final Map<String, String> leadStages = new HashMap<>();

    AttributionDataGenerator(ClickHouseGateway clickHouse, DataSource dataSource) {
        this.clickHouse = clickHouse;
        this.dataSource = dataSource;
    }

    /**
     * Eight FACEBOOK ads (two campaigns, two ad accounts), 4 to 8 leads staged Hot, Cold or none, their clicks (some of
     * the deleted source link {@code @gone}), sales with taxes, shipping and cost of goods, and daily spend; the leads'
     * stages kept for {@link #stageLeads}.
     */
    AttributionOracle.Data generate(Random rnd, String accountId) {
        List<AttributionOracle.Ad> ads = new ArrayList<>();
        StringBuilder adRows = new StringBuilder();
        for (int c = 0; c < 2; c++) {
            for (int s = 0; s < 2; s++) {
                for (int a = 0; a < 2; a++) {
                    String adId = "ad" + c + s + a;
                    ads.add(new AttributionOracle.Ad(adId, "set" + c + s, "camp" + c, c == 0 ? "acct" : "acct2"));
                    adRows.append(row(accountId, "\"platform\":\"FACEBOOK\",\"ad_id\":\"" + adId + "\",\"ad_account_id\":\"" + (c == 0 ? "acct" : "acct2")
                            + "\",\"campaign_id\":\"camp"
                            + c + "\",\"ad_set_id\":\"set" + c + s + "\",\"name\":\"Ad " + adId + "\",\"created_at\":\"2026-10-01 00:00:00\""));
                }
            }
        }
        Instant base = Instant.parse("2026-11-01T00:00:00Z");
        int span = 20 * 86400;
        List<AttributionOracle.Click> clicks = new ArrayList<>();
        List<AttributionOracle.Sale> sales = new ArrayList<>();
        StringBuilder clickRows = new StringBuilder();
        StringBuilder saleRows = new StringBuilder();
        int leads = 4 + rnd.nextInt(5);
        StringBuilder leadRows = new StringBuilder();
        leadStages.clear();
        for (int l = 0; l < leads; l++) {
            String lead = "lead" + l;
            String stage = List.of("Hot", "Cold", "").get(rnd.nextInt(3));
            leadStages.put(lead, stage);
            leadRows.append(row(accountId, "\"id\":\"" + lead + "\",\"email\":\"" + lead + "@x.test\",\"stage_name\":\"" + stage
                    + "\",\"created_at\":\"2026-10-01 00:00:00\",\"updated_at\":\"2026-10-01 00:00:00\""));
            int n = rnd.nextInt(6);
            for (int i = 0; i < n; i++) {
                boolean organic = rnd.nextInt(3) == 0;
                String adId = organic || rnd.nextInt(8) == 0 ? "" : ads.get(rnd.nextInt(ads.size())).adId();
                // Same-second clicks sometimes, to exercise the tie on click id.
                Instant at = base.plusSeconds(rnd.nextInt(4) == 0 ? 86400L * (1 + rnd.nextInt(19)) : rnd.nextInt(span));
                String id = "c" + l + "_" + i;
                String tag = rnd.nextInt(5) == 0 ? "@gone" : "@live";
                clicks.add(new AttributionOracle.Click(id, lead, at, organic, adId.isEmpty() ? "" : "FACEBOOK", adId, tag));
                clickRows.append(row(accountId, "\"id\":\"" + id + "\",\"lead_id\":\"" + lead + "\",\"source_link_tag\":\"" + tag
                        + "\",\"click_date\":\"" + TS.format(at)
                        + "\",\"is_organic\":" + (organic ? 1 : 0) + ",\"integration_type\":\"" + (adId.isEmpty() ? "" : "FACEBOOK")
                        + "\",\"adspend_ad_id\":\"" + adId + "\",\"created_at\":\"" + TS.format(at) + "\""));
            }
            int m = rnd.nextInt(4);
            List<Instant> times = new ArrayList<>();
            for (int i = 0; i < m; i++) {
                times.add(base.plusSeconds(rnd.nextInt(span)));
            }
            times.sort(null);
            boolean existingCustomer = rnd.nextInt(5) == 0;
            for (int i = 0; i < m; i++) {
                long cents = 100 + rnd.nextInt(50000);
                boolean recurring = i > 0 && rnd.nextBoolean();
                boolean first = i == 0 && !existingCustomer;
                String id = "s" + l + "_" + i;
                long taxes = rnd.nextInt((int) cents / 10 + 1);
                long shipping = rnd.nextInt(500);
                long goods = rnd.nextInt((int) cents / 3 + 1);
                sales.add(new AttributionOracle.Sale(id, lead, times.get(i), cents, recurring, first, taxes + shipping + goods));
                saleRows.append(row(accountId, "\"id\":\"" + id + "\",\"order_id\":\"o" + id + "\",\"lead_id\":\"" + lead
                        + "\",\"quantity\":1,\"price\":" + BigDecimal.valueOf(cents, 2) + ",\"taxes\":" + BigDecimal.valueOf(taxes, 2)
                        + ",\"shipping\":" + BigDecimal.valueOf(shipping, 2) + ",\"cost_of_goods\":" + BigDecimal.valueOf(goods, 2) + ",\"currency\":\"USD\",\"recurring\":"
                        + (recurring ? 1 : 0) + ",\"first_sale\":" + (first ? 1 : 0) + ",\"sale_date\":\"" + TS.format(times.get(i))
                        + "\",\"updated_at\":\"" + TS.format(times.get(i)) + "\",\"deleted\":0"));
            }
        }
        List<AttributionOracle.Spend> spend = new ArrayList<>();
        StringBuilder spendRows = new StringBuilder();
        for (AttributionOracle.Ad ad : ads) {
            for (int day = 0; day < 20; day++) {
                if (rnd.nextInt(3) != 0) {
                    continue;
                }
                long cents = 1 + rnd.nextInt(20000);
                LocalDate d = LocalDate.parse("2026-11-01").plusDays(day);
                spend.add(new AttributionOracle.Spend(ad.adId(), d, cents));
                spendRows.append(row(accountId, "\"platform\":\"FACEBOOK\",\"ad_id\":\"" + ad.adId() + "\",\"day\":\"" + d
                        + "\",\"ad_account_id\":\"" + ad.adAccountId() + "\",\"campaign_id\":\"" + ad.campaignId() + "\",\"ad_set_id\":\"" + ad.adSetId()
                        + "\",\"spend\":" + BigDecimal.valueOf(cents, 2) + ",\"currency\":\"USD\",\"updated_at\":\"2026-11-01 00:00:00\""));
            }
        }
        insert("ads", adRows);
        insert("leads", leadRows);
        insert("source_links", new StringBuilder()
                .append(row(accountId, "\"id\":\"sl1\",\"tag\":\"@gone\",\"created_at\":\"2026-10-01 00:00:00\",\"updated_at\":\"2026-10-02 00:00:00\","
                        + "\"deleted_at\":\"2026-10-02 00:00:00\""))
                .append(row(accountId, "\"id\":\"sl2\",\"tag\":\"@live\",\"created_at\":\"2026-10-01 00:00:00\",\"updated_at\":\"2026-10-01 00:00:00\"")));
        stages(accountId);
        insert("clicks", clickRows);
        insert("sales", saleRows);
        insert("ad_spend_daily", spendRows);
        dev.attribution.server.support.ConversionTouchesDerivation.derive(clickHouse, accountId);
        return new AttributionOracle.Data(ads, clicks, sales, spend);
    }

    /** The generated leads whose stage is one of {@code stages} (comma-separated, any case); null = no filter. */
    Set<String> stageLeads(String stages) {
        if (stages.isEmpty()) {
            return null;
        }
        Set<String> wanted = new HashSet<>();
        for (String x : stages.split(",")) {
            wanted.add(x.trim().toLowerCase(java.util.Locale.ROOT));
        }
        Set<String> leads = new HashSet<>();
        leadStages.forEach((lead, stage) -> {
            if (wanted.contains(stage.toLowerCase(java.util.Locale.ROOT))) {
                leads.add(lead);
            }
        });
        return leads;
    }

    /** Two Google ad groups with two registered keywords each; clicks with kwd- ids, unregistered ones and none. */
    AttributionOracle.Data generateKeywords(Random rnd, String accountId, String platform) {
        List<AttributionOracle.Ad> ads = new ArrayList<>();
        StringBuilder adRows = new StringBuilder();
        for (int g = 0; g < 2; g++) {
            for (int a = 0; a < 2; a++) {
                String adId = "gad" + g + a;
                ads.add(new AttributionOracle.Ad(adId, "g" + g, "gc", "gacct"));
                for (String p : List.of("GOOGLE", "GOOGLE_V2")) {
                    adRows.append(row(accountId, "\"platform\":\"" + p + "\",\"ad_id\":\"" + adId + "\",\"ad_account_id\":\"gacct\",\"campaign_id\":\"gc\","
                            + "\"ad_set_id\":\"g" + g + "\",\"name\":\"Ad " + adId + "\",\"created_at\":\"2026-10-01 00:00:00\""));
                }
            }
        }
        try (java.sql.Connection c = io.micronaut.data.connection.jdbc.advice.DelegatingDataSource.unwrapDataSource(dataSource).getConnection();
             java.sql.PreparedStatement ps = c.prepareStatement("INSERT INTO ad_keywords (account_id, platform, keyword_id, ad_set_id, keyword, match_type) "
                     + "VALUES (?, ?, ?, ?, ?, 'EXACT')")) {
            for (String p : List.of("GOOGLE", "GOOGLE_V2")) {
                for (String[] kw : new String[][]{{"101", "g0"}, {"102", "g0"}, {"201", "g1"}, {"202", "g1"}}) {
                    ps.setString(1, accountId);
                    ps.setString(2, p);
                    ps.setString(3, kw[0]);
                    ps.setString(4, kw[1]);
                    ps.setString(5, "keyword " + kw[0]);
                    ps.executeUpdate();
                }
            }
            if (!c.getAutoCommit()) {
                c.commit();
            }
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
        Instant base = Instant.parse("2026-11-01T00:00:00Z");
        int span = 20 * 86400;
        List<AttributionOracle.Click> clicks = new ArrayList<>();
        List<AttributionOracle.Sale> sales = new ArrayList<>();
        StringBuilder clickRows = new StringBuilder();
        StringBuilder saleRows = new StringBuilder();
        int leads = 4 + rnd.nextInt(5);
        for (int l = 0; l < leads; l++) {
            String lead = "lead" + l;
            int n = rnd.nextInt(6);
            for (int i = 0; i < n; i++) {
                boolean organic = rnd.nextInt(4) == 0;
                AttributionOracle.Ad ad = organic ? null : ads.get(rnd.nextInt(ads.size()));
                String kw = ad == null || rnd.nextInt(5) == 0 ? "" : rnd.nextInt(8) == 0 ? "999"
                        : (ad.adSetId().equals("g0") ? "10" : "20") + (1 + rnd.nextInt(2));
                String url = "https://shop.test/p?gclid=x" + (kw.isEmpty() ? "" : "&targetid=" + (rnd.nextBoolean() ? "kwd-" + kw : "aud-7%3Akwd-" + kw));
                Instant at = base.plusSeconds(rnd.nextInt(4) == 0 ? 86400L * (1 + rnd.nextInt(19)) : rnd.nextInt(span));
                String id = "c" + l + "_" + i;
                clicks.add(new AttributionOracle.Click(id, lead, at, organic, ad == null ? "" : platform, ad == null ? "" : ad.adId(), "", kw));
                clickRows.append(row(accountId, "\"id\":\"" + id + "\",\"lead_id\":\"" + lead + "\",\"tracked_url\":\"" + url
                        + "\",\"click_date\":\"" + TS.format(at) + "\",\"is_organic\":" + (organic ? 1 : 0) + ",\"integration_type\":\""
                        + (ad == null ? "" : platform) + "\",\"adspend_ad_id\":\"" + (ad == null ? "" : ad.adId()) + "\",\"created_at\":\"" + TS.format(at) + "\""));
            }
            int m = rnd.nextInt(4);
            List<Instant> times = new ArrayList<>();
            for (int i = 0; i < m; i++) {
                times.add(base.plusSeconds(rnd.nextInt(span)));
            }
            times.sort(null);
            for (int i = 0; i < m; i++) {
                long cents = 100 + rnd.nextInt(50000);
                long taxes = rnd.nextInt((int) cents / 10 + 1);
                boolean recurring = i > 0 && rnd.nextBoolean();
                boolean first = i == 0 && rnd.nextInt(5) != 0;
                String id = "s" + l + "_" + i;
                sales.add(new AttributionOracle.Sale(id, lead, times.get(i), cents, recurring, first, taxes));
                saleRows.append(row(accountId, "\"id\":\"" + id + "\",\"order_id\":\"o" + id + "\",\"lead_id\":\"" + lead
                        + "\",\"quantity\":1,\"price\":" + BigDecimal.valueOf(cents, 2) + ",\"taxes\":" + BigDecimal.valueOf(taxes, 2)
                        + ",\"currency\":\"USD\",\"recurring\":" + (recurring ? 1 : 0) + ",\"first_sale\":" + (first ? 1 : 0)
                        + ",\"sale_date\":\"" + TS.format(times.get(i)) + "\",\"updated_at\":\"" + TS.format(times.get(i)) + "\",\"deleted\":0"));
            }
        }
        insert("ads", adRows);
        insert("clicks", clickRows);
        insert("sales", saleRows);
        return new AttributionOracle.Data(ads, clicks, sales, List.of());
    }

    private void stages(String accountId) {
        try (java.sql.Connection c = io.micronaut.data.connection.jdbc.advice.DelegatingDataSource.unwrapDataSource(dataSource).getConnection();
             java.sql.PreparedStatement ps = c.prepareStatement("INSERT INTO lead_stages (account_id, id, name, created_at) VALUES (?, ?, ?, now())")) {
            for (String[] st : new String[][]{{"st1", "Hot"}, {"st2", "Cold"}}) {
                ps.setString(1, accountId);
                ps.setString(2, st[0]);
                ps.setString(3, st[1]);
                ps.executeUpdate();
            }
            if (!c.getAutoCommit()) {
                c.commit();
            }
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String row(String accountId, String fields) {
        return "{\"account_id\":\"" + accountId + "\"," + fields + ",\"_version\":1,\"is_deleted\":0}\n";
    }

    private void insert(String table, StringBuilder rows) {
        if (rows.length() > 0) {
            clickHouse.insertJsonEachRow(table, rows.toString().getBytes(StandardCharsets.UTF_8));
        }
    }
}
