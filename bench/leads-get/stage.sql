-- GET /leads?stage="stageN" : current stage, case-insensitive
\set n random(1, 11)
SELECT l.*,
 (SELECT array_agg(t.tag ORDER BY t.tag) FROM lead_tags t WHERE t.account_id = l.account_id AND t.lead_id = l.id) AS tag_list,
 (SELECT array_agg(i.ip ORDER BY i.ip) FROM lead_ips i WHERE i.account_id = l.account_id AND i.lead_id = l.id) AS ip_list,
 (SELECT array_agg(p.phone ORDER BY p.phone) FROM lead_phones p WHERE p.account_id = l.account_id AND p.lead_id = l.id) AS phone_list,
 (SELECT to_jsonb(s) FROM (SELECT c.click_date AS d, c.source_link_tag AS tag, c.id AS click_id, c.is_organic AS organic, c.integration_type AS platform, c.ad_source_id, c.adspend_ad_id, c.ad_source_click_id, 0 AS pri FROM clicks c WHERE c.account_id = l.account_id AND c.lead_id = l.id AND c.source_link_tag IS NOT NULL UNION ALL SELECT t.assigned_at, t.tag, NULL, false, NULL, NULL, NULL, NULL, 1 FROM lead_tags t WHERE t.account_id = l.account_id AND t.lead_id = l.id AND t.tag LIKE '@%') s ORDER BY s.d ASC, s.pri LIMIT 1) AS first_source,
 (SELECT to_jsonb(s) FROM (SELECT c.click_date AS d, c.source_link_tag AS tag, c.id AS click_id, c.is_organic AS organic, c.integration_type AS platform, c.ad_source_id, c.adspend_ad_id, c.ad_source_click_id, 0 AS pri FROM clicks c WHERE c.account_id = l.account_id AND c.lead_id = l.id AND c.source_link_tag IS NOT NULL UNION ALL SELECT t.assigned_at, t.tag, NULL, false, NULL, NULL, NULL, NULL, 1 FROM lead_tags t WHERE t.account_id = l.account_id AND t.lead_id = l.id AND t.tag LIKE '@%') s ORDER BY s.d DESC, s.pri LIMIT 1) AS last_source
FROM ((SELECT l.* FROM leads l WHERE l.account_id = 'acc_bench' AND l.stage_name IS NOT NULL AND lower(l.stage_name) = 'stage' || :n AND NOT l.erased ORDER BY l.created_at, l.id LIMIT 51)) l ORDER BY l.created_at, l.id LIMIT 51;
