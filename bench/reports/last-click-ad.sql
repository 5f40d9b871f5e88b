-- GET /attribution last_click at ad level, sourceConfiguration prioritize_paid (the default), computed on
-- PostgreSQL: the same three results AttributionReport reads from ClickHouse (sales and revenue credited to the
-- latest paid click — else latest click — of the buyer at or before the sale; leads and clicks of the ads in the
-- range; spend of the ads in the range). psql variables: acc, start, end (timestamps), ids (a quoted list:
-- 'ad1','ad2'). Uses the schema's own indexes (clicks_lead, sales_date).
SELECT e.ad_id, count(*) AS sales, count(*) FILTER (WHERE NOT a.recurring) AS one_time_sales,
       count(DISTINCT a.lead_id) AS unique_sales, count(DISTINCT a.lead_id) FILTER (WHERE a.first_sale) AS unique_customers,
       sum(a.cents) FILTER (WHERE NOT a.recurring) AS revenue_cents, sum(a.cents) FILTER (WHERE a.recurring) AS recurring_cents
FROM (SELECT s.lead_id, s.recurring, s.first_sale, round(s.price * 100)::bigint AS cents, c.adspend_ad_id, c.integration_type
      FROM sales s
      CROSS JOIN LATERAL (SELECT adspend_ad_id, integration_type FROM clicks c
                          WHERE c.account_id = s.account_id AND c.lead_id = s.lead_id AND c.click_date <= s.sale_date
                          ORDER BY (NOT c.is_organic) DESC, c.click_date DESC, c.id DESC LIMIT 1) c
      WHERE s.account_id = :'acc' AND NOT s.deleted AND s.sale_date >= :'start' AND s.sale_date <= :'end') a
JOIN ads e ON e.account_id = :'acc' AND e.platform = a.integration_type AND e.ad_id = a.adspend_ad_id
WHERE e.ad_id IN (:ids)
GROUP BY e.ad_id;

SELECT adspend_ad_id, count(DISTINCT lead_id) AS leads, count(*) AS clicks
FROM clicks
WHERE account_id = :'acc' AND lead_id IS NOT NULL AND click_date >= :'start' AND click_date <= :'end'
  AND integration_type = 'FACEBOOK' AND adspend_ad_id IN (:ids) AND NOT is_organic
GROUP BY adspend_ad_id;

SELECT ad_id, sum(spend) AS cost
FROM ad_spend_daily
WHERE account_id = :'acc' AND platform = 'FACEBOOK' AND ad_id IN (:ids)
  AND day >= (:'start')::date AND day <= (:'end')::date
GROUP BY ad_id;
