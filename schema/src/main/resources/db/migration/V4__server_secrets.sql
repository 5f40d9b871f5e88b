-- Secrets every server node must share (page-token signing key). Generated once at install; nodes read it at
-- start. Reversible: drop it (outstanding page tokens then stop validating).
CREATE TABLE server_secrets (
    name   text PRIMARY KEY,
    value  text NOT NULL
);
INSERT INTO server_secrets (name, value)
VALUES ('page-token-key', md5(random()::text || clock_timestamp()::text) || md5(random()::text || pg_backend_pid()::text));
