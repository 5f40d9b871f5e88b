-- Erased leads (DELETE /leads) stay in PostgreSQL redacted with erased = true; they must leave every report.
-- Adds the column the CDC sink fills (tables/leads.sql) and redefines leads_current to drop them (views/leads_current.sql).
@column leads.erased
@view leads_current
