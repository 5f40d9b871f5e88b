-- Webhook subscriptions and their deliveries (spec 2.19, 6), and the account's tracked domains (spec 4.13).
-- Reversible: drop the three tables and the column added to domain_events.
CREATE TABLE webhook_subscriptions (
    id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    external_id       text        NOT NULL UNIQUE,          -- sub-<32 hex>
    account_id        text        NOT NULL REFERENCES accounts (id),
    name              text        NOT NULL,
    target_url        text        NOT NULL,
    event_types       text[]      NOT NULL,
    state             text        NOT NULL DEFAULT 'ACTIVE'
                      CHECK (state IN ('ACTIVE', 'DELETED', 'AUTOMATIC_PAUSED', 'MANUALLY_PAUSED')),
    secret_key        text        NOT NULL,                 -- whsec_<base64>: Standard Webhooks signing secret
    created_at        timestamptz NOT NULL DEFAULT now(),
    last_delivery_at  timestamptz,                          -- null until a first successful delivery
    failing_since     timestamptz                           -- first failure of the current run of failures
);
CREATE INDEX webhook_subscriptions_account ON webhook_subscriptions (account_id, id);

-- One row per (event, subscription) once the event is fanned out; durable retry state (at-least-once).
CREATE TABLE webhook_deliveries (
    id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    event_seq        bigint      NOT NULL REFERENCES domain_events (seq),
    subscription_id  bigint      NOT NULL REFERENCES webhook_subscriptions (id),
    state            text        NOT NULL DEFAULT 'PENDING' CHECK (state IN ('PENDING', 'DELIVERED', 'FAILED')),
    attempts         integer     NOT NULL DEFAULT 0,
    next_attempt_at  timestamptz NOT NULL DEFAULT now(),    -- also the lease: a claimed row is pushed forward
    last_error       text,
    created_at       timestamptz NOT NULL DEFAULT now(),
    delivered_at     timestamptz,
    UNIQUE (event_seq, subscription_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE state = 'PENDING';

-- Fan-out marker: events not yet expanded into deliveries (claimed with FOR UPDATE SKIP LOCKED, no seq gaps).
ALTER TABLE domain_events ADD COLUMN fanned_out boolean NOT NULL DEFAULT false;
CREATE INDEX domain_events_pending_fanout ON domain_events (seq) WHERE NOT fanned_out;

CREATE TABLE account_domains (
    account_id  text        NOT NULL REFERENCES accounts (id),
    domain      text        NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (account_id, domain)
);
