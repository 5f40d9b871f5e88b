-- Subscriptions as streamed from PostgreSQL `subscriptions`. Partitioned by the month of the start date; a
-- corrected start date may move a row between partitions, so reads deduplicate with argMax over the key
-- (subscriptions_current). Sort key (account_id, lead_id, id).
CREATE TABLE IF NOT EXISTS {db}.subscriptions (
    account_id        String,
    id                String,
    external_id       String,
    lead_id           String,
    plan_id           String,
    name              String,
    periodicity       String,
    price             Decimal(18, 2),
    status            String,
    start_date        DateTime('UTC'),
    end_date          Nullable(DateTime('UTC')),
    cancel_at_date    Nullable(DateTime('UTC')),
    trial_start_date  Nullable(DateTime('UTC')),
    trial_end_date    Nullable(DateTime('UTC')),
    category_name     String,
    updated_at        DateTime('UTC'),
    _version          UInt64,
    is_deleted        UInt8
) ENGINE = {{ReplacingMergeTree(_version)}}
PARTITION BY toYYYYMM(start_date)
ORDER BY (account_id, lead_id, id);
