-- The current custom_costs rows: newest _version per key, keys whose newest version is a delete left out (CurrentRow).
CREATE VIEW IF NOT EXISTS {db}.custom_costs_current AS
SELECT
    account_id,
    id,
    argMax(name, _version)       AS name,
    argMax(cost, _version)       AS cost,
    argMax(frequency, _version)  AS frequency,
    argMax(start_date, _version) AS start_date,
    argMax(end_date, _version)   AS end_date,
    argMax(tags, _version)       AS tags,
    max(_version) AS last_version
FROM {db}.custom_costs
GROUP BY account_id, id
HAVING argMax(is_deleted, _version) = 0;
