-- The sales' attribution rows by ad (issue 26 point 5; docs/attribution-models.md "Sales by ad"): one row per live
-- sale and per distinct ad among the four clicks its conversion_touches row picks (last / first, paid / organic),
-- holding those four picks (so the credit rule is decided on the row alone) and the sale's amounts. Streamed to
-- ClickHouse and sorted there by (account, ad, platform, sale date), a report over a few ads reads only the rows of
-- its ads and its dates: the credited sales of those ads, plus the sales whose other picks name them. Before it, a
-- report read the range's whole partitions of sales (sorted by lead) to find the candidates' amounts.
--
-- Kept exact in the same transactions as conversion_touches: conversion_touches_refresh (V46, called by the triggers
-- on clicks, sales and calls, or by conversion_touches_flush for deferred writers, V102) now refreshes these rows too,
-- for the same leads, under the same advisory locks. Only rows that change are written. A row whose ad leaves the
-- conversion's picks (a click re-attributed, a later click of the lead) is deleted, and so is a row whose sale date
-- changes (inserted again under the new date: in ClickHouse each version lies in its own month's partition and the
-- delete's image carries the old date). The sales update trigger now also counts the amount columns, so a refund or
-- a price change reaches these rows. Ids, dates and amounts only: no personal data.
CREATE TABLE sale_credits (
    account_id                 text           NOT NULL REFERENCES accounts (id),
    sale_id                    text           NOT NULL,
    ad                         text           NOT NULL,   -- one of the picks' ads (adspend_ad_id, else ad_source_id)
    platform                   text           NOT NULL,   -- that pick's integration_type ('' when none)
    sale_date                  timestamptz    NOT NULL,
    lead_id                    text           NOT NULL,
    last_paid_click_id         text,                      -- the four picks, as in conversion_touches
    last_paid_click_date       timestamptz,
    last_paid_ad               text,
    last_paid_platform         text,
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
    price                      numeric(18, 2) NOT NULL,   -- the sale's columns of the same names (V41)
    usd_price                  numeric(18, 2),
    taxes                      numeric(18, 2) NOT NULL,
    shipping                   numeric(18, 2) NOT NULL,
    cost_of_goods              numeric(18, 2) NOT NULL,
    hard_cost                  numeric(18, 2) NOT NULL,
    refunded_amount            numeric(18, 2) NOT NULL,
    recurring                  boolean        NOT NULL,
    first_sale                 boolean        NOT NULL,
    refunded                   boolean        NOT NULL,
    PRIMARY KEY (account_id, sale_id, ad, platform)
);
CREATE INDEX sale_credits_lead ON sale_credits (account_id, lead_id);
ALTER TABLE sale_credits REPLICA IDENTITY FULL;

-- The rows sale_credits must hold for the given (account, lead) pairs, from their current conversion_touches rows
-- and sales.
CREATE FUNCTION sale_credits_of(accs text[], leads text[]) RETURNS SETOF sale_credits
LANGUAGE sql STABLE AS $$
WITH affected AS (
    SELECT DISTINCT a AS account_id, l AS lead_id FROM unnest(accs, leads) AS u (a, l) WHERE l IS NOT NULL
)
SELECT t.account_id, t.conversion_id, p.ad, p.platform, t.conversion_at, t.lead_id,
       t.last_paid_click_id, t.last_paid_click_date, t.last_paid_ad, t.last_paid_platform,
       t.last_organic_click_id, t.last_organic_click_date, t.last_organic_ad, t.last_organic_platform,
       t.first_paid_click_id, t.first_paid_click_date, t.first_paid_ad, t.first_paid_platform,
       t.first_organic_click_id, t.first_organic_click_date, t.first_organic_ad, t.first_organic_platform,
       s.price, s.usd_price, s.taxes, s.shipping, s.cost_of_goods, s.hard_cost, s.refunded_amount, s.recurring,
       s.first_sale, s.refunded
FROM affected x
JOIN conversion_touches t ON t.account_id = x.account_id AND t.lead_id = x.lead_id AND t.conversion_type = 'SALE'
JOIN sales s ON s.account_id = t.account_id AND s.id = t.conversion_id
CROSS JOIN LATERAL (
    SELECT DISTINCT v.ad, coalesce(v.platform, '') AS platform
    FROM (VALUES (t.last_paid_ad, t.last_paid_platform), (t.last_organic_ad, t.last_organic_platform),
                 (t.first_paid_ad, t.first_paid_platform), (t.first_organic_ad, t.first_organic_platform)) AS v (ad, platform)
    WHERE v.ad IS NOT NULL AND v.ad <> ''
) p
$$;

-- Brings the sale_credits rows of the given (account, lead) pairs up to date from their conversion_touches rows
-- (which the caller has just refreshed, under its locks), writing only rows that change.
CREATE FUNCTION sale_credits_refresh(accs text[], leads text[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    IF to_regclass('pg_temp.sale_credits_fresh') IS NULL THEN
        CREATE TEMP TABLE sale_credits_fresh (LIKE sale_credits);
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
    DELETE FROM pg_temp.sale_credits_fresh;
END
$$;

-- conversion_touches_refresh keeps its name (the triggers and conversion_touches_flush call it) and now refreshes
-- both projections: V46's body, renamed, then sale_credits.
ALTER FUNCTION conversion_touches_refresh(text[], text[]) RENAME TO conversion_touches_refresh_rows;
CREATE FUNCTION conversion_touches_refresh(accs text[], leads text[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM conversion_touches_refresh_rows(accs, leads);
    PERFORM sale_credits_refresh(accs, leads);
END
$$;

-- The sales update trigger also counts the amounts sale_credits copies (V46 counted lead, date and deleted only).
DROP TRIGGER conversion_touches_sales_update ON sales;
CREATE TRIGGER conversion_touches_sales_update AFTER UPDATE ON sales
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION conversion_touches_changed('id', 'lead_id', 'sale_date', 'deleted', 'price',
        'usd_price', 'taxes', 'shipping', 'cost_of_goods', 'hard_cost', 'refunded_amount', 'recurring', 'first_sale', 'refunded');
ALTER TABLE sales ENABLE ALWAYS TRIGGER conversion_touches_sales_update;

-- the sales already stored
INSERT INTO sale_credits
SELECT c.* FROM (SELECT array_agg(account_id) AS accs, array_agg(lead_id) AS leads
                 FROM (SELECT DISTINCT account_id, lead_id FROM conversion_touches WHERE conversion_type = 'SALE') d) x,
     LATERAL sale_credits_of(x.accs, x.leads) c;
