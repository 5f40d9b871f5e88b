-- Phone numbers of leads: the table and its current-row view, as defined in tables/lead_phones.sql and views/lead_phones_current.sql.
@table lead_phones
@view lead_phones_current
