-- Leads as streamed from PostgreSQL `leads` by the CDC bridge. One row per change; the row with the highest
-- _version (the change's WAL position) is the lead's current state; is_deleted = 1 marks a deleted lead.
-- Sort key (account_id, id): every query filters one account and deduplicates by lead id.
-- Partitioned by join month: a lead's join date never changes.
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
    is_deleted  UInt8
) ENGINE = {{ReplacingMergeTree(_version)}}
PARTITION BY toYYYYMM(created_at)
ORDER BY (account_id, id);

-- The current, not-deleted leads: the dedup rule every report and BI query uses.
CREATE VIEW IF NOT EXISTS {db}.leads_current AS
SELECT
    account_id,
    id,
    argMax(email, _version)      AS email,
    argMax(first_name, _version) AS first_name,
    argMax(last_name, _version)  AS last_name,
    argMax(ad_consent, _version) AS ad_consent,
    argMax(stage_name, _version) AS stage_name,
    argMax(stage_date, _version) AS stage_date,
    argMax(created_at, _version) AS created_at,
    argMax(updated_at, _version) AS updated_at,
    max(_version) AS last_version
FROM {db}.leads
GROUP BY account_id, id
HAVING argMax(is_deleted, _version) = 0;
