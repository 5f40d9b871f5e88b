-- Email events of leads (spec 2.17 journey types `email` and `email-open`), imported from files by
-- `scripts/admin email import` or POST /api/v1.0/email-events/import (docs/email-events.md): the hosted service gets
-- them from email-platform integrations, which a self-hosted machine cannot reach. One row per (message, kind): a
-- re-import replaces the row, never adds one. Rows go with their lead on erasure (DELETE /leads, spec 3.2).
-- PostgreSQL only: not in the CDC publication, no ClickHouse table (only the lead journey reads them).
-- Reversible: drop the table (imported events are lost; import the files again).
CREATE TABLE lead_email_events (
    account_id   text        NOT NULL,
    message_id   text        NOT NULL,                 -- the provider's message id: the journey event's id
    kind         text        NOT NULL CHECK (kind IN ('sent', 'open')),   -- journey type email / email-open
    lead_id      text        NOT NULL,
    occurred_at  timestamptz NOT NULL,
    name         text        NOT NULL DEFAULT '',      -- subject or campaign name
    provider     text        NOT NULL DEFAULT '',      -- email platform (journey integrationProvider)
    imported_at  timestamptz NOT NULL DEFAULT now(),   -- when the row was last written by an import
    PRIMARY KEY (account_id, message_id, kind),
    FOREIGN KEY (account_id, lead_id) REFERENCES leads (account_id, id) ON DELETE CASCADE
);
CREATE INDEX lead_email_events_lead ON lead_email_events (account_id, lead_id, occurred_at);
