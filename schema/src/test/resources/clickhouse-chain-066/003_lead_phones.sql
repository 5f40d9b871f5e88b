-- Phone numbers of leads (aggregation filters match them on their last digits). Key: (account_id, lead_id, phone).
-- A lead's phones never set the partition: one partition-free table (tuple()) keeps dedup exact.
CREATE TABLE IF NOT EXISTS {db}.lead_phones (
    account_id  String,
    lead_id     String,
    phone       String,
    _version    UInt64,
    is_deleted  UInt8
) ENGINE = {{ReplacingMergeTree(_version)}}
ORDER BY (account_id, lead_id, phone);

CREATE VIEW IF NOT EXISTS {db}.lead_phones_current AS
SELECT account_id, lead_id, phone, max(_version) AS last_version
FROM {db}.lead_phones
GROUP BY account_id, lead_id, phone
HAVING argMax(is_deleted, _version) = 0;
