-- calls_current and subscriptions_current, deduplicated by (account_id, id) instead of (account_id, lead_id, id).
-- PUT /calls and POST/PUT /subscriptions can move a row to another lead; its versions then sit under two lead
-- ids, and grouping by lead kept the old lead's last version alive: the call or subscription was counted under
-- both leads. Grouped by id, the highest _version wins wherever it is, and lead_id is that version's lead.
-- (sales never change lead, so sales_current keeps its grouping.) Same columns as 041 and 042 defined.
DROP TABLE IF EXISTS {db}.calls_current;

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

DROP TABLE IF EXISTS {db}.subscriptions_current;

CREATE VIEW IF NOT EXISTS {db}.subscriptions_current AS
SELECT
    account_id,
    argMax(lead_id, _version)          AS lead_id,
    id,
    argMax(external_id, _version)      AS subscription_external_id,
    argMax(plan_id, _version)          AS subscription_plan_id,
    argMax(name, _version)             AS subscription_name,
    argMax(periodicity, _version)      AS subscription_periodicity,
    argMax(price, _version)            AS subscription_price,
    argMax(status, _version)           AS subscription_status,
    argMax(start_date, _version)       AS started_at,
    argMax(end_date, _version)         AS ended_at,
    argMax(cancel_at_date, _version)   AS cancel_at,
    argMax(category_name, _version)    AS subscription_category,
    max(_version) AS last_version
FROM {db}.subscriptions
GROUP BY account_id, id
HAVING argMax(is_deleted, _version) = 0;
