-- GET /leads?stage=…: one ordered index range per stage (LeadReader merges them), so a page costs the same whether
-- a stage is held by half the account or by nobody. Replaces leads_stage (V31), which left the order to a sort
-- and let the planner walk the join-date index for rare stages. Reversible: drop it and recreate leads_stage.
DROP INDEX IF EXISTS leads_stage;
CREATE INDEX leads_stage_created ON leads (account_id, lower(stage_name), created_at, id) WHERE stage_name IS NOT NULL;
