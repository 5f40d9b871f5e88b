// Attribution report explorer: GET /attribution for one model, or the three models side by side for the same rows.
import { get } from '../api.js';
import { DEFAULT_METRICS, ID_COLUMNS, LEVELS, MODELS } from '../catalog.js';
import { csvLink, defaultRange, empty, field, h, input, notice, resultRegion, run, select, sortableTable } from '../ui.js';
import { adAccountPicker, metricPicker } from '../widgets.js';

export const title = 'Attribution';

export function render(root) {
  const range = defaultRange();
  const metrics = metricPicker(DEFAULT_METRICS);
  const form = h('form', { class: 'report-form', id: 'attribution-form' },
    field('Model', select('model', MODELS, 'last_click')),
    field('Compare', h('label', { class: 'check' }, input('compare', { type: 'checkbox' }), 'the three models side by side')),
    field('Level', select('level', LEVELS, 'facebook_ad')),
    field('Rows', select('scope', [{ value: 'ids', label: 'these ids' }, { value: 'account', label: 'a whole ad account' }], 'ids')),
    field('Ids', input('ids', { placeholder: 'comma-separated ids at the level (max 50)', size: 40 })),
    field('Ad account', adAccountPicker()),
    field('From', input('from', { type: 'date', value: range.from }), 'account time zone'),
    field('To', input('to', { type: 'date', value: range.to })),
    field('Time grouping', select('grouping', ['source_link', 'day', 'week', 'month', 'year'], 'source_link')),
    metrics.el,
    h('button', { type: 'submit' }, 'Run report'));
  const region = resultRegion('attribution-result');
  const scopeChanged = () => {
    const whole = form.scope.value === 'account';
    form.ids.closest('label').hidden = whole;
    form.adAccount.closest('label').hidden = !whole;
  };
  form.scope.addEventListener('change', scopeChanged);
  scopeChanged();
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    run(region, form, () => load(form, metrics.values(), region));
  });
  root.replaceChildren(h('h2', {}, 'Attribution report'),
    h('p', { class: 'lead' }, 'Credit for clicks, leads, sales and revenue by ad, per attribution model (GET /api/v1.0/attribution).'),
    form, region);
}

/** The query of one model; the same for every model of a comparison but `attributionModel`. */
export function query(form, fields, model) {
  const whole = form.scope.value === 'account';
  return {
    attributionModel: model,
    level: form.level.value,
    startDate: `${form.from.value}T00:00:00`,
    endDate: `${form.to.value}T23:59:59`,
    fields: fields.join(','),
    ids: whole ? form.adAccount.value : form.ids.value.split(/[\s,]+/).filter(Boolean).join(','),
    isAdAccountId: whole ? 'true' : '',
    timeGroupingOption: form.grouping.value,
    pageSize: whole ? 250 : '',
  };
}

async function fetchRows(params) {
  let rows = [];
  let messages = [];
  let pageId = null;
  for (let i = 0; i < 20; i += 1) {
    const body = await get('/attribution', pageId ? { ...params, pageId } : params);
    rows = rows.concat(body.result || []);
    messages = messages.concat(body.message || []);
    pageId = body.nextPageId;
    if (!pageId) break;
  }
  return { result: rows, message: messages };
}

async function load(form, fields, region) {
  if (fields.length === 0) fields = ['name'];
  const compare = form.compare.checked;
  const models = compare ? MODELS : [form.model.value];
  const answers = await Promise.all(models.map((m) => fetchRows(query(form, fields, m))));
  const keyOf = (row) => `${row.id}|${row.start_date || ''}`;
  const merged = new Map();
  answers.forEach((answer, i) => answer.result.forEach((row) => {
    const k = keyOf(row);
    const target = merged.get(k) || {};
    for (const [name, value] of Object.entries(row)) {
      if (ID_COLUMNS.includes(name)) target[name] = value;
      else target[compare ? `${name}@${models[i]}` : name] = value;
    }
    merged.set(k, target);
  }));
  const rows = [...merged.values()];
  const present = new Set(rows.flatMap((r) => Object.keys(r)));
  const idColumns = ID_COLUMNS.filter((c) => present.has(c));
  const metricColumns = fields.filter((f) => !ID_COLUMNS.includes(f))
    .flatMap((f) => (compare ? models.map((m) => `${f}@${m}`) : [f]));
  const rest = [...present].filter((k) => !idColumns.includes(k) && !metricColumns.includes(k));
  const columns = [...idColumns, ...metricColumns, ...rest].map((key) => ({ key, label: key.replace('@', ' · ') }));
  const notices = answers.map(notice).filter(Boolean).slice(0, 1);
  if (rows.length === 0) {
    region.replaceChildren(...notices, empty('No rows: nothing was reported for these ids in this range.'));
    return 'empty';
  }
  const { table, csv } = sortableTable(columns, rows, { id: 'attribution-table' });
  region.replaceChildren(...notices,
    h('div', { class: 'toolbar' }, h('span', { class: 'count' }, `${rows.length} row${rows.length === 1 ? '' : 's'}`),
      csvLink(`attribution-${models.join('-')}.csv`, csv, table)),
    h('div', { class: 'scroll' }, table));
  return 'done';
}
