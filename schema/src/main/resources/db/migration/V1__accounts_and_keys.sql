-- Accounts, API keys and agency links (spec 5). Reversible: drop the three tables.
CREATE TABLE accounts (
    id              text PRIMARY KEY,                 -- external account id, sent in Accessible-Account-Id
    name            text        NOT NULL,
    email           text,
    time_zone       text        NOT NULL,             -- IANA zone, e.g. America/New_York
    currency        char(3)     NOT NULL DEFAULT 'USD',
    state           text        NOT NULL DEFAULT 'ACTIVE'
                    CHECK (state IN ('ACTIVE', 'BLOCKED', 'PAYMENT_PENDING', 'PENDING_DELETION')),
    permitted_roles text[],                           -- roles the account's plan grants; NULL = every role
    rate_per_second integer,                          -- per-account override of the 30/s default
    rate_per_minute integer,                          -- per-account override of the 1000/min default
    created_at      timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE api_keys (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    account_id  text        NOT NULL REFERENCES accounts (id),
    key_hash    text        NOT NULL UNIQUE,          -- hex SHA-256 of the key; the key itself is never stored
    roles       text[]      NOT NULL,
    read_only   boolean     NOT NULL DEFAULT false,   -- read-only sub-user key (spec 5.4)
    created_at  timestamptz NOT NULL DEFAULT now(),
    revoked_at  timestamptz
);
CREATE INDEX api_keys_account ON api_keys (account_id);

CREATE TABLE agency_links (
    agency_id   text NOT NULL REFERENCES accounts (id),
    client_id   text NOT NULL REFERENCES accounts (id),
    state       text NOT NULL CHECK (state IN ('APPROVED', 'PENDING', 'REVOKED')),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (agency_id, client_id)
);
