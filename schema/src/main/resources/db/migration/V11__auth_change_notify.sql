-- Change notifications for the in-memory auth cache of every server node (CredentialCache): a statement that
-- changes accounts, api_keys or agency_links sends NOTIFY attribution_auth_changed, and each node drops its cache,
-- so revoked keys, blocked accounts and removed roles take effect promptly everywhere. These tables change only
-- through admin operations: the notify's commit-time lock never meets the request path.
-- Reversible: drop the three triggers and the function.
CREATE FUNCTION notify_auth_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('attribution_auth_changed', TG_TABLE_NAME);
    RETURN NULL;
END $$;

CREATE TRIGGER accounts_auth_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON accounts
    FOR EACH STATEMENT EXECUTE FUNCTION notify_auth_changed();
CREATE TRIGGER api_keys_auth_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON api_keys
    FOR EACH STATEMENT EXECUTE FUNCTION notify_auth_changed();
CREATE TRIGGER agency_links_auth_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON agency_links
    FOR EACH STATEMENT EXECUTE FUNCTION notify_auth_changed();
