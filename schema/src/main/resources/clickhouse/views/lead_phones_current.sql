-- The current lead_phones rows: newest _version per key, keys whose newest version is a delete left out (CurrentRow).
CREATE VIEW IF NOT EXISTS {db}.lead_phones_current AS
SELECT account_id, lead_id, phone, max(_version) AS last_version
FROM {db}.lead_phones
GROUP BY account_id, lead_id, phone
HAVING argMax(is_deleted, _version) = 0;
