-- Issue 23 point 1: write_requests.lane is now the write's ordering key (a 32-bit hash of account and lead key, never
-- 0..15: those are the 16 lanes of rows accepted before this version, applied first), no longer one of 16 lanes. A
-- worker takes the oldest pending writes, oldest first, of the keys no other transaction holds: this index finds them
-- (the index (lane, seq) still reads a key's pending writes in order). Reversible: drop the index.
CREATE INDEX write_requests_pending_seq ON write_requests (seq) WHERE status = 'PENDING';
