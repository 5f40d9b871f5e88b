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
