-- The ad hierarchy written by the API (docs/attribution-models.md, "The ad hierarchy the API writes"): a source with an
-- ad platform (POST /sources) stands in `ads` as its *source entry*: ad_id = the source's adSourceId, source_level =
-- true. Clicks of that source without an ad id are credited to it and the source's custom costs are allocated to it,
-- so they reach the ad set, campaign and ad account above it. GET /ads does not list source entries.
-- Reversible: drop the column.
ALTER TABLE ads ADD COLUMN source_level boolean NOT NULL DEFAULT false;
