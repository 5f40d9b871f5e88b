-- Sources (tracked links, spec 2.13): the table and its current-row view, as defined in tables/source_links.sql and views/source_links_current.sql.
@table source_links
@view source_links_current
