-- The current, live calls, deduplicated by (account_id, id) since 061: PUT /calls can move a call to another lead,
-- and grouping by lead kept the old lead's last version alive. lead_id is the newest version's lead.
CREATE VIEW IF NOT EXISTS {db}.calls_current AS
SELECT
    account_id,
    argMax(lead_id, _version)            AS lead_id,
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
GROUP BY account_id, id
HAVING argMax(is_deleted, _version) = 0 AND argMax(deleted, _version) = 0;
