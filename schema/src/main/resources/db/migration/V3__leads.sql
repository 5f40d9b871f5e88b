-- Leads and what hangs off them (spec 2.5). REPLICA IDENTITY FULL so the CDC bridge sees before-images of
-- updates and whole rows on deletes. Reversible: drop the tables.
CREATE TABLE leads (
    account_id    text        NOT NULL REFERENCES accounts (id),
    id            text        NOT NULL,
    email         text        NOT NULL,
    first_name    text,
    last_name     text,
    ad_consent    text        NOT NULL DEFAULT 'UNSPECIFIED' CHECK (ad_consent IN ('GRANTED', 'DENIED', 'UNSPECIFIED')),
    stage_name    text,                               -- current stage, NULL when none applied
    stage_date    timestamptz,
    created_at    timestamptz NOT NULL,               -- join date
    updated_at    timestamptz NOT NULL,
    erased        boolean     NOT NULL DEFAULT false,
    PRIMARY KEY (account_id, id)
);
CREATE UNIQUE INDEX leads_email ON leads (account_id, lower(email));
CREATE INDEX leads_created ON leads (account_id, created_at);
CREATE INDEX leads_updated ON leads (account_id, updated_at);
ALTER TABLE leads REPLICA IDENTITY FULL;

CREATE TABLE lead_tags (
    account_id  text        NOT NULL,
    lead_id     text        NOT NULL,
    tag         text        NOT NULL,
    assigned_at timestamptz NOT NULL,
    PRIMARY KEY (account_id, lead_id, tag),
    FOREIGN KEY (account_id, lead_id) REFERENCES leads (account_id, id) ON DELETE CASCADE
);
CREATE INDEX lead_tags_tag ON lead_tags (account_id, tag, assigned_at);
ALTER TABLE lead_tags REPLICA IDENTITY FULL;

CREATE TABLE lead_phones (
    account_id  text NOT NULL,
    lead_id     text NOT NULL,
    phone       text NOT NULL,
    PRIMARY KEY (account_id, lead_id, phone),
    FOREIGN KEY (account_id, lead_id) REFERENCES leads (account_id, id) ON DELETE CASCADE
);
CREATE INDEX lead_phones_phone ON lead_phones (account_id, phone);

CREATE TABLE lead_ips (
    account_id  text NOT NULL,
    lead_id     text NOT NULL,
    ip          text NOT NULL,
    PRIMARY KEY (account_id, lead_id, ip),
    FOREIGN KEY (account_id, lead_id) REFERENCES leads (account_id, id) ON DELETE CASCADE
);
ALTER TABLE lead_phones REPLICA IDENTITY FULL;
