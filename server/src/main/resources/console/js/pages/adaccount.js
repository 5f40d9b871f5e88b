// An ad account over time (GET /attribution/ad-account): the whole range, or day/week/month/year buckets as a chart.
import { get } from '../api.js';
import { MODELS } from '../catalog.js';
import { csvLink, defaultRange, empty, field, h, input, resultRegion, run, select, sortableTable } from '../ui.js';
import { adAccountPicker, metricPicker } from '../widgets.js';

export const title = 'Ad account';

const DEFAULT = ['name', 'cost', 'clicks', 'leads', 'sales', 'total_revenue', 'roas'];

export function render(root) {
  const range = defaultRange(60);
  const metrics = metricPicker(DEFAULT);
  const form = h('form', { class: 'report-form', id: 'adaccount-form' },
    field('Ad account', adAccountPicker('adAccount')),
    field('Model', select('model', MODELS, 'last_click')),
    field('From', input('from', { type: 'date', value: range.from }), 'account time zone'),
    field('To', input('to', { type: 'date', value: range.to })),
    field('Buckets', select('grouping', ['ad_account', 'day', 'week', 'month', 'year'], 'week')),
    field('Chart', select('chartMetric', DEFAULT.filter((m) => m !== 'name'), 'total_revenue')),
    metrics.el,
    h('button', { type: 'submit' }, 'Show ad account'));
  const region = resultRegion('adaccount-result');
  metrics.el.addEventListener('change', () => {
    const keep = form.chartMetric.value;
    const names = metrics.values().filter((m) => m !== 'name' && m !== 'parent_name');
    form.chartMetric.replaceChildren(...names.map((m) => h('option', { value: m, selected: m === keep }, m)));
  });
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    run(region, form, () => load(form, metrics.values(), region));
  });
  root.replaceChildren(h('h2', {}, 'Ad account over time'),
    h('p', { class: 'lead' }, 'One ad account\'s attributed results, as one row for the range or as date buckets.'),
    form, region);
}

async function load(form, fields, region) {
  if (!form.adAccount.value) throw new Error('Pick an ad account (this account has none yet?).');
  const body = await get('/attribution/ad-account', {
    attributionModel: form.model.value,
    startDate: `${form.from.value}T00:00:00`,
    endDate: `${form.to.value}T23:59:59`,
    fields: (fields.length ? fields : ['name']).join(','),
    ids: form.adAccount.value,
    adLevelDateGroupingOption: form.grouping.value,
  });
  const rows = body.result || [];
  if (rows.length === 0) {
    region.replaceChildren(empty('No rows for this ad account in this range.'));
    return 'empty';
  }
  const ids = ['id', 'name', 'start_date', 'end_date'];
  const present = new Set(rows.flatMap((r) => Object.keys(r)));
  const keys = [...ids.filter((k) => present.has(k)), ...fields.filter((f) => !ids.includes(f) && present.has(f)),
    ...[...present].filter((k) => !ids.includes(k) && !fields.includes(k))];
  const { table, csv } = sortableTable(keys.map((key) => ({ key })), rows, { id: 'adaccount-table' });
  const chartEl = h('div', { id: 'adaccount-chart', class: 'chart' });
  region.replaceChildren(chartEl,
    h('div', { class: 'toolbar' }, h('span', { class: 'count' }, `${rows.length} row${rows.length === 1 ? '' : 's'}`),
      csvLink(`ad-account-${form.adAccount.value}.csv`, csv, table)),
    h('div', { class: 'scroll' }, table));
  const metric = form.chartMetric.value || keys.find((k) => typeof rows[0][k] === 'number');
  const chart = window.echarts.init(chartEl, null, { renderer: 'svg' });
  chart.setOption({
    animation: false,
    tooltip: { trigger: 'axis' },
    legend: { data: [metric] },
    grid: { left: 70, right: 30, top: 40, bottom: 50 },
    xAxis: { type: 'category', data: rows.map((r) => r.id || r.name) },
    yAxis: { type: 'value', name: metric },
    series: [{ name: metric, type: form.grouping.value === 'day' ? 'line' : 'bar', data: rows.map((r) => r[metric] ?? null) }],
  });
  return 'done';
}
