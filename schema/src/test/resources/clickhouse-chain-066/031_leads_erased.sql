-- Erased leads (DELETE /leads) stay in PostgreSQL redacted with erased = true; they must leave every report.
-- Adds the column the CDC sink fills and redefines leads_current to drop them. Irreversible only in that the
-- old view definition is replaced; dropping the column restores the old shape.
ALTER TABLE {db}.leads ADD COLUMN erased UInt8 DEFAULT 0;

DROP TABLE IF EXISTS {db}.leads_current;

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
HAVING argMax(is_deleted, _version) = 0 AND argMax(erased, _version) = 0;
