-- URL rules (spec 2.15, 4.9). The raw id never leaves the service: the API speaks external_id ('ur-' + random hex).
-- rule_type SIMPLE is what the API manages; DEFAULT rows are built-in rules, invisible to the API.
-- Reversible: drop the table.
CREATE TABLE url_rules (
    account_id               text        NOT NULL REFERENCES accounts (id),
    id                       bigint      GENERATED ALWAYS AS IDENTITY,
    external_id              text        NOT NULL UNIQUE,
    rule_type                text        NOT NULL DEFAULT 'SIMPLE' CHECK (rule_type IN ('SIMPLE', 'DEFAULT')),
    name                     text        NOT NULL,
    tag                      text        NOT NULL,
    action_type              text        NOT NULL CHECK (action_type IN ('ACTION', 'SOURCE_LINK', 'SALE', 'SUBSCRIPTION', 'LEAD_STAGE')),
    stage_id                 bigint,                            -- set exactly when action_type = LEAD_STAGE
    words_to_match           text[]      NOT NULL,
    words_not_to_match       text[]      NOT NULL DEFAULT '{}',
    source_rule_types        text[]      NOT NULL,
    apply_base_domain        boolean     NOT NULL DEFAULT false,
    disregard_source         boolean     NOT NULL DEFAULT false,
    traffic_source_to_match  text[]      NOT NULL DEFAULT '{}',
    source_category_to_match text[]      NOT NULL DEFAULT '{}',
    traffic_source_id        bigint,                            -- manual traffic-source category
    source_category_id       bigint,                            -- manual source category
    scores                   jsonb       NOT NULL DEFAULT '[]',  -- [{keywords:[..], score:n}]
    is_enabled               boolean     NOT NULL DEFAULT true,
    created_at               timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (account_id, id),
    FOREIGN KEY (account_id, stage_id) REFERENCES url_rule_stages (account_id, id),
    FOREIGN KEY (account_id, traffic_source_id) REFERENCES traffic_sources (account_id, id),
    FOREIGN KEY (account_id, source_category_id) REFERENCES source_categories (account_id, id)
);
CREATE INDEX url_rules_created ON url_rules (account_id, created_at, id);
CREATE INDEX url_rules_tag ON url_rules (account_id, tag);
