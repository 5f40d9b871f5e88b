-- Transactional outbox of domain events (spec 6): a row is written in the same transaction as the change it
-- describes, so an event exists exactly when its change committed. Webhook delivery reads it in seq order.
-- Reversible: drop it (undelivered events are then lost).
CREATE TABLE domain_events (
    seq          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id           text        NOT NULL UNIQUE,        -- evt_…: the webhook-id of every delivery of this event
    account_id   text        NOT NULL REFERENCES accounts (id),
    event_type   text        NOT NULL,               -- sale.attributed, lead.tag.added, ... (spec 6)
    subject_id   text        NOT NULL,               -- id of the lead, sale, call or subscription concerned
    payload      jsonb       NOT NULL,               -- the subject in the shape of its GET, at the time of the event
    occurred_at  timestamptz NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX domain_events_account ON domain_events (account_id, seq);
