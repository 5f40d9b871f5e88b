-- Per-conversion attribution projection (issue 8, docs/attribution-models.md "The conversion touches projection").
-- One row per live sale and per live call that has at least one click of its lead at or before it: among the
-- lead's clicks with click_date <= conversion time (both truncated to the second, as ClickHouse's DateTime holds
-- them), the LAST paid, LAST organic, FIRST paid and FIRST organic click, ordered by (click date, click id in byte
-- order) — the click rule of AttributionQuery. The reports' last_click (any sourceConfiguration, any window) and
-- first_click (no window) derive from these four picks without reading clicks.
--
-- Maintained by the triggers below in the transaction of every write to clicks, sales and calls (API, imports, demo
-- seed, bulk SQL): each recomputes the rows of the leads a statement touched. The triggers are ENABLE ALWAYS so
-- they also fire under session_replication_role = replica (bulk loads that switch foreign keys off). The table is
-- streamed to ClickHouse like any other (CDC table list, clickhouse/060_conversion_touches.sql). It holds ids and
-- dates only: no personal data.
CREATE TABLE conversion_touches (
    account_id                 text        NOT NULL REFERENCES accounts (id),
    conversion_type            text        NOT NULL CHECK (conversion_type IN ('SALE', 'CALL')),
    conversion_id              text        NOT NULL,
    lead_id                    text        NOT NULL,
    conversion_at              timestamptz NOT NULL,   -- sale_date / call_date
    last_paid_click_id         text,                   -- NULL: no paid click at or before the conversion
    last_paid_click_date       timestamptz,
    last_paid_ad               text,                   -- adspend_ad_id, else ad_source_id
    last_paid_platform         text,                   -- integration_type
    last_organic_click_id      text,
    last_organic_click_date    timestamptz,
    last_organic_ad            text,
    last_organic_platform      text,
    first_paid_click_id        text,
    first_paid_click_date      timestamptz,
    first_paid_ad              text,
    first_paid_platform        text,
    first_organic_click_id     text,
    first_organic_click_date   timestamptz,
    first_organic_ad           text,
    first_organic_platform     text,
    PRIMARY KEY (account_id, conversion_type, conversion_id)
);
CREATE INDEX conversion_touches_lead ON conversion_touches (account_id, lead_id);
ALTER TABLE conversion_touches REPLICA IDENTITY FULL;

-- The rows the projection must hold for the given (account, lead) pairs, from the current clicks, sales and calls.
CREATE FUNCTION conversion_touches_of(accs text[], leads text[]) RETURNS SETOF conversion_touches
LANGUAGE sql STABLE AS $$
WITH affected AS (
    SELECT DISTINCT a AS account_id, l AS lead_id FROM unnest(accs, leads) AS u (a, l) WHERE l IS NOT NULL
), conv AS (
    SELECT s.account_id, 'SALE'::text AS conversion_type, s.id AS conversion_id, s.lead_id, s.sale_date AS conversion_at
    FROM affected x JOIN sales s ON s.account_id = x.account_id AND s.lead_id = x.lead_id AND NOT s.deleted
    UNION ALL
    SELECT c.account_id, 'CALL', c.id, c.lead_id, c.call_date
    FROM affected x JOIN calls c ON c.account_id = x.account_id AND c.lead_id = x.lead_id AND NOT c.deleted
), touch AS (
    SELECT v.*, k.id AS click_id, k.click_date, k.is_organic, date_trunc('second', k.click_date) AS click_second,
           CASE WHEN k.adspend_ad_id <> '' THEN k.adspend_ad_id ELSE k.ad_source_id END AS ad, k.integration_type AS platform
    FROM conv v JOIN clicks k ON k.account_id = v.account_id AND k.lead_id = v.lead_id
     AND date_trunc('second', k.click_date) <= date_trunc('second', v.conversion_at)
), ranked AS (
    SELECT t.*,
           row_number() OVER (PARTITION BY conversion_type, conversion_id, account_id, is_organic
                              ORDER BY click_second DESC, click_id COLLATE "C" DESC) AS from_last,
           row_number() OVER (PARTITION BY conversion_type, conversion_id, account_id, is_organic
                              ORDER BY click_second, click_id COLLATE "C") AS from_first
    FROM touch t
)
SELECT account_id, conversion_type, conversion_id, lead_id, conversion_at,
       max(click_id) FILTER (WHERE from_last = 1 AND NOT is_organic), max(click_date) FILTER (WHERE from_last = 1 AND NOT is_organic),
       max(ad) FILTER (WHERE from_last = 1 AND NOT is_organic), max(platform) FILTER (WHERE from_last = 1 AND NOT is_organic),
       max(click_id) FILTER (WHERE from_last = 1 AND is_organic), max(click_date) FILTER (WHERE from_last = 1 AND is_organic),
       max(ad) FILTER (WHERE from_last = 1 AND is_organic), max(platform) FILTER (WHERE from_last = 1 AND is_organic),
       max(click_id) FILTER (WHERE from_first = 1 AND NOT is_organic), max(click_date) FILTER (WHERE from_first = 1 AND NOT is_organic),
       max(ad) FILTER (WHERE from_first = 1 AND NOT is_organic), max(platform) FILTER (WHERE from_first = 1 AND NOT is_organic),
       max(click_id) FILTER (WHERE from_first = 1 AND is_organic), max(click_date) FILTER (WHERE from_first = 1 AND is_organic),
       max(ad) FILTER (WHERE from_first = 1 AND is_organic), max(platform) FILTER (WHERE from_first = 1 AND is_organic)
FROM ranked
WHERE from_last = 1 OR from_first = 1
GROUP BY account_id, conversion_type, conversion_id, lead_id, conversion_at
$$;

-- Brings the rows of the given (account, lead) pairs up to date, writing only rows that change (each write is a
-- change the CDC bridge streams). A row whose conversion time changes is deleted and inserted again, so its
-- ClickHouse versions stay in the partition of their own conversion month (the delete's image carries the old time).
-- Concurrent writers of one lead are serialised (advisory locks: shared per account plus exclusive per lead, or
-- exclusive per account for a statement touching more than 1,000 leads), and each statement below reads the data
-- committed once the lock is held (READ COMMITTED).
CREATE FUNCTION conversion_touches_refresh(accs text[], leads text[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    k record;
BEGIN
    IF (SELECT count(DISTINCT (a, l)) FROM unnest(accs, leads) AS u (a, l) WHERE l IS NOT NULL) > 1000 THEN
        FOR k IN SELECT DISTINCT hashtext(a) AS h FROM unnest(accs) AS u (a) ORDER BY 1 LOOP
            PERFORM pg_advisory_xact_lock(hashtext('conversion_touches'), k.h);
        END LOOP;
    ELSE
        FOR k IN SELECT DISTINCT hashtext(a) AS h FROM unnest(accs) AS u (a) ORDER BY 1 LOOP
            PERFORM pg_advisory_xact_lock_shared(hashtext('conversion_touches'), k.h);
        END LOOP;
        FOR k IN SELECT DISTINCT hashtext(a) AS ha, hashtext(l) AS hl FROM unnest(accs, leads) AS u (a, l)
                 WHERE l IS NOT NULL ORDER BY 1, 2 LOOP
            PERFORM pg_advisory_xact_lock(k.ha, k.hl);
        END LOOP;
    END IF;
    IF to_regclass('pg_temp.conversion_touches_fresh') IS NULL THEN
        CREATE TEMP TABLE conversion_touches_fresh (LIKE conversion_touches);
    END IF;
    DELETE FROM pg_temp.conversion_touches_fresh;
    INSERT INTO pg_temp.conversion_touches_fresh SELECT * FROM conversion_touches_of(accs, leads);
    DELETE FROM conversion_touches t
    USING (SELECT DISTINCT a, l FROM unnest(accs, leads) AS u (a, l) WHERE l IS NOT NULL) x
    WHERE t.account_id = x.a AND t.lead_id = x.l
      AND NOT EXISTS (SELECT 1 FROM pg_temp.conversion_touches_fresh f
                      WHERE f.account_id = t.account_id AND f.conversion_type = t.conversion_type
                        AND f.conversion_id = t.conversion_id AND f.conversion_at = t.conversion_at);
    INSERT INTO conversion_touches AS t SELECT * FROM pg_temp.conversion_touches_fresh
    ON CONFLICT (account_id, conversion_type, conversion_id) DO UPDATE SET
        lead_id = excluded.lead_id, conversion_at = excluded.conversion_at,
        last_paid_click_id = excluded.last_paid_click_id, last_paid_click_date = excluded.last_paid_click_date,
        last_paid_ad = excluded.last_paid_ad, last_paid_platform = excluded.last_paid_platform,
        last_organic_click_id = excluded.last_organic_click_id, last_organic_click_date = excluded.last_organic_click_date,
        last_organic_ad = excluded.last_organic_ad, last_organic_platform = excluded.last_organic_platform,
        first_paid_click_id = excluded.first_paid_click_id, first_paid_click_date = excluded.first_paid_click_date,
        first_paid_ad = excluded.first_paid_ad, first_paid_platform = excluded.first_paid_platform,
        first_organic_click_id = excluded.first_organic_click_id, first_organic_click_date = excluded.first_organic_click_date,
        first_organic_ad = excluded.first_organic_ad, first_organic_platform = excluded.first_organic_platform
    WHERE t IS DISTINCT FROM excluded;
    DELETE FROM pg_temp.conversion_touches_fresh;
END
$$;

-- Statement-level triggers on clicks, sales and calls: the leads whose rows a statement may move. The trigger's
-- arguments name the columns that matter (for an update, only rows where one of them changed count, with their old
-- and new lead alike); inserts and deletes count every row with a lead.
CREATE FUNCTION conversion_touches_changed() RETURNS trigger
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
    IF accs IS NOT NULL THEN
        PERFORM conversion_touches_refresh(accs, leads);
    END IF;
    RETURN NULL;
END
$$;

-- One trigger per table and event (transition tables allow one event per trigger), ENABLE ALWAYS: they also fire
-- under session_replication_role = replica (bulk loads with foreign keys off, logical replicas).
DO $$
DECLARE
    t record;
    e record;
BEGIN
    FOR t IN SELECT * FROM (VALUES
            ('clicks', $a$'id', 'lead_id', 'click_date', 'is_organic', 'integration_type', 'ad_source_id', 'adspend_ad_id'$a$),
            ('sales', $a$'id', 'lead_id', 'sale_date', 'deleted'$a$),
            ('calls', $a$'id', 'lead_id', 'call_date', 'deleted'$a$)) AS v (tbl, columns) LOOP
        FOR e IN SELECT * FROM (VALUES ('insert', 'INSERT', 'NEW TABLE AS new_rows'),
                                       ('update', 'UPDATE', 'OLD TABLE AS old_rows NEW TABLE AS new_rows'),
                                       ('delete', 'DELETE', 'OLD TABLE AS old_rows')) AS w (name, event, transition) LOOP
            EXECUTE format('CREATE TRIGGER conversion_touches_%1$s_%2$s AFTER %3$s ON %1$s REFERENCING %4$s '
                           'FOR EACH STATEMENT EXECUTE FUNCTION conversion_touches_changed(%5$s)',
                           t.tbl, e.name, e.event, e.transition, t.columns);
            EXECUTE format('ALTER TABLE %1$s ENABLE ALWAYS TRIGGER conversion_touches_%1$s_%2$s', t.tbl, e.name);
        END LOOP;
    END LOOP;
END
$$;

-- the conversions already stored
INSERT INTO conversion_touches
SELECT t.* FROM (SELECT array_agg(account_id) AS accs, array_agg(lead_id) AS leads
                 FROM (SELECT account_id, lead_id FROM sales UNION SELECT account_id, lead_id FROM calls) c) x,
     LATERAL conversion_touches_of(x.accs, x.leads) t;
