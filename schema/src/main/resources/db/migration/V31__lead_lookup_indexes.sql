-- Indexes for the filters of GET /leads and the lead lookups of writes. Reversible: drop the indexes.
-- Email prefixes (spec 4.1 emails): LIKE 'prefix%' on lower(email) needs pattern ops outside the C collation.
CREATE INDEX leads_email_prefix ON leads (account_id, lower(email) text_pattern_ops);
-- Phones match on their last digits: the reversed digits turn a suffix match into an indexable prefix match.
CREATE INDEX lead_phones_reversed_digits ON lead_phones (account_id, reverse(regexp_replace(phone, '[^0-9]', '', 'g')) text_pattern_ops);
-- Current-stage filter (case-insensitive).
CREATE INDEX leads_stage ON leads (account_id, lower(stage_name)) WHERE stage_name IS NOT NULL;
CREATE INDEX lead_ips_ip ON lead_ips (account_id, ip);
