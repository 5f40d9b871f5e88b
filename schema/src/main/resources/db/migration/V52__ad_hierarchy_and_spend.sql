-- The ad hierarchy (spec 2.6, 2.17): ad accounts → campaigns → ad sets (ad groups, ad squads) → ads, each keyed by
-- the id its platform (AdspendType) issued. Rows are created by the spend import; names may be filled later.
-- ad_spend_daily holds one row per ad and day: a re-import replaces the row (idempotent), never adds to it. It has
-- no index beyond its key: reports read spend from ClickHouse, and every index slows the bulk import.
-- REPLICA IDENTITY FULL: all of these stream to ClickHouse. Reversible: drop the tables.
CREATE TABLE ad_accounts (
    account_id     text        NOT NULL REFERENCES accounts (id),
    platform       text        NOT NULL,
    ad_account_id  text        NOT NULL,
    name           text        NOT NULL DEFAULT '',
    created_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (account_id, platform, ad_account_id)
);
CREATE INDEX ad_accounts_id ON ad_accounts (account_id, ad_account_id);
ALTER TABLE ad_accounts REPLICA IDENTITY FULL;

CREATE TABLE ad_campaigns (
    account_id     text        NOT NULL REFERENCES accounts (id),
    platform       text        NOT NULL,
    campaign_id    text        NOT NULL,
    ad_account_id  text        NOT NULL,
    name           text        NOT NULL DEFAULT '',
    created_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (account_id, platform, campaign_id)
);
ALTER TABLE ad_campaigns REPLICA IDENTITY FULL;

CREATE TABLE ad_sets (
    account_id     text        NOT NULL REFERENCES accounts (id),
    platform       text        NOT NULL,
    ad_set_id      text        NOT NULL,
    ad_account_id  text        NOT NULL,
    campaign_id    text        NOT NULL DEFAULT '',
    name           text        NOT NULL DEFAULT '',
    created_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (account_id, platform, ad_set_id)
);
ALTER TABLE ad_sets REPLICA IDENTITY FULL;

CREATE TABLE ads (
    account_id     text        NOT NULL REFERENCES accounts (id),
    platform       text        NOT NULL,
    ad_id          text        NOT NULL,
    ad_account_id  text        NOT NULL,
    campaign_id    text        NOT NULL DEFAULT '',
    ad_set_id      text        NOT NULL DEFAULT '',
    name           text        NOT NULL DEFAULT '',
    created_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (account_id, platform, ad_id)
);
CREATE INDEX ads_created ON ads (account_id, created_at, platform, ad_id);
ALTER TABLE ads REPLICA IDENTITY FULL;

-- Keywords of search ad groups (GET /keywords, adgroupId = ad_set_id).
CREATE TABLE ad_keywords (
    account_id     text        NOT NULL REFERENCES accounts (id),
    platform       text        NOT NULL,
    keyword_id     text        NOT NULL,
    ad_set_id      text        NOT NULL,
    keyword        text        NOT NULL,
    match_type     text        NOT NULL DEFAULT '',
    created_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (account_id, platform, keyword_id)
);
CREATE INDEX ad_keywords_group ON ad_keywords (account_id, ad_set_id, created_at);

CREATE TABLE ad_spend_daily (
    account_id            text          NOT NULL REFERENCES accounts (id),
    platform              text          NOT NULL,
    ad_id                 text          NOT NULL,
    day                   date          NOT NULL,
    ad_account_id         text          NOT NULL,
    campaign_id           text          NOT NULL DEFAULT '',
    ad_set_id             text          NOT NULL DEFAULT '',
    spend                 numeric(18,2) NOT NULL DEFAULT 0,
    impressions           bigint        NOT NULL DEFAULT 0,
    clicks                bigint        NOT NULL DEFAULT 0,
    video_views           bigint        NOT NULL DEFAULT 0,
    reported_conversions  numeric(18,2) NOT NULL DEFAULT 0,
    reported_revenue      numeric(18,2) NOT NULL DEFAULT 0,
    currency              char(3)       NOT NULL,
    updated_at            timestamptz   NOT NULL DEFAULT now(),
    PRIMARY KEY (account_id, platform, ad_id, day)
);
ALTER TABLE ad_spend_daily REPLICA IDENTITY FULL;
