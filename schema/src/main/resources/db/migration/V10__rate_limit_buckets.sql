-- Shared token buckets of the rate limits (spec 8.1), used when attribution.rate-limits.store=postgres so that
-- several server nodes charge one budget per account. Bucket4j owns the row format (state is its serialized
-- bucket). UNLOGGED: after a crash the buckets start full again, which a rate limit can afford.
-- Reversible: drop the table (buckets refill).
CREATE UNLOGGED TABLE rate_limit_buckets (
    id         text PRIMARY KEY,  -- account | METHOD /path template | per-second/per-minute policy
    state      bytea,
    expires_at bigint             -- epoch milliseconds after which the bucket is full again and may be dropped
);
