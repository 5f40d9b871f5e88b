-- Calls (spec 2.8, 4.3). externalId identifies a call of an integration: POST with a known one updates it.
-- Soft delete; streamed to ClickHouse (REPLICA IDENTITY FULL). Reversible: drop the table.
CREATE TABLE calls (
    account_id          text        NOT NULL REFERENCES accounts (id),
    id                  text        NOT NULL,         -- cll_…
    external_id         text,
    name                text        NOT NULL,
    tag                 text,
    lead_id             text        NOT NULL,
    qualified           boolean     NOT NULL DEFAULT true,
    score               numeric(10, 2),
    state               text CHECK (state IN ('QUALIFIED', 'UNQUALIFIED', 'CANCELLED', 'NO_SHOW')),
    qualification_name  text,
    qualification_old_name text,
    first_call          boolean     NOT NULL DEFAULT false,
    call_date           timestamptz NOT NULL,
    created_at          timestamptz NOT NULL,
    updated_at          timestamptz NOT NULL,
    deleted             boolean     NOT NULL DEFAULT false,
    PRIMARY KEY (account_id, id)
);
CREATE UNIQUE INDEX calls_external ON calls (account_id, external_id) WHERE external_id IS NOT NULL AND NOT deleted;
CREATE INDEX calls_date ON calls (account_id, call_date, id) WHERE NOT deleted;
CREATE INDEX calls_lead ON calls (account_id, lead_id) WHERE NOT deleted;
ALTER TABLE calls REPLICA IDENTITY FULL;
