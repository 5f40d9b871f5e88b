-- Group apply (issue 23 point 3): a write worker's transaction refreshes conversion_touches once, at its end, for
-- every lead its statements touched, instead of once per statement (an order's sales insert refreshed its lead's
-- rows on its own: ~1 ms of PostgreSQL per order, bench/apply-profile.sh). A transaction opts in with
-- SET LOCAL attribution.touches_deferred = on; the triggers then queue the (account, lead) pairs in a temporary
-- table of the session (rolled back with the transaction or a savepoint, like the writes that queued them), and
-- conversion_touches_flush() refreshes them all in one call, which the transaction must make before it commits
-- (WriteWorker does, DeferredTouches). Every other writer (imports, demo seed, plain SQL) is unchanged: without the
-- setting each statement still refreshes its leads at once.
CREATE OR REPLACE FUNCTION conversion_touches_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    accs text[];
    leads text[];
BEGIN
    IF TG_OP = 'INSERT' THEN
        SELECT array_agg(account_id), array_agg(lead_id) INTO accs, leads
        FROM (SELECT DISTINCT account_id, lead_id FROM new_rows WHERE lead_id IS NOT NULL) d;
    ELSIF TG_OP = 'DELETE' THEN
        SELECT array_agg(account_id), array_agg(lead_id) INTO accs, leads
        FROM (SELECT DISTINCT account_id, lead_id FROM old_rows WHERE lead_id IS NOT NULL) d;
    ELSE
        SELECT array_agg(account_id), array_agg(lead_id) INTO accs, leads
        FROM (SELECT DISTINCT account_id, lead_id FROM (
                  (SELECT o.account_id, o.lead_id, (SELECT jsonb_object_agg(k, to_jsonb(o) -> k) FROM unnest(TG_ARGV) AS k) FROM old_rows o
                   EXCEPT SELECT n.account_id, n.lead_id, (SELECT jsonb_object_agg(k, to_jsonb(n) -> k) FROM unnest(TG_ARGV) AS k) FROM new_rows n)
                  UNION ALL
                  (SELECT n.account_id, n.lead_id, (SELECT jsonb_object_agg(k, to_jsonb(n) -> k) FROM unnest(TG_ARGV) AS k) FROM new_rows n
                   EXCEPT SELECT o.account_id, o.lead_id, (SELECT jsonb_object_agg(k, to_jsonb(o) -> k) FROM unnest(TG_ARGV) AS k) FROM old_rows o)
              ) ch WHERE lead_id IS NOT NULL) d;
    END IF;
    IF accs IS NULL THEN
        RETURN NULL;
    END IF;
    IF current_setting('attribution.touches_deferred', true) = 'on' THEN
        IF to_regclass('pg_temp.conversion_touches_queue') IS NULL THEN
            CREATE TEMP TABLE conversion_touches_queue (account_id text NOT NULL, lead_id text NOT NULL);
        END IF;
        INSERT INTO pg_temp.conversion_touches_queue SELECT * FROM unnest(accs, leads);
    ELSE
        PERFORM conversion_touches_refresh(accs, leads);
    END IF;
    RETURN NULL;
END
$$;

-- Refreshes the pairs queued by this transaction's statements, in one call, and empties the queue; returns how many
-- (account, lead) pairs it refreshed.
CREATE FUNCTION conversion_touches_flush() RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    accs text[];
    leads text[];
BEGIN
    IF to_regclass('pg_temp.conversion_touches_queue') IS NULL THEN
        RETURN 0;
    END IF;
    SELECT array_agg(a), array_agg(l) INTO accs, leads
    FROM (SELECT DISTINCT account_id AS a, lead_id AS l FROM pg_temp.conversion_touches_queue) d;
    DELETE FROM pg_temp.conversion_touches_queue;
    IF accs IS NULL THEN
        RETURN 0;
    END IF;
    PERFORM conversion_touches_refresh(accs, leads);
    RETURN cardinality(accs);
END
$$;
