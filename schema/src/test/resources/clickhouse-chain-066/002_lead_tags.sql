-- Tags held by leads, with the assignment date (spec 2.5, tagsDate). Key: (account_id, lead_id, tag).
-- Partitioned by assignment month; a re-dated tag may move partition, so reads deduplicate with argMax over the
-- key (the lead_tags_current view), never with FINAL alone, which only merges within a partition.
CREATE TABLE IF NOT EXISTS {db}.lead_tags (
    account_id   String,
    lead_id      String,
    tag          String,
    assigned_at  DateTime('UTC'),
    _version     UInt64,
    is_deleted   UInt8
) ENGINE = {{ReplacingMergeTree(_version)}}
PARTITION BY toYYYYMM(assigned_at)
ORDER BY (account_id, lead_id, tag);

CREATE VIEW IF NOT EXISTS {db}.lead_tags_current AS
SELECT
    account_id,
    lead_id,
    tag,
    argMax(assigned_at, _version) AS assigned_at,
    max(_version) AS last_version
FROM {db}.lead_tags
GROUP BY account_id, lead_id, tag
HAVING argMax(is_deleted, _version) = 0;
