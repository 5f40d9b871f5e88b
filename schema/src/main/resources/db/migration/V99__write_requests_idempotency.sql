-- Idempotent retries (issue 29, docs/clients.md "Retrying a write safely"): an asynchronous write sent with an
-- Idempotency-Key header is stored once per (account, key); a retry with the same key and the same request gets the
-- first request_id back. request_hash: SHA-256 of the request as sent (method, path, query, body), so a retry is told
-- apart from a different write reusing the key. A key lives as long as its request row (the retention window).
-- Reversible: drop the index and both columns.
ALTER TABLE write_requests ADD COLUMN idempotency_key text, ADD COLUMN request_hash text;
CREATE UNIQUE INDEX write_requests_idempotency ON write_requests (account_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
