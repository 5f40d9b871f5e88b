-- The contact blacklist keeps no contact in clear (issue 29, erasure): each value becomes the hex SHA-256 of
-- account_id:KIND:value, as Blacklist.hash computes it for every later check and insert. Not reversible (that is
-- the point): a blacklisted contact stays refused, its text is gone.
UPDATE contact_blacklist SET value = encode(sha256(convert_to(account_id || ':' || kind || ':' || value, 'UTF8')), 'hex');
