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
