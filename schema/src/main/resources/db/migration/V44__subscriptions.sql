-- Subscriptions (spec 2.9, 4.13). category is set once, at the first paid sale of the subscription
-- (an order naming it by externalSubscriptionId), and never after. Streamed to ClickHouse.
-- Reversible: drop the table.
CREATE TABLE subscriptions (
    account_id        text           NOT NULL REFERENCES accounts (id),
    id                text           NOT NULL,        -- sub_…
    external_id       text,                           -- subscriptionId of the billing platform
    lead_id           text           NOT NULL,
    plan_id           text,
    name              text,
    tag               text,
    periodicity       text           NOT NULL,
    price             numeric(18, 2) NOT NULL,
    status            text           NOT NULL,
    start_date        timestamptz    NOT NULL,
    end_date          timestamptz,
    cancel_at_date    timestamptz,
    trial_start_date  timestamptz,
    trial_end_date    timestamptz,
    category_id       text,
    category_name     text,
    created_at        timestamptz    NOT NULL,
    updated_at        timestamptz    NOT NULL,
    PRIMARY KEY (account_id, id)
);
CREATE UNIQUE INDEX subscriptions_external ON subscriptions (account_id, external_id) WHERE external_id IS NOT NULL;
CREATE INDEX subscriptions_start ON subscriptions (account_id, start_date, id);
ALTER TABLE subscriptions REPLICA IDENTITY FULL;
