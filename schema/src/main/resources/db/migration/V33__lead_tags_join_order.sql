-- GET /leads?tags=…: a page of the leads holding any of the tags, in join order, read straight from an index.
-- lead_tags carries its lead's join date (a lead's created_at never changes), filled on insert by a trigger so no
-- writer has to know; (account, tag, join date, lead) then gives each tag's holders already in page order, and
-- LeadReader merges one range per tag. Streamed to ClickHouse? No: the ClickHouse lead_tags has no such column
-- and the bridge copies only the columns ClickHouse has.
-- Reversible: drop the index, the trigger, the function and the column.
ALTER TABLE lead_tags ADD COLUMN lead_created_at timestamptz;

UPDATE lead_tags t SET lead_created_at = l.created_at
FROM leads l WHERE l.account_id = t.account_id AND l.id = t.lead_id;

CREATE FUNCTION lead_tags_fill_lead_created_at() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.lead_created_at IS NULL THEN
        SELECT created_at INTO NEW.lead_created_at FROM leads WHERE account_id = NEW.account_id AND id = NEW.lead_id;
    END IF;
    RETURN NEW;
END
$$;

CREATE TRIGGER lead_tags_fill_lead_created_at BEFORE INSERT ON lead_tags
    FOR EACH ROW EXECUTE FUNCTION lead_tags_fill_lead_created_at();

CREATE INDEX lead_tags_join_order ON lead_tags (account_id, tag, lead_created_at, lead_id);
