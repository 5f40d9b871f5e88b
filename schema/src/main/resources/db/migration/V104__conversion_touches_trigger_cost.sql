-- What the conversion_touches triggers cost per write (issue 23 point 3; docs/BENCHMARKS.md "The conversion_touches
-- triggers' cost per write"), two changes; the function bodies are those of V46 (the rows refresh, renamed by V103),
-- V102 (the statement trigger) and V103 (sale_credits) with only these changed.
--
-- 1. An UPDATE's changed rows are found by comparing the watched columns (the trigger's arguments) themselves. Before,
--    each row's were compared as a jsonb built from to_jsonb of the whole row once per argument, both ways: with the 14
--    columns V103 watches on sales, an UPDATE of 25 sales (an order batch's first_sale flags) took ~34 ms, its
--    trigger included, now ~3.5 ms (pgbench, one session; TouchesTriggerCostTest checks which leads are queued).
-- 2. The scratch tables of the refresh (conversion_touches_fresh, sale_credits_fresh) and the deferred writers' queue
--    are emptied at commit (ON COMMIT DELETE ROWS) instead of by DELETE alone. They are temporary tables of the
--    session, and a session is a pooled connection living for many transactions (a write worker's flushes), while
--    autovacuum never visits temporary tables: every row a flush inserted and deleted stayed in the file, and every
--    later scan of these tables read it. One session, 25 leads per call, each call its own transaction
--    (bench/refresh-session.sh): after 3,000 calls the two tables held 21 and 26 MB and a call took ~78 ms instead of
--    ~8 ms; now both stay at 0 bytes between transactions and the calls at ~7 ms. A session that created a table
--    before this migration keeps it until the connection closes. The two refreshes no longer empty their table at
--    their end as well: each call empties it first, and the commit truncates it.

-- V46's rows refresh (named conversion_touches_refresh_rows since V103)
CREATE OR REPLACE FUNCTION conversion_touches_refresh_rows(accs text[], leads text[]) RETURNS void
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
        CREATE TEMP TABLE conversion_touches_fresh (LIKE conversion_touches) ON COMMIT DELETE ROWS;
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
END
$$;

-- V102's statement trigger function (the deferred writers' queue)
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
        -- the rows whose watched columns (the trigger's arguments) changed, compared column by column (V46-V103 built
        -- a jsonb of the arguments from to_jsonb of the whole row, once per argument and row)
        EXECUTE format('SELECT array_agg(account_id), array_agg(lead_id) FROM (SELECT DISTINCT account_id, lead_id FROM ('
                       '(SELECT %1$s FROM old_rows EXCEPT SELECT %1$s FROM new_rows) UNION ALL '
                       '(SELECT %1$s FROM new_rows EXCEPT SELECT %1$s FROM old_rows)) ch WHERE lead_id IS NOT NULL) d',
                       (SELECT string_agg(quote_ident(c), ', ') FROM (SELECT 'account_id' AS c UNION ALL SELECT 'lead_id'
                        UNION ALL SELECT k FROM unnest(TG_ARGV) AS k WHERE k NOT IN ('account_id', 'lead_id')) cs))
            INTO accs, leads;
    END IF;
    IF accs IS NULL THEN
        RETURN NULL;
    END IF;
    IF current_setting('attribution.touches_deferred', true) = 'on' THEN
        IF to_regclass('pg_temp.conversion_touches_queue') IS NULL THEN
            CREATE TEMP TABLE conversion_touches_queue (account_id text NOT NULL, lead_id text NOT NULL) ON COMMIT DELETE ROWS;
        END IF;
        INSERT INTO pg_temp.conversion_touches_queue SELECT * FROM unnest(accs, leads);
    ELSE
        PERFORM conversion_touches_refresh(accs, leads);
    END IF;
    RETURN NULL;
END
$$;

-- V103's sale_credits refresh
CREATE OR REPLACE FUNCTION sale_credits_refresh(accs text[], leads text[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    IF to_regclass('pg_temp.sale_credits_fresh') IS NULL THEN
        CREATE TEMP TABLE sale_credits_fresh (LIKE sale_credits) ON COMMIT DELETE ROWS;
    END IF;
    DELETE FROM pg_temp.sale_credits_fresh;
    INSERT INTO pg_temp.sale_credits_fresh SELECT * FROM sale_credits_of(accs, leads);
    DELETE FROM sale_credits c
    USING (SELECT DISTINCT a, l FROM unnest(accs, leads) AS u (a, l) WHERE l IS NOT NULL) x
    WHERE c.account_id = x.a AND c.lead_id = x.l
      AND NOT EXISTS (SELECT 1 FROM pg_temp.sale_credits_fresh f
                      WHERE f.account_id = c.account_id AND f.sale_id = c.sale_id AND f.ad = c.ad
                        AND f.platform = c.platform AND f.sale_date = c.sale_date);
    INSERT INTO sale_credits AS c SELECT * FROM pg_temp.sale_credits_fresh
    ON CONFLICT (account_id, sale_id, ad, platform) DO UPDATE SET
        sale_date = excluded.sale_date, lead_id = excluded.lead_id,
        last_paid_click_id = excluded.last_paid_click_id, last_paid_click_date = excluded.last_paid_click_date,
        last_paid_ad = excluded.last_paid_ad, last_paid_platform = excluded.last_paid_platform,
        last_organic_click_id = excluded.last_organic_click_id, last_organic_click_date = excluded.last_organic_click_date,
        last_organic_ad = excluded.last_organic_ad, last_organic_platform = excluded.last_organic_platform,
        first_paid_click_id = excluded.first_paid_click_id, first_paid_click_date = excluded.first_paid_click_date,
        first_paid_ad = excluded.first_paid_ad, first_paid_platform = excluded.first_paid_platform,
        first_organic_click_id = excluded.first_organic_click_id, first_organic_click_date = excluded.first_organic_click_date,
        first_organic_ad = excluded.first_organic_ad, first_organic_platform = excluded.first_organic_platform,
        price = excluded.price, usd_price = excluded.usd_price, taxes = excluded.taxes, shipping = excluded.shipping,
        cost_of_goods = excluded.cost_of_goods, hard_cost = excluded.hard_cost, refunded_amount = excluded.refunded_amount,
        recurring = excluded.recurring, first_sale = excluded.first_sale, refunded = excluded.refunded
    WHERE c IS DISTINCT FROM excluded;
END
$$;
