-- Sales as streamed from PostgreSQL `sales` by the CDC bridge: one row per change, the highest _version is the
-- current state. Money is Decimal(18,2) exactly as PostgreSQL holds it. A soft-deleted sale (deleted = 1) and a
-- deleted row (is_deleted = 1) both leave sales_current.
-- Partitioned by the month of the sale date: reports bound the sale date, and a sale's date never changes
-- (PUT /orders/{id} recreates sales under new ids). Refunds update the row in place, in the sale's partition.
-- Sort key (account_id, lead_id, id): reports filter one account and group by lead (first/last purchase, LTV).
CREATE TABLE IF NOT EXISTS {db}.sales (
    account_id       String,
    id               String,
    order_id         String,
    lead_id          String,
    buyer_lead_id    String,
    product_id       String,
    product_name     String,
    product_tag      String,
    category_name    String,
    quantity         Int32,
    price            Decimal(18, 2),
    discount         Decimal(18, 2),
    taxes            Decimal(18, 2),
    shipping         Decimal(18, 2),
    hard_cost        Decimal(18, 2),
    cost_of_goods    Decimal(18, 2),
    currency         String,
    usd_price        Nullable(Decimal(18, 2)),
    recurring        UInt8,
    first_sale       UInt8,
    last_purchase    UInt8,
    refunded         UInt8,
    refund_date      Nullable(DateTime('UTC')),
    refunded_amount  Decimal(18, 2),
    sale_date        DateTime('UTC'),
    updated_at       DateTime('UTC'),
    deleted          UInt8,
    _version         UInt64,
    is_deleted       UInt8
) ENGINE = {{ReplacingMergeTree(_version)}}
PARTITION BY toYYYYMM(sale_date)
ORDER BY (account_id, lead_id, id);

-- The current, live sales (argMax dedup over every partition; never alias an aggregate with its column's name).
CREATE VIEW IF NOT EXISTS {db}.sales_current AS
SELECT
    account_id,
    lead_id,
    id,
    argMax(order_id, _version)        AS sale_order_id,
    argMax(buyer_lead_id, _version)   AS sale_buyer_lead_id,
    argMax(product_id, _version)      AS sale_product_id,
    argMax(product_name, _version)    AS sale_product_name,
    argMax(product_tag, _version)     AS sale_product_tag,
    argMax(category_name, _version)   AS sale_category_name,
    argMax(quantity, _version)        AS sale_quantity,
    argMax(price, _version)           AS sale_price,
    argMax(discount, _version)        AS sale_discount,
    argMax(taxes, _version)           AS sale_taxes,
    argMax(shipping, _version)        AS sale_shipping,
    argMax(hard_cost, _version)       AS sale_hard_cost,
    argMax(cost_of_goods, _version)   AS sale_cost_of_goods,
    argMax(currency, _version)        AS sale_currency,
    argMax(usd_price, _version)       AS sale_usd_price,
    argMax(recurring, _version)       AS is_recurring,
    argMax(first_sale, _version)      AS is_first_sale,
    argMax(last_purchase, _version)   AS is_last_purchase,
    argMax(refunded, _version)        AS is_refunded,
    argMax(refund_date, _version)     AS sale_refund_date,
    argMax(refunded_amount, _version) AS sale_refunded_amount,
    argMax(sale_date, _version)       AS sale_at,
    max(_version) AS last_version
FROM {db}.sales
GROUP BY account_id, lead_id, id
HAVING argMax(is_deleted, _version) = 0 AND argMax(deleted, _version) = 0;
