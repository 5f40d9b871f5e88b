// What the report endpoints accept (spec 4.5): models, levels by platform group, metric names grouped as 4.5.1.
export const MODELS = ['last_click', 'first_click', 'scientific'];

export const LEVELS = [
  { group: 'Search (v1)', options: ['google_campaign', 'google_adgroup', 'google_ad', 'google_keyword'] },
  { group: 'Search (v2)', options: ['google_v2_campaign', 'google_v2_adgroup', 'google_v2_ad', 'google_v2_keyword'] },
  { group: 'Social 1', options: ['facebook_campaign', 'facebook_adset', 'facebook_ad'] },
  { group: 'Social 2', options: ['tiktok_adgroup', 'tiktok_ad', 'snapchat_adsquad', 'snapchat_ad'] },
  { group: 'Social 3', options: ['pinterest_adgroup', 'pinterest_ad', 'twitter_adgroup', 'twitter_ad'] },
  { group: 'Other', options: ['bing_adgroup', 'bing_ad', 'linkedin_campaign', 'linkedin_ad'] },
];

export const METRIC_GROUPS = [
  ['Sales', 'sales unique_sales one_time_sales cost_per_sale cost_per_unique_sale cost_per_unique_sales refund_count refund_sales_percentage refunded_sales_percentage'],
  ['Revenue', 'revenue total_revenue recurring_revenue refund refund_revenue_percentage refunded_revenue_percentage aov taxes cost_of_goods shipping_value hard_costs gross_margins'],
  ['Profit and return', 'cost profit net_profit net_profit_percentage contribution_profit contribution_margin roi roas cac new_customers_roas'],
  ['Calls', 'calls unique_calls qualified_calls unqualified_calls canceled_calls no_show_calls cost_per_call cost_per_qualified_call cost_per_unique_call time_of_sale_attribution time_of_call_attribution'],
  ['Leads', 'leads new_leads leads_optins cost_per_lead cost_per_new_lead'],
  ['Customers', 'customers total_customers unique_customers unique_customers_revenue cost_per_unique_customer new_customers_percentage new_customers_aov new_customers_orders recurring_customers recurring_customers_percentage returning_customers returning_customers_rate returning_customers_revenue returning_customers_revenue_rate'],
  ['Traffic and ad platform', 'clicks new_visits cost_per_new_visit cost_per_click impressions ctr cpm cvr partial_video_views reported reported_result shop_reported_result reported_vs_revenue'],
  ['Lifetime value', '30_days_ltv 60_days_ltv 90_days_ltv 6_months_ltv 1_year_ltv 30_days_ltv_forecast 60_days_ltv_forecast 90_days_ltv_forecast 6_months_ltv_forecast 1_year_ltv_forecast churn_rate'],
  ['Subscriptions', 'new_subscriptions canceled_subscriptions direct_subscriptions new_mrr mrr arr new_trials converted_trials canceled_trials cost_per_new_subscriptions cost_per_new_trials subscription_30_days_forecast subscription_60_days_forecast subscription_90_days_forecast subscription_6_months_forecast subscription_1_year_forecast'],
  ['Carts', 'carts atc_events purchased_carts atc_cvr atc_rate cost_per_atc'],
  ['Labels', 'name parent_name'],
].map(([group, names]) => ({ group, names: names.split(' ') }));

export const DEFAULT_METRICS = ['name', 'clicks', 'leads', 'sales', 'revenue', 'total_revenue', 'cost', 'roas', 'cac'];

/** Identifier columns of report rows, shown first. */
export const ID_COLUMNS = ['id', 'name', 'parent_name', 'start_date', 'end_date'];
