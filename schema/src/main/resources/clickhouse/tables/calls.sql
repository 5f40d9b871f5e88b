-- Calls as streamed from PostgreSQL `calls` (conversion type CALL of the reports). Partitioned by the month of
-- the call date, which a call's updates do not move in practice; reads deduplicate with argMax over the key
-- (calls_current), never FINAL alone. Sort key (account_id, lead_id, id) as for sales.
CREATE TABLE IF NOT EXISTS {db}.calls (
    account_id          String,
    id                  String,
    external_id         String,
    name                String,
    tag                 String,
    lead_id             String,
    qualified           UInt8,
    state               String,
    qualification_name  String,
    first_call          UInt8,
    call_date           DateTime('UTC'),
    updated_at          DateTime('UTC'),
    deleted             UInt8,
    _version            UInt64,
    is_deleted          UInt8
) ENGINE = {{ReplacingMergeTree(_version)}}
PARTITION BY toYYYYMM(call_date)
ORDER BY (account_id, lead_id, id);
