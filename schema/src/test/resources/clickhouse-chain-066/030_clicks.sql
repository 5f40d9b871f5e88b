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

CREATE VIEW IF NOT EXISTS {db}.clicks_current AS
SELECT
    account_id,
    id,
    argMax(lead_id, _version)            AS lead_id,
    argMax(click_date, _version)         AS click_date,
    argMax(tracked_url, _version)        AS tracked_url,
    argMax(source_link_tag, _version)    AS source_link_tag,
    argMax(is_organic, _version)         AS is_organic,
    argMax(integration_type, _version)   AS integration_type,
    argMax(ad_source_id, _version)       AS ad_source_id,
    argMax(adspend_ad_id, _version)      AS adspend_ad_id,
    argMax(ad_source_click_id, _version) AS ad_source_click_id,
    max(_version) AS last_version
FROM {db}.clicks
GROUP BY account_id, id
HAVING argMax(is_deleted, _version) = 0;
