-- 1,000,000 leads in one account (plus 50,000 in a neighbour), 3 tags, 1 phone and 1 IP each, a stage on most.
-- Run against a database migrated to V31: psql -f leads-get-data.sql
INSERT INTO accounts (id, name, time_zone) VALUES ('acc_bench', 'Bench', 'America/New_York'), ('acc_other', 'Other', 'UTC')
ON CONFLICT DO NOTHING;
INSERT INTO leads (account_id, id, email, first_name, stage_name, stage_date, created_at, updated_at)
SELECT 'acc_bench', 'ld_' || g, 'user' || g || '@d' || (g % 997) || '.test', 'U' || g,
       CASE WHEN g % 4 = 0 THEN NULL ELSE 'Stage' || (g % 12) END, now() - (g % 700) * interval '1 day',
       now() - (g % 700) * interval '1 day' - g * interval '1 second', now() - (g % 90) * interval '1 day'
FROM generate_series(1, 1000000) g;
INSERT INTO leads (account_id, id, email, created_at, updated_at)
SELECT 'acc_other', 'lo_' || g, 'other' || g || '@x.test', now(), now() FROM generate_series(1, 50000) g;
INSERT INTO lead_tags (account_id, lead_id, tag, assigned_at)
SELECT 'acc_bench', 'ld_' || g, t, now() - ((g + length(t)) % 400) * interval '1 day'
FROM generate_series(1, 1000000) g, LATERAL (VALUES ('!t' || (g % 211)), ('@src' || (g % 37)), ('$p' || (g % 53))) v(t);
INSERT INTO lead_phones (account_id, lead_id, phone)
SELECT 'acc_bench', 'ld_' || g, '+1 (' || (200 + g % 700) || ') 555-' || lpad((g % 10000)::text, 4, '0') || lpad((g / 10000)::text, 3, '0')
FROM generate_series(1, 1000000) g;
INSERT INTO lead_ips (account_id, lead_id, ip)
SELECT 'acc_bench', 'ld_' || g, '10.' || (g % 250) || '.' || (g / 250 % 250) || '.' || (g / 62500) FROM generate_series(1, 1000000) g;
VACUUM ANALYZE;
