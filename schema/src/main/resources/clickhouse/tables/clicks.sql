-- Clicks as streamed from PostgreSQL `clicks` (spec 2.11, 4.11); reports read source touches from here.
-- Sort key (account_id, id): reads filter one account and deduplicate by click id.
-- Partitioned by click month: a click's date never changes. lead_id is '' until the click is connected.
CREATE TABLE IF NOT EXISTS {db}.clicks (
    account_id          String,
    id                  String,
    lead_id             String,
    click_date          DateTime('UTC'),
    tracked_url         String,
    previous_url        String,
    session_id          String,
    ip                  String,
    user_agent          String,
    source_link_tag     String,
    is_organic          UInt8,
    integration_type    String,
    ad_source_id        String,
    adspend_ad_id       String,
    ad_source_click_id  String,
    created_at          DateTime('UTC'),
    _version            UInt64,
    is_deleted          UInt8
) ENGINE = {{ReplacingMergeTree(_version)}}
PARTITION BY toYYYYMM(click_date)
ORDER BY (account_id, id);
