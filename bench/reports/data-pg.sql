-- The report benchmark's account in PostgreSQL, generated on the server (bench/reports.sh). The same rows as
-- reports/data-ch.sql: every value is a function of the row number. psql variables: acc, leads, clicks, sales,
-- ads, t_end (epoch seconds, the end of the history), span (seconds of history).
-- Foreign-key triggers are off while loading (session_replication_role = replica): the rows are consistent by
-- construction and checking 20 M click → lead references one by one would dominate the load. The conversion_touches
-- triggers (V46, ENABLE ALWAYS) still fire: the projection the reports read is filled as the rows load.
SET session_replication_role = replica;
INSERT INTO ad_accounts (account_id, platform, ad_account_id, name) VALUES (:'acc', 'FACEBOOK', 'act1', 'Bench ad account');
INSERT INTO ad_campaigns (account_id, platform, campaign_id, ad_account_id, name)
SELECT :'acc', 'FACEBOOK', 'cmp' || g, 'act1', 'Campaign ' || g FROM generate_series(0, :ads / 20 - 1) g;
INSERT INTO ad_sets (account_id, platform, ad_set_id, ad_account_id, campaign_id, name)
SELECT :'acc', 'FACEBOOK', 'as' || g, 'act1', 'cmp' || (g / 5), 'Ad set ' || g FROM generate_series(0, :ads / 4 - 1) g;
INSERT INTO ads (account_id, platform, ad_id, ad_account_id, campaign_id, ad_set_id, name)
SELECT :'acc', 'FACEBOOK', 'ad' || g, 'act1', 'cmp' || (g / 20), 'as' || (g / 4), 'Ad ' || g FROM generate_series(0, :ads - 1) g;
INSERT INTO ad_spend_daily (account_id, platform, ad_id, day, ad_account_id, campaign_id, ad_set_id, spend, impressions, clicks, currency)
SELECT :'acc', 'FACEBOOK', 'ad' || a, to_timestamp(:t_end - :span)::date + d, 'act1', 'cmp' || (a / 20), 'as' || (a / 4),
       (20 + (a * 7 + d * 13) % 80)::numeric(18, 2), 1000 + (a + d) % 500, 10 + (a + d) % 40, 'USD'
FROM generate_series(0, :ads - 1) a, generate_series(0, :span / 86400 - 1) d;
\echo leads
INSERT INTO leads (account_id, id, email, created_at, updated_at)
SELECT :'acc', 'ld' || g, 'u' || g || '@bench.test', to_timestamp(:t_end - :span + (g * 7919) % :span),
       to_timestamp(:t_end - :span + (g * 7919) % :span)
FROM generate_series(0::bigint, :leads - 1) g;
\echo clicks
INSERT INTO clicks (account_id, id, lead_id, click_date, tracked_url, source_link_tag, is_organic, integration_type,
                    ad_source_id, adspend_ad_id, created_at)
SELECT :'acc', 'c' || i, 'ld' || (i % :leads), to_timestamp(:t_end - :span + (i * 104729) % :span),
       'https://shop.test/p', CASE WHEN i % 5 = 0 THEN '@organic' ELSE '@fb' END, i % 5 = 0,
       CASE WHEN i % 5 = 0 THEN NULL ELSE 'FACEBOOK' END,
       CASE WHEN i % 5 = 0 THEN NULL ELSE 'as' || ((i * 31) % :ads / 4) END,
       CASE WHEN i % 5 = 0 THEN NULL ELSE 'ad' || ((i * 31) % :ads) END,
       to_timestamp(:t_end - :span + (i * 104729) % :span)
FROM generate_series(0::bigint, :clicks - 1) i;
\echo sales
INSERT INTO sales (account_id, id, order_id, lead_id, buyer_lead_id, product_name, position, quantity, unit_price, price,
                   discount, taxes, shipping, hard_cost, cost_of_goods, currency, usd_price, recurring, first_sale,
                   sale_date, created_at, updated_at)
SELECT :'acc', 's' || j, 'o' || j, 'ld' || (j % :leads), 'ld' || (j % :leads), 'Product', 0, 1, 10 + j % 190, 10 + j % 190,
       0, 0, 0, 0, 0, 'USD', 10 + j % 190, j % 10 = 0, j < :leads,
       to_timestamp(:t_end - :span + (j * 15485863) % :span), now(), now()
FROM generate_series(0::bigint, :sales - 1) j;
RESET session_replication_role;
\echo analyze
ANALYZE leads; ANALYZE clicks; ANALYZE sales; ANALYZE ads; ANALYZE ad_spend_daily;
