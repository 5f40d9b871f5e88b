-- Exchange rates to USD, loaded by the admin CLI (`admin exchange-rate set`). A sale's usd_price uses the rate of its
-- currency with the latest valid_from on or before the sale date. Reversible: drop the table (usd_price stays as
-- computed).
CREATE TABLE exchange_rates (
    currency    char(3)        NOT NULL,
    valid_from  date           NOT NULL,
    usd_rate    numeric(24, 10) NOT NULL CHECK (usd_rate > 0),   -- USD for one unit of the currency
    loaded_at   timestamptz    NOT NULL DEFAULT now(),
    PRIMARY KEY (currency, valid_from)
);
