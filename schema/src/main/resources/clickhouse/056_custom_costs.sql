-- Custom costs (spec 2.14): the table and its current-row view, as defined in tables/custom_costs.sql and views/custom_costs_current.sql.
@table custom_costs
@view custom_costs_current
