-- Emails and phone numbers an account has blacklisted (spec 3.2: erasing a lead blacklists its email and phones;
-- 7.2.8: later writes carrying them are refused with 400 and get no request_id). Values are stored normalized by
-- dev.attribution.command.requests.Blacklist (emails lower-cased, phones reduced to + and digits).
-- Cleared only from the web app (not an API operation). Reversible: drop the table.
CREATE TABLE blacklisted_contacts (
    account_id  text        NOT NULL REFERENCES accounts (id),
    kind        text        NOT NULL CHECK (kind IN ('EMAIL', 'PHONE')),
    value       text        NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (account_id, kind, value)
);
