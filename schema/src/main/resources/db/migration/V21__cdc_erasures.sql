-- Erased leads whose old versions the CDC bridge has removed from ClickHouse (spec 3.2, DELETE /leads: no ClickHouse
-- table or view may keep the erased email, phone or name). A lead with leads.erased not listed here is still to
-- sweep (see ErasureSweep). Reversible: drop the table and the index.
CREATE TABLE cdc_erasures (
    account_id  text        NOT NULL,
    lead_id     text        NOT NULL,
    swept_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (account_id, lead_id)
);
CREATE INDEX leads_erased ON leads (account_id, id) WHERE erased;
