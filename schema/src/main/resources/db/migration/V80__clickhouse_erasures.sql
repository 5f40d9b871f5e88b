-- Leads erased by DELETE /leads whose old versions must still be removed from ClickHouse (spec 3.2). The write
-- worker queues the lead in the erasure's transaction; the CDC bridge's ErasureSweep runs dev.attribution.cdc.Erasure
-- in the background once the redaction has streamed, then marks the row done. Not streamed to ClickHouse.
CREATE TABLE clickhouse_erasures (
    account_id    text        NOT NULL,
    lead_id       text        NOT NULL,
    requested_at  timestamptz NOT NULL,
    done_at       timestamptz,
    attempts      integer     NOT NULL DEFAULT 0,
    last_error    text,
    PRIMARY KEY (account_id, lead_id)
);
CREATE INDEX clickhouse_erasures_pending ON clickhouse_erasures (requested_at) WHERE done_at IS NULL;
