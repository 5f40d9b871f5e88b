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

CREATE VIEW IF NOT EXISTS {db}.calls_current AS
SELECT
    account_id,
    lead_id,
    id,
    argMax(external_id, _version)        AS call_external_id,
    argMax(name, _version)               AS call_name,
    argMax(tag, _version)                AS call_tag,
    argMax(qualified, _version)          AS is_qualified,
    argMax(state, _version)              AS call_state,
    argMax(qualification_name, _version) AS call_qualification,
    argMax(first_call, _version)         AS is_first_call,
    argMax(call_date, _version)          AS call_at,
    max(_version) AS last_version
FROM {db}.calls
GROUP BY account_id, lead_id, id
HAVING argMax(is_deleted, _version) = 0 AND argMax(deleted, _version) = 0;
