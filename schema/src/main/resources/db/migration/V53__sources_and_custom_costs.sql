-- Sources (tracked links, spec 2.13, 4.8) and custom costs (2.14, 4.10). Sources are soft deleted (deleted_at).
-- Custom costs keep the wall clock (2.2.8): start/end are local date-times without zone. Both stream to ClickHouse.
-- Reversible: drop the tables.
CREATE TABLE source_links (
    account_id        text        NOT NULL REFERENCES accounts (id),
    id                text        NOT NULL,
    tag               text        NOT NULL,                -- carries '@'
    name              text        NOT NULL,
    category_id       bigint,
    goal_id           bigint,
    traffic_source_id bigint,
    disregarded       boolean     NOT NULL DEFAULT false,
    organic           boolean     NOT NULL DEFAULT false,
    platform          text        NOT NULL DEFAULT '',     -- AdspendType, '' for hand-made sources
    ad_source_id      text        NOT NULL DEFAULT '',     -- ad set / campaign / ad group id on the platform
    ad_account_id     text        NOT NULL DEFAULT '',
    adspend_sub_type  text        NOT NULL DEFAULT '',
    campaign_id       text        NOT NULL DEFAULT '',
    created_at        timestamptz NOT NULL DEFAULT now(),
    updated_at        timestamptz NOT NULL DEFAULT now(),
    deleted_at        timestamptz,
    PRIMARY KEY (account_id, id)
);
CREATE UNIQUE INDEX source_links_tag ON source_links (account_id, lower(tag)) WHERE deleted_at IS NULL;
CREATE INDEX source_links_ad_source ON source_links (account_id, ad_source_id);
ALTER TABLE source_links REPLICA IDENTITY FULL;

CREATE TABLE custom_costs (
    account_id  text          NOT NULL REFERENCES accounts (id),
    id          text          NOT NULL,
    name        text,
    cost        numeric(18,2) NOT NULL,
    frequency   text          NOT NULL CHECK (frequency IN ('DAILY', 'ONE_TIME', 'MONTHLY')),
    start_date  timestamp     NOT NULL,                    -- wall clock, no zone
    end_date    timestamp,                                 -- NULL = open-ended
    tags        text[]        NOT NULL,
    created_at  timestamptz   NOT NULL DEFAULT now(),
    updated_at  timestamptz   NOT NULL DEFAULT now(),
    PRIMARY KEY (account_id, id)
);
CREATE INDEX custom_costs_created ON custom_costs (account_id, created_at, id);
ALTER TABLE custom_costs REPLICA IDENTITY FULL;
