-- Lead stages, stage history, the contact blacklist of erased leads, clicks (spec 2.5, 2.11, 3.2, 4.1, 4.11).
-- Reversible: drop the four tables and the two lead columns (stage history, blacklist and clicks are then lost).

-- The stage names an account knows: created when a stage is first applied (or by a lead-stage URL rule).
-- PUT /leads removeLeadStages refuses names not in this table.
CREATE TABLE lead_stages (
    account_id  text        NOT NULL REFERENCES accounts (id),
    id          text        NOT NULL,
    name        text        NOT NULL,
    created_at  timestamptz NOT NULL,
    PRIMARY KEY (account_id, id)
);
CREATE UNIQUE INDEX lead_stages_name ON lead_stages (account_id, lower(name));

-- Every time a lead entered a stage; GET /stages with stageFromDate/stageToDate counts these.
CREATE TABLE lead_stage_history (
    account_id  text        NOT NULL,
    lead_id     text        NOT NULL,
    stage_id    text        NOT NULL,
    entered_at  timestamptz NOT NULL,
    PRIMARY KEY (account_id, lead_id, stage_id, entered_at),
    FOREIGN KEY (account_id, lead_id) REFERENCES leads (account_id, id) ON DELETE CASCADE
);
CREATE INDEX lead_stage_history_stage ON lead_stage_history (account_id, stage_id, entered_at);

-- Contacts of erased leads (DELETE /leads): a later write carrying one is refused with 400 (spec 3.1, 7.2.8).
-- value: the lower-cased email, or the digits of the phone number. Cleared only from the web app.
CREATE TABLE contact_blacklist (
    account_id  text        NOT NULL REFERENCES accounts (id),
    kind        text        NOT NULL CHECK (kind IN ('EMAIL', 'PHONE')),
    value       text        NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (account_id, kind, value)
);

-- The origin lead a lead was merged into (spec 2.5 originLead), set by orders carrying parentEmail.
ALTER TABLE leads ADD COLUMN origin_lead_id text;
ALTER TABLE leads ADD COLUMN origin_assigned_at timestamptz;
-- When consent first became GRANTED (lead.opted.in.first.time fires once).
ALTER TABLE leads ADD COLUMN first_opted_in_at timestamptz;

-- Clicks on tracked links (spec 2.11, 4.11). lead_id is NULL until the click is connected to a lead (by email,
-- phone or IP); unassigned clicks are deleted after 90 days (spec 8.2). Streamed to ClickHouse for reports.
CREATE TABLE clicks (
    account_id          text        NOT NULL REFERENCES accounts (id),
    id                  text        NOT NULL,
    lead_id             text,
    click_date          timestamptz NOT NULL,
    tracked_url         text        NOT NULL,
    previous_url        text,
    session_id          text,
    ip                  text,
    user_agent          text,
    source_link_tag     text,                       -- '@…' tag of the source link clicked, NULL when none
    is_organic          boolean     NOT NULL DEFAULT false,
    integration_type    text,                       -- AdspendType of the ad platform
    ad_source_id        text,                       -- ad set / campaign / ad group id on the platform
    adspend_ad_id       text,                       -- ad id on the platform
    ad_source_click_id  text,                       -- platform click id (gclid, fbclid, ...)
    created_at          timestamptz NOT NULL,
    PRIMARY KEY (account_id, id),
    FOREIGN KEY (account_id, lead_id) REFERENCES leads (account_id, id) ON DELETE CASCADE
);
CREATE INDEX clicks_lead ON clicks (account_id, lead_id, click_date);
CREATE INDEX clicks_unassigned ON clicks (account_id, click_date) WHERE lead_id IS NULL;
CREATE INDEX clicks_unassigned_ip ON clicks (account_id, ip) WHERE lead_id IS NULL;
ALTER TABLE clicks REPLICA IDENTITY FULL;
ALTER TABLE lead_ips REPLICA IDENTITY FULL;
