-- The current sale_credits rows: newest _version per key, keys whose newest version is a delete left out (CurrentRow).
CREATE VIEW IF NOT EXISTS {db}.sale_credits_current AS
SELECT
    account_id,
    ad,
    platform,
    sale_date,
    sale_id,
    argMax(lead_id, _version)                  AS credit_lead_id,
    argMax(last_paid_click_id, _version)       AS lp_click_id,
    argMax(last_paid_click_date, _version)     AS lp_click_date,
    argMax(last_paid_ad, _version)             AS lp_ad,
    argMax(last_paid_platform, _version)       AS lp_platform,
    argMax(last_organic_click_id, _version)    AS lo_click_id,
    argMax(last_organic_click_date, _version)  AS lo_click_date,
    argMax(last_organic_ad, _version)          AS lo_ad,
    argMax(last_organic_platform, _version)    AS lo_platform,
    argMax(first_paid_click_id, _version)      AS fp_click_id,
    argMax(first_paid_click_date, _version)    AS fp_click_date,
    argMax(first_paid_ad, _version)            AS fp_ad,
    argMax(first_paid_platform, _version)      AS fp_platform,
    argMax(first_organic_click_id, _version)   AS fo_click_id,
    argMax(first_organic_click_date, _version) AS fo_click_date,
    argMax(first_organic_ad, _version)         AS fo_ad,
    argMax(first_organic_platform, _version)   AS fo_platform,
    argMax(price, _version)                    AS sale_price,
    argMax(usd_price, _version)                AS sale_usd_price,
    argMax(taxes, _version)                    AS sale_taxes,
    argMax(shipping, _version)                 AS sale_shipping,
    argMax(cost_of_goods, _version)            AS sale_cost_of_goods,
    argMax(hard_cost, _version)                AS sale_hard_cost,
    argMax(refunded_amount, _version)          AS sale_refunded_amount,
    argMax(recurring, _version)                AS is_recurring,
    argMax(first_sale, _version)               AS is_first_sale,
    argMax(refunded, _version)                 AS is_refunded,
    max(_version) AS last_version
FROM {db}.sale_credits
GROUP BY account_id, ad, platform, sale_date, sale_id
HAVING argMax(is_deleted, _version) = 0;
