-- The current conversion_touches rows: newest _version per key, keys whose newest version is a delete left out (CurrentRow).
CREATE VIEW IF NOT EXISTS {db}.conversion_touches_current AS
SELECT
    account_id,
    conversion_type,
    conversion_id,
    argMax(lead_id, _version)                  AS touch_lead_id,
    argMax(conversion_at, _version)            AS touch_conversion_at,
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
    max(_version) AS last_version
FROM {db}.conversion_touches
GROUP BY account_id, conversion_type, conversion_id
HAVING argMax(is_deleted, _version) = 0;
