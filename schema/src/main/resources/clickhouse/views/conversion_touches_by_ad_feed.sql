-- Copies every version of every conversion_touches row into conversion_touches_by_ad on insert, one row per click with an ad.
CREATE MATERIALIZED VIEW IF NOT EXISTS {db}.conversion_touches_by_ad_feed TO {db}.conversion_touches_by_ad AS
SELECT account_id, conversion_type, tupleElement(touch, 1) AS ad, tupleElement(touch, 2) AS platform, conversion_at,
       conversion_id, lead_id, _version, is_deleted
FROM {db}.conversion_touches
ARRAY JOIN [(last_paid_ad, last_paid_platform), (last_organic_ad, last_organic_platform),
            (first_paid_ad, first_paid_platform), (first_organic_ad, first_organic_platform)] AS touch
WHERE tupleElement(touch, 1) != '';
