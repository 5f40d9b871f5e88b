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
