-- The sales' attribution rows by ad, as streamed from PostgreSQL `sale_credits` (V103, kept exact by the
-- conversion_touches triggers there): one row per live sale and per distinct ad among the four clicks its
-- conversion_touches row picks, with those four picks (id, date, ad, platform; id '' and date 0 when there is none)
-- and the sale's amounts. GET /attribution (click models whose credit derives from the picks), /attribution/roas and
-- /attribution/marginal-cac-curve read the rows of their ads and dates, keep the row whose ad is the one the picks
-- credit, and sum its amounts: no sales partition and no conversion_touches row is read (docs/attribution-models.md).
-- Partitioned by the sale month; a row whose sale date changes is deleted and inserted again in PostgreSQL, so each
-- version sits in the month of its own date.
-- Sort key (account_id, ad, platform, sale_date, sale_id): the dedup key, read by ad then date.
CREATE TABLE IF NOT EXISTS {db}.sale_credits (
    account_id                 String,
    sale_id                    String,
    ad                         String,
    platform                   String,
    sale_date                  DateTime('UTC'),
    lead_id                    String,
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
    price                      Decimal(18, 2),
    usd_price                  Nullable(Decimal(18, 2)),
    taxes                      Decimal(18, 2),
    shipping                   Decimal(18, 2),
    cost_of_goods              Decimal(18, 2),
    hard_cost                  Decimal(18, 2),
    refunded_amount            Decimal(18, 2),
    recurring                  UInt8,
    first_sale                 UInt8,
    refunded                   UInt8,
    _version                   UInt64,
    is_deleted                 UInt8
) ENGINE = {{ReplacingMergeTree(_version)}}
PARTITION BY toYYYYMM(sale_date)
ORDER BY (account_id, ad, platform, sale_date, sale_id)
-- small granules: a report reads a few ads' key ranges, so less is read past each range's ends
SETTINGS index_granularity = 1024;
