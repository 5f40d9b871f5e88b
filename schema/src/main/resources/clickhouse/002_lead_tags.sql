-- Tags held by leads, with the assignment date (spec 2.5, tagsDate): the table and its current-row view, as defined in tables/lead_tags.sql and views/lead_tags_current.sql.
@table lead_tags
@view lead_tags_current
