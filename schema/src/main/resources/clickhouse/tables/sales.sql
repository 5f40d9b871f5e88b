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
