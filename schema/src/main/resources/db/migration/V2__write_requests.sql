-- Durable asynchronous writes (spec 1, 2.20, 3.1): every accepted write is a row here before its 200 answer.
-- Workers apply rows in seq order within a lane (a hash of the lead the write concerns). Reversible: drop it.
CREATE TABLE write_requests (
    seq           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id            text        NOT NULL UNIQUE,        -- the request_id handed to the caller
    account_id    text        NOT NULL REFERENCES accounts (id),
    event_type    text        NOT NULL,               -- CREATE_LEAD, UPDATE_LEAD, ... (spec 2.20)
    lane          integer     NOT NULL,               -- ordering lane: writes of one lead share a lane
    payload       jsonb       NOT NULL,
    status        text        NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'PROCESSED', 'FAILED')),
    error_message text,
    result        jsonb,
    created_at    timestamptz NOT NULL DEFAULT clock_timestamp(),
    processed_at  timestamptz
);
CREATE INDEX write_requests_pending ON write_requests (lane, seq) WHERE status = 'PENDING';
