-- Leads as streamed from PostgreSQL `leads` by the CDC bridge: the table and its current-row view, as defined in tables/leads.sql and views/leads_current.sql.
@table leads
@view leads_current
