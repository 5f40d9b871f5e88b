-- Ad accounts (spec 2.6): the table and its current-row view, as defined in tables/ad_accounts.sql and views/ad_accounts_current.sql.
@table ad_accounts
@view ad_accounts_current
