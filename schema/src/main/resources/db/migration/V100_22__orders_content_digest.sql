-- Issue 22 item 8 (docs/commerce.md "Orders"): the same orderId posted again is a retry when it carries the same order
-- (items, amounts, currency, priceFormat) and is then a no-op; a different order under a used orderId FAILS with a
-- reason instead of being dropped silently. content_digest: SHA-256 of the order content of the POST that created
-- the order (OrderInput.digest); NULL for orders created before it existed (any repeat of those stays a no-op).
-- Reversible: drop the column.
ALTER TABLE orders ADD COLUMN content_digest text;
