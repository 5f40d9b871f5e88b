-- Ad sets / ad groups / ad squads (spec 2.17): the table and its current-row view, as defined in tables/ad_sets.sql and views/ad_sets_current.sql.
@table ad_sets
@view ad_sets_current
