-- The contact blacklist (V30) notifies the nodes' in-memory cache like the auth tables do (V11): a lead erasure
-- that blacklists an email or phone drops every node's cached blacklist, so the next write carrying it is refused
-- on every node promptly. Erasures are rare: the notify's commit-time lock never meets the accept path.
-- Reversible: drop the trigger.
CREATE TRIGGER contact_blacklist_cache_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON contact_blacklist
    FOR EACH STATEMENT EXECUTE FUNCTION notify_cache_changed();
