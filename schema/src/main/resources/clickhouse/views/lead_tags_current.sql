-- The current lead_tags rows: newest _version per key, keys whose newest version is a delete left out (CurrentRow).
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
