-- Leads as streamed from PostgreSQL `leads` by the CDC bridge. One row per change; the row with the highest
-- _version (the change's WAL position) is the lead's current state; is_deleted = 1 marks a deleted lead.
-- Sort key (account_id, id): every query filters one account and deduplicates by lead id.
-- Partitioned by join month: a lead's join date never changes.
-- erased = 1: the lead was erased (DELETE /leads; PostgreSQL keeps it redacted); it leaves leads_current and every
-- report. Added by 031, hence after is_deleted (ALTER ADD COLUMN appends; a fresh table has the same column order).
CREATE TABLE IF NOT EXISTS {db}.leads (
    account_id  String,
    id          String,
    email       String,
    first_name  String,
    last_name   String,
    ad_consent  String,
    stage_name  String,
    stage_date  Nullable(DateTime('UTC')),
    created_at  DateTime('UTC'),
    updated_at  DateTime('UTC'),
    _version    UInt64,
    is_deleted  UInt8,
    erased      UInt8 DEFAULT 0
) ENGINE = {{ReplacingMergeTree(_version)}}
PARTITION BY toYYYYMM(created_at)
ORDER BY (account_id, id);
