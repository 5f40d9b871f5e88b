-- Named things sources and URL rules point at (spec 2.6 TrafficSource, Goal, Category) and the lead stages URL
-- rules create (spec 3.2). Each is "created if absent" by name within an account. Reversible: drop the tables.
CREATE TABLE traffic_sources (
    account_id  text        NOT NULL REFERENCES accounts (id),
    id          bigint      GENERATED ALWAYS AS IDENTITY,
    name        text        NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (account_id, id)
);
CREATE UNIQUE INDEX traffic_sources_name ON traffic_sources (account_id, lower(name));

CREATE TABLE source_categories (
    account_id  text        NOT NULL REFERENCES accounts (id),
    id          bigint      GENERATED ALWAYS AS IDENTITY,
    name        text        NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (account_id, id)
);
CREATE UNIQUE INDEX source_categories_name ON source_categories (account_id, lower(name));

CREATE TABLE source_goals (
    account_id  text        NOT NULL REFERENCES accounts (id),
    id          bigint      GENERATED ALWAYS AS IDENTITY,
    name        text        NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (account_id, id)
);
CREATE UNIQUE INDEX source_goals_name ON source_goals (account_id, lower(name));

-- Stages created by lead-stage URL rules (createLeadStage=true). A stage survives the rule that created it.
CREATE TABLE url_rule_stages (
    account_id  text        NOT NULL REFERENCES accounts (id),
    id          bigint      GENERATED ALWAYS AS IDENTITY,
    name        text        NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (account_id, id)
);
CREATE UNIQUE INDEX url_rule_stages_name ON url_rule_stages (account_id, name);
