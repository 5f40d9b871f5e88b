-- The current ad_accounts rows: newest _version per key, keys whose newest version is a delete left out (CurrentRow).
CREATE VIEW IF NOT EXISTS {db}.ad_accounts_current AS
SELECT
    account_id,
    platform,
    ad_account_id,
    argMax(name, _version)       AS name,
    argMax(created_at, _version) AS created_at,
    max(_version) AS last_version
FROM {db}.ad_accounts
GROUP BY account_id, platform, ad_account_id
HAVING argMax(is_deleted, _version) = 0;
