-- Products and sale categories (spec 2.12, 4.6). A product's tag ($-prefixed) is unique among the account's live
-- products; deletes are soft so historical sales keep their product. Reversible: drop both tables.
CREATE TABLE sale_categories (
    account_id  text        NOT NULL REFERENCES accounts (id),
    id          text        NOT NULL,
    name        text        NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (account_id, id)
);
CREATE UNIQUE INDEX sale_categories_name ON sale_categories (account_id, lower(name));

CREATE TABLE products (
    account_id    text           NOT NULL REFERENCES accounts (id),
    id            text           NOT NULL,            -- the product's tracking pixel id (prd_…)
    name          text           NOT NULL,
    tag           text           NOT NULL,            -- $-prefixed, derived from the name at creation
    sku           text,
    price         numeric(18, 2) NOT NULL,
    custom_cost   numeric(18, 2),                     -- cost of goods per unit
    recurring     boolean        NOT NULL DEFAULT false,
    call_product  boolean        NOT NULL DEFAULT false CHECK (NOT (recurring AND call_product)),
    category_id   text,
    packages      text[]         NOT NULL DEFAULT '{}',
    created_at    timestamptz    NOT NULL,
    updated_at    timestamptz    NOT NULL,
    deleted       boolean        NOT NULL DEFAULT false,
    PRIMARY KEY (account_id, id)
);
CREATE UNIQUE INDEX products_tag ON products (account_id, lower(tag)) WHERE NOT deleted;
CREATE INDEX products_name ON products (account_id, name);
