-- The per-conversion attribution projection as streamed from PostgreSQL `conversion_touches` (V46, kept exact by
-- triggers there): one row per live sale / call with a click of its lead at or before it, holding the last paid,
-- last organic, first paid and first organic click (id, date, ad, platform; id '' and date 0 when there is none).
-- GET /attribution, /attribution/roas and /attribution/marginal-cac-curve derive the credited click from it
-- (docs/attribution-models.md) instead of joining sales with clicks.
-- Partitioned by the conversion month: reports bound the conversion date before deduplicating. When a conversion's
-- time changes, PostgreSQL deletes and re-inserts the row, so each version sits in the month of its own time.
-- Sort key (account_id, conversion_type, conversion_id): the dedup key.
CREATE TABLE IF NOT EXISTS {db}.conversion_touches (
    account_id                 String,
    conversion_type            String,
    conversion_id              String,
    lead_id                    String,
    conversion_at              DateTime('UTC'),
    last_paid_click_id         String,
    last_paid_click_date       DateTime('UTC'),
    last_paid_ad               String,
    last_paid_platform         String,
    last_organic_click_id      String,
    last_organic_click_date    DateTime('UTC'),
    last_organic_ad            String,
    last_organic_platform      String,
    first_paid_click_id        String,
    first_paid_click_date      DateTime('UTC'),
    first_paid_ad              String,
    first_paid_platform        String,
    first_organic_click_id     String,
    first_organic_click_date   DateTime('UTC'),
    first_organic_ad           String,
    first_organic_platform     String,
    _version                   UInt64,
    is_deleted                 UInt8
) ENGINE = {{ReplacingMergeTree(_version)}}
PARTITION BY toYYYYMM(conversion_at)
ORDER BY (account_id, conversion_type, conversion_id);

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
