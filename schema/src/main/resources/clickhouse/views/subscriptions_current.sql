-- The current subscriptions, deduplicated by (account_id, id) since 061: POST/PUT /subscriptions can move a row to
-- another lead, and grouping by lead kept the old lead's last version alive. lead_id is the newest version's lead.
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
