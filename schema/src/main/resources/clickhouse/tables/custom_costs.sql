-- Custom costs (spec 2.14) as streamed from PostgreSQL. start_date/end_date hold the wall clock as written (2.2.8),
-- stored as if UTC. Reports spread DAILY costs over the days of [start_date, end_date] (open-ended: to the report's
-- end) and count a ONE_TIME cost on its day, as spend of the sources whose tags it lists. A small dimension-like
-- table: no partitions; sort key (account_id, id) is the PostgreSQL key and the dedup key.
CREATE TABLE IF NOT EXISTS {db}.custom_costs (
    account_id  String,
    id          String,
    name        Nullable(String),
    cost        Decimal(18, 2),
    frequency   String,
    start_date  DateTime('UTC'),
    end_date    Nullable(DateTime('UTC')),
    tags        Array(String),
    created_at  DateTime('UTC'),
    updated_at  DateTime('UTC'),
    _version    UInt64,
    is_deleted  UInt8
) ENGINE = {{ReplacingMergeTree(_version)}}
ORDER BY (account_id, id);
