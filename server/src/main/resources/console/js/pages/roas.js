// The ROAS card of one entity (GET /attribution/roas), on the click-date or the sale-date basis.
import { get } from '../api.js';
import { defaultRange, empty, field, h, input, raw, resultRegion, run, select, show } from '../ui.js';
import { entityPicker } from './entity.js';

export const title = 'ROAS';

const HEADLINE = ['roas', 'new_customers_roas', 'total_revenue', 'cost'];

export function render(root) {
  const range = defaultRange();
  const form = h('form', { class: 'report-form', id: 'roas-form' },
    ...entityPicker(),
    field('From', input('from', { type: 'date', value: range.from }), 'account time zone'),
    field('To', input('to', { type: 'date', value: range.to })),
    field('Basis', select('basis', [{ value: 'click_date', label: 'click date (credits clicks made in the range)' },
      { value: 'sale_date', label: 'sale date (revenue collected in the range)' }], 'click_date')),
    h('button', { type: 'submit' }, 'Show ROAS'));
  const region = resultRegion('roas-result');
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    run(region, form, () => load(form, region));
  });
  root.replaceChildren(h('h2', {}, 'ROAS'),
    h('p', { class: 'lead' }, 'Revenue over spend for one ad, ad set, campaign or ad account, last click (break-even is 1.0).'),
    form, region);
}

async function load(form, region) {
  const body = await get('/attribution/roas', {
    id: form.entityId.value.trim(),
    level: form.level.value,
    startDate: `${form.from.value}T00:00:00`,
    endDate: `${form.to.value}T23:59:59`,
    basis: form.basis.value,
  });
  const r = body.result;
  if (!r) {
    region.replaceChildren(empty('No data: this entity has no row in this range.'));
    return 'empty';
  }
  const card = h('article', { class: 'card', id: 'roas-card' },
    h('header', {}, h('h3', {}, r.name || r.id || form.entityId.value), h('small', {}, `${form.basis.value.replace('_', ' ')} basis`)),
    h('div', { class: 'headline' }, HEADLINE.filter((k) => k in r).map((k) => h('div', { class: 'big', 'data-key': k, 'data-value': raw(r[k]) },
      h('span', { class: 'value' }, show(r[k])), h('span', { class: 'label' }, k)))),
    h('dl', { class: 'metrics' }, Object.keys(r).filter((k) => !HEADLINE.includes(k)).map((k) => h('div', { 'data-key': k, 'data-value': raw(r[k]) },
      h('dt', {}, k), h('dd', {}, show(r[k]))))));
  region.replaceChildren(card);
  return 'done';
}

