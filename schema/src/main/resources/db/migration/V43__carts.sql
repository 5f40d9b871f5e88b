-- Carts (spec 2.10, 4.12). A cart becomes purchased when an order names its cartId (order_id set).
-- Reversible: drop both tables.
CREATE TABLE carts (
    account_id   text           NOT NULL REFERENCES accounts (id),
    id           text           NOT NULL,             -- cartId as sent (or generated)
    lead_id      text,                                -- absent when the cart carried no email and no phone
    currency     char(3)        NOT NULL,
    total        numeric(18, 2) NOT NULL,
    events       integer        NOT NULL DEFAULT 1,   -- writes received for this cart
    order_id     text,
    cart_date    timestamptz    NOT NULL,
    created_at   timestamptz    NOT NULL,
    updated_at   timestamptz    NOT NULL,
    PRIMARY KEY (account_id, id)
);
CREATE INDEX carts_date ON carts (account_id, cart_date, id);

CREATE TABLE cart_items (
    account_id   text           NOT NULL,
    cart_id      text           NOT NULL,
    position     integer        NOT NULL,
    name         text           NOT NULL,
    price        numeric(18, 2) NOT NULL,
    quantity     integer        NOT NULL,
    external_id  text,
    sku          text,
    is_rebill    boolean        NOT NULL DEFAULT false,
    product_id   text,
    PRIMARY KEY (account_id, cart_id, position),
    FOREIGN KEY (account_id, cart_id) REFERENCES carts (account_id, id) ON DELETE CASCADE
);
