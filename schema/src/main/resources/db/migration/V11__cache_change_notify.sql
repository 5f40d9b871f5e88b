-- Change notifications for the in-memory cache of every server node (NotifiedCache): a statement that changes
-- accounts, api_keys or agency_links (and contact_blacklist, V35) sends NOTIFY attribution_cache_changed, and each node drops
-- its cache, so revoked keys, blocked accounts, removed roles and new blacklist entries take effect promptly
-- everywhere. These tables change through admin operations and lead erasures only: the notify's commit-time lock
-- never meets the accept path. Reversible: drop the three triggers and the function (after V35's).
CREATE FUNCTION notify_cache_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('attribution_cache_changed', TG_TABLE_NAME);
    RETURN NULL;
END $$;

CREATE TRIGGER accounts_cache_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON accounts
    FOR EACH STATEMENT EXECUTE FUNCTION notify_cache_changed();
CREATE TRIGGER api_keys_cache_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON api_keys
    FOR EACH STATEMENT EXECUTE FUNCTION notify_cache_changed();
CREATE TRIGGER agency_links_cache_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON agency_links
    FOR EACH STATEMENT EXECUTE FUNCTION notify_cache_changed();
