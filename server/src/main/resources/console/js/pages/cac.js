// The marginal-CAC curve (GET /attribution/marginal-cac-curve): average and marginal CAC per daily-spend bucket,
// with the ceiling and the saturation point marked and the answer's notes shown.
import { get } from '../api.js';
import { defaultRange, empty, field, h, input, resultRegion, run, select, show, sortableTable } from '../ui.js';
import { entityPicker } from './entity.js';

export const title = 'Marginal CAC';

const NOTES = {
  NO_SPEND_DATA: 'No spend was recorded for this entity in the range.',
  NO_CUSTOMERS: 'No new customers were credited in the range.',
  INSUFFICIENT_DATA: 'Too few days of data for a full curve: the curve is partial.',
  LTV_CEILING_UNAVAILABLE: 'No lifetime value to derive a break-even ceiling from: pass a CAC ceiling.',
};

export function render(root) {
  const range = defaultRange(90);
  const form = h('form', { class: 'report-form', id: 'cac-form' },
    ...entityPicker(),
    field('From', input('from', { type: 'date', value: range.from }), 'account time zone'),
    field('To', input('to', { type: 'date', value: range.to })),
    field('Model', select('model', [{ value: 'first_click', label: 'first_click (cost of acquisition)' },
      { value: 'last_click', label: 'last_click (cost of closing)' }], 'first_click')),
    field('LTV window', select('ltvWindow', ['', '30_days', '60_days', '90_days', '6_months', '1_year'], ''), 'break-even ceiling (default 90_days)'),
    field('CAC ceiling', input('cacCeiling', { type: 'number', min: 0, step: 'any', placeholder: 'from LTV' })),
    h('button', { type: 'submit' }, 'Draw curve'));
  const region = resultRegion('cac-result');
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    run(region, form, () => load(form, region));
  });
  root.replaceChildren(h('h2', {}, 'Marginal CAC curve'),
    h('p', { class: 'lead' }, 'What the next customer costs at each level of daily spend, and where more spend stops paying.'),
    form, region);
}

async function load(form, region) {
  const body = await get('/attribution/marginal-cac-curve', {
    id: form.entityId.value.trim(),
    level: form.level.value,
    startDate: form.from.value ? `${form.from.value}T00:00:00` : '',
    endDate: form.to.value ? `${form.to.value}T23:59:59` : '',
    attributionModel: form.model.value,
    ltvWindow: form.ltvWindow.value,
    cacCeiling: form.cacCeiling.value,
  });
  const r = body.result;
  const notes = h('ul', { class: 'notes', id: 'cac-notes' },
    (r.notes || []).map((n) => h('li', { 'data-note': n }, h('code', {}, n), ' ', NOTES[n] || '')));
  const sat = r.saturationPoint;
  const summary = h('dl', { class: 'summary', id: 'cac-summary' },
    term('Entity', r.name ? `${r.name} (${r.id})` : r.id, 'id', r.id),
    term('Range', `${r.startDate} – ${r.endDate}`, 'range', `${r.startDate}/${r.endDate}`),
    term('Days sampled', show(r.daysSampled), 'daysSampled', r.daysSampled),
    term('CAC ceiling', r.cacCeiling === null || r.cacCeiling === undefined ? 'none'
      : `${show(r.cacCeiling)} (${r.ceilingBasis}${r.ltvWindow ? `, ${r.ltvWindow}` : ''})`, 'cacCeiling', r.cacCeiling),
    term('Saturation', sat ? `efficient up to ${show(sat.efficientSpendPerDay)}/day, wasteful from ${show(sat.saturatedSpendPerDay)}/day (${sat.reason})`
      : 'not reached', 'saturatedSpendPerDay', sat ? sat.saturatedSpendPerDay : null));
  const curve = r.curve || [];
  if (curve.length === 0) {
    region.replaceChildren(summary, notes, empty('No curve: no day of this range has both spend and data.'));
    return 'empty';
  }
  const chartEl = h('div', { id: 'cac-chart', class: 'chart' });
  const { table } = sortableTable(['spendPerDay', 'days', 'newCustomers', 'avgCac', 'marginalCac'].map((key) => ({ key })), curve,
    { id: 'cac-table' });
  region.replaceChildren(summary, notes, chartEl, h('details', {}, h('summary', {}, 'Buckets'), table));
  draw(chartEl, r);
  return 'done';
}

function term(label, text, key, value) {
  return h('div', { 'data-key': key, 'data-value': value === null || value === undefined ? '' : String(value) },
    h('dt', {}, label), h('dd', {}, text));
}

function draw(el, r) {
  const chart = window.echarts.init(el, null, { renderer: 'svg' });
  const points = (name) => r.curve.map((b) => [b.spendPerDay, b[name]]);
  const sat = r.saturationPoint;
  const marks = [];
  if (r.cacCeiling !== null && r.cacCeiling !== undefined) {
    marks.push({ name: 'CAC ceiling', yAxis: r.cacCeiling, label: { formatter: `ceiling ${show(r.cacCeiling)}` } });
  }
  if (sat) {
    marks.push({ name: 'Saturation', xAxis: sat.saturatedSpendPerDay, lineStyle: { color: '#c0392b', type: 'solid', width: 2 },
      label: { formatter: `saturation ${show(sat.saturatedSpendPerDay)}/day` } });
  }
  chart.setOption({
    animation: false,
    tooltip: { trigger: 'axis' },
    legend: { data: ['Average CAC', 'Marginal CAC'] },
    grid: { left: 70, right: 120, top: 50, bottom: 50 },
    xAxis: { type: 'value', name: 'spend per day', nameLocation: 'middle', nameGap: 28, scale: true },
    yAxis: { type: 'value', name: 'CAC' },
    series: [
      { name: 'Average CAC', type: 'line', data: points('avgCac'), showSymbol: true, symbolSize: 8,
        markLine: { symbol: 'none', data: marks } },
      { name: 'Marginal CAC', type: 'line', data: points('marginalCac'), showSymbol: true, symbolSize: 8,
        markPoint: sat ? { data: [{ name: 'Saturation', coord: [sat.saturatedSpendPerDay, marginalAt(r, sat.saturatedSpendPerDay) ?? 0],
          value: 'saturated', itemStyle: { color: '#c0392b' } }] } : undefined },
    ],
  });
}

function marginalAt(r, spend) {
  const b = r.curve.find((x) => x.spendPerDay === spend);
  return b ? (b.marginalCac ?? b.avgCac) : null;
}
