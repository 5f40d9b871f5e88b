-- Orders and their sales (spec 2.7, 4.2): an order is stored as one sale per item. Money is numeric at the
-- currency's minor unit (at most 2 decimals, docs/money.md), never floating point. Sales are soft-deleted
-- (PUT /orders/{id} recreates them, DELETE /sales/{id} removes one) so the CDC stream carries the deletion as an
-- update. REPLICA IDENTITY FULL on sales: streamed to ClickHouse. Reversible: drop the tables.
CREATE TABLE orders (
    account_id        text           NOT NULL REFERENCES accounts (id),
    id                text           NOT NULL,        -- orderId as sent (or generated)
    lead_id           text           NOT NULL,        -- the buyer
    integration_type  text           NOT NULL DEFAULT 'API',
    cart_id           text,
    external_subscription_id text,
    currency          char(3)        NOT NULL,
    order_date        timestamptz    NOT NULL,
    shipping_cost     numeric(18, 2) NOT NULL DEFAULT 0,
    taxes             numeric(18, 2) NOT NULL DEFAULT 0,
    order_discount    numeric(18, 2) NOT NULL DEFAULT 0,
    hard_cost         numeric(18, 2) NOT NULL DEFAULT 0,
    refunded_at       timestamptz,
    created_at        timestamptz    NOT NULL,
    updated_at        timestamptz    NOT NULL,
    PRIMARY KEY (account_id, id)
);

CREATE TABLE sales (
    account_id       text           NOT NULL REFERENCES accounts (id),
    id               text           NOT NULL,         -- sle_…
    order_id         text           NOT NULL,
    lead_id          text           NOT NULL,         -- the lead the sale is attributed to (origin lead with parentEmail)
    buyer_lead_id    text           NOT NULL,         -- the lead that bought
    product_id       text,
    product_name     text           NOT NULL,
    product_tag      text,
    sku              text,
    external_id      text,
    category_id      text,
    category_name    text,
    packages         text[]         NOT NULL DEFAULT '{}',
    position         integer        NOT NULL,         -- item index in the order
    quantity         integer        NOT NULL,
    unit_price       numeric(18, 2) NOT NULL,
    price            numeric(18, 2) NOT NULL,         -- revenue: quantity × unit price + taxes + shipping − discount
    discount         numeric(18, 2) NOT NULL,         -- item discount + share of the order discount
    taxes            numeric(18, 2) NOT NULL,         -- per-unit item taxes × quantity + share of the order taxes
    shipping         numeric(18, 2) NOT NULL,         -- share of the order shipping cost
    hard_cost        numeric(18, 2) NOT NULL,         -- share of the order hard cost
    cost_of_goods    numeric(18, 2) NOT NULL,         -- per-unit cost of goods × quantity (included in price)
    currency         char(3)        NOT NULL,
    usd_price        numeric(18, 2),                  -- revenue in USD at the rate of the sale date; NULL when no rate is loaded
    recurring        boolean        NOT NULL,
    first_sale       boolean        NOT NULL DEFAULT false,  -- part of the lead's first purchase
    last_purchase    boolean        NOT NULL DEFAULT false,  -- part of the lead's latest purchase
    refunded         boolean        NOT NULL DEFAULT false,
    refund_date      timestamptz,
    refunded_amount  numeric(18, 2) NOT NULL DEFAULT 0,
    sale_date        timestamptz    NOT NULL,
    created_at       timestamptz    NOT NULL,
    updated_at       timestamptz    NOT NULL,
    deleted          boolean        NOT NULL DEFAULT false,
    PRIMARY KEY (account_id, id)
);
CREATE INDEX sales_order ON sales (account_id, order_id) WHERE NOT deleted;
CREATE INDEX sales_lead ON sales (account_id, lead_id, sale_date) WHERE NOT deleted;
CREATE INDEX sales_date ON sales (account_id, sale_date, id) WHERE NOT deleted;
ALTER TABLE sales REPLICA IDENTITY FULL;
