package dev.attribution.server.demo;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The demo seed's batched inserts into the command side's tables: one prepared statement per table, flushed in
 * foreign-key order (the map's order).
 */
final class Batches implements AutoCloseable {
    private static final Map<String, String> SQL = new LinkedHashMap<>();

    static {
        SQL.put("ad_accounts", "INSERT INTO ad_accounts (account_id, platform, ad_account_id, name, created_at) VALUES (?, ?, ?, ?, ?)");
        SQL.put("ad_campaigns", "INSERT INTO ad_campaigns (account_id, platform, campaign_id, ad_account_id, name, created_at) VALUES (?, ?, ?, ?, ?, ?)");
        SQL.put("ad_sets", "INSERT INTO ad_sets (account_id, platform, ad_set_id, ad_account_id, campaign_id, name, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)");
        SQL.put("ads", "INSERT INTO ads (account_id, platform, ad_id, ad_account_id, campaign_id, ad_set_id, name, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
        // the row a source with an ad platform stands as in ads (docs/attribution-models.md, "The ad hierarchy the API writes")
        SQL.put("source_entries", "INSERT INTO ads (account_id, platform, ad_id, ad_account_id, campaign_id, ad_set_id, name, created_at, "
                + "source_level) VALUES (?, ?, ?, ?, ?, ?, ?, ?, true)");
        SQL.put("source_links", "INSERT INTO source_links (account_id, id, tag, name, organic, platform, ad_source_id, ad_account_id, "
                + "campaign_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        SQL.put("ad_spend_daily", "INSERT INTO ad_spend_daily (account_id, platform, ad_id, day, ad_account_id, campaign_id, ad_set_id, "
                + "spend, impressions, clicks, video_views, reported_conversions, reported_revenue, currency, updated_at) "
                + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        SQL.put("lead_stages", "INSERT INTO lead_stages (account_id, id, name, created_at) VALUES (?, ?, ?, ?) "
                + "ON CONFLICT (account_id, lower(name)) DO NOTHING");
        SQL.put("leads", "INSERT INTO leads (account_id, id, email, first_name, last_name, ad_consent, stage_name, stage_date, "
                + "created_at, updated_at, first_opted_in_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        SQL.put("lead_stage_history", "INSERT INTO lead_stage_history (account_id, lead_id, stage_id, entered_at) VALUES (?, ?, "
                + "(SELECT id FROM lead_stages WHERE account_id = ? AND lower(name) = lower(?)), ?) "
                + "ON CONFLICT DO NOTHING");
        SQL.put("lead_ips", "INSERT INTO lead_ips (account_id, lead_id, ip) VALUES (?, ?, ?)");
        SQL.put("lead_phones", "INSERT INTO lead_phones (account_id, lead_id, phone) VALUES (?, ?, ?) ON CONFLICT DO NOTHING");
        SQL.put("lead_tags", "INSERT INTO lead_tags (account_id, lead_id, tag, assigned_at) VALUES (?, ?, ?, ?)");
        SQL.put("clicks", "INSERT INTO clicks (account_id, id, lead_id, click_date, tracked_url, previous_url, session_id, ip, "
                + "user_agent, source_link_tag, is_organic, integration_type, ad_source_id, adspend_ad_id, ad_source_click_id, "
                + "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        SQL.put("calls", "INSERT INTO calls (account_id, id, external_id, name, lead_id, qualified, state, first_call, call_date, "
                + "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        SQL.put("carts", "INSERT INTO carts (account_id, id, lead_id, currency, total, events, order_id, cart_date, created_at, "
                + "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        SQL.put("cart_items", "INSERT INTO cart_items (account_id, cart_id, position, name, price, quantity, sku, is_rebill, "
                + "product_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
        SQL.put("orders", "INSERT INTO orders (account_id, id, lead_id, cart_id, external_subscription_id, currency, order_date, "
                + "refunded_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        SQL.put("sales", "INSERT INTO sales (account_id, id, order_id, lead_id, buyer_lead_id, product_id, product_name, "
                + "product_tag, sku, category_id, category_name, position, quantity, unit_price, price, discount, taxes, shipping, "
                + "hard_cost, cost_of_goods, currency, usd_price, recurring, first_sale, last_purchase, refunded, refund_date, "
                + "refunded_amount, sale_date, created_at, updated_at) "
                + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0, 0, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        SQL.put("subscriptions", "INSERT INTO subscriptions (account_id, id, external_id, lead_id, plan_id, name, tag, periodicity, "
                + "price, status, start_date, end_date, cancel_at_date, category_id, category_name, created_at, updated_at) "
                + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    }

    private final Connection c;
    private final Map<String, PreparedStatement> statements = new LinkedHashMap<>();
    private int pending;

    Batches(Connection c) throws SQLException {
        this.c = c;
        for (Map.Entry<String, String> e : SQL.entrySet()) {
            statements.put(e.getKey(), c.prepareStatement(e.getValue()));
        }
    }

    void add(String table, Object... values) throws SQLException {
        PreparedStatement ps = statements.get(table);
        if (table.equals("lead_stage_history")) {
            // the stage by name: the account may have held the stage before the seed
            values = new Object[]{values[0], values[1], values[0], values[2], values[3]};
        }
        for (int i = 0; i < values.length; i++) {
            ps.setObject(i + 1, values[i]);
        }
        ps.addBatch();
        pending++;
    }

    int pending() {
        return pending;
    }

    void flush() throws SQLException {
        for (PreparedStatement ps : statements.values()) {
            ps.executeBatch();
        }
        pending = 0;
    }

    @Override
    public void close() throws SQLException {
        for (PreparedStatement ps : statements.values()) {
            ps.close();
        }
    }
}
