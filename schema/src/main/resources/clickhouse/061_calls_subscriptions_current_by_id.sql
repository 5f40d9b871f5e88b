-- calls_current and subscriptions_current, deduplicated by (account_id, id) instead of (account_id, lead_id, id).
-- PUT /calls and POST/PUT /subscriptions can move a row to another lead; its versions then sit under two lead
-- ids, and grouping by lead kept the old lead's last version alive: the call or subscription was counted under
-- both leads. Grouped by id, the highest _version wins wherever it is, and lead_id is that version's lead.
-- (sales never change lead, so sales_current keeps its grouping.)
@view calls_current
@view subscriptions_current
