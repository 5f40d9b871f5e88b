// Small DOM helpers shared by the pages: elements, number formatting, result states, sortable tables and CSV.
import { ApiError } from './api.js';

/** h('div', {class: 'x', onclick: f}, child, 'text', ...) */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on')) el.addEventListener(name.slice(2), value);
    else if (name === 'dataset') Object.assign(el.dataset, value);
    else if (value === true) el.setAttribute(name, '');
    else el.setAttribute(name, String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** The raw value of a cell as text, the form tests and CSV compare: '' for null. */
export function raw(value) {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

const NUMBER = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/** A value for reading: numbers grouped with at most 2 decimals, null as an em dash. */
export function show(value) {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'number') return NUMBER.format(value);
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** yyyy-MM-dd of a Date in the browser's calendar. */
export function isoDay(date) {
  const pad = (n) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** Default report range: the 30 days ending yesterday (the reports refuse an end in the future). */
export function defaultRange(days = 30) {
  const end = new Date();
  end.setDate(end.getDate() - 1);
  const start = new Date(end);
  start.setDate(start.getDate() - (days - 1));
  return { from: isoDay(start), to: isoDay(end) };
}

/**
 * A result region: `data-state` is idle, loading, done, empty or error (tests and styles key on it); `data-run` counts
 * the runs started.
 */
export function resultRegion(id) {
  return h('section', { id, class: 'result', 'data-state': 'idle', 'aria-live': 'polite' });
}

/** Runs `load` with the region showing a loading state, then shows what `load` rendered or the API's messages. */
export async function run(region, form, load) {
  region.dataset.run = String(Number(region.dataset.run || 0) + 1);
  region.dataset.state = 'loading';
  region.setAttribute('aria-busy', 'true');
  region.replaceChildren(h('p', { class: 'loading' }, 'Loading…'));
  const button = form && form.querySelector('button[type=submit]');
  if (button) button.disabled = true;
  try {
    const state = await load();
    region.dataset.state = state || 'done';
  } catch (e) {
    region.replaceChildren(errorBox(e));
    region.dataset.state = 'error';
  } finally {
    region.removeAttribute('aria-busy');
    if (button) button.disabled = false;
  }
}

/** The API's messages, one per line (or a script error's text). */
export function errorBox(e) {
  const messages = e instanceof ApiError ? e.messages : [String(e && e.message ? e.message : e)];
  const status = e instanceof ApiError && e.status ? `HTTP ${e.status}` : null;
  return h('div', { class: 'error', role: 'alert' },
    status && h('strong', {}, status),
    h('ul', {}, messages.map((m) => h('li', { class: 'message' }, m))));
}

export function empty(text) {
  return h('p', { class: 'empty' }, text);
}

/** The API's non-error `message` (e.g. ids that do not exist at the level), when there is one. */
export function notice(body) {
  const m = body && body.message;
  if (!m || (Array.isArray(m) && m.length === 0)) return null;
  return h('div', { class: 'notice' }, (Array.isArray(m) ? m : [m]).map((x) => h('p', { class: 'message' }, x)));
}

/**
 * A sortable table of `rows` (objects) over `columns` ({key, label}); each cell holds its value's raw text in
 * `data-value`. Returns {table, csv()} where csv() follows the rows in their current (sorted) order.
 */
export function sortableTable(columns, rows, { id } = {}) {
  let order = rows.slice();
  const body = h('tbody');
  const fill = () => body.replaceChildren(...order.map((row) => h('tr', {},
    columns.map((c) => {
      const v = c.value ? c.value(row) : row[c.key];
      return h('td', { 'data-key': c.key, 'data-value': raw(v), class: typeof v === 'number' ? 'num' : null },
        c.render ? c.render(row) : show(v));
    }))));
  const heads = columns.map((c) => h('th', { scope: 'col', 'data-key': c.key, 'aria-sort': 'none', tabindex: 0, title: 'Sort' }, c.label || c.key));
  let table = null;
  heads.forEach((th, i) => {
    const sort = () => {
      const dir = th.getAttribute('aria-sort') === 'ascending' ? 'descending' : 'ascending';
      heads.forEach((x) => x.setAttribute('aria-sort', 'none'));
      th.setAttribute('aria-sort', dir);
      const c = columns[i];
      const get = (row) => (c.value ? c.value(row) : row[c.key]);
      order = rows.slice().sort((a, b) => compare(get(a), get(b)) * (dir === 'ascending' ? 1 : -1));
      fill();
      table.dispatchEvent(new CustomEvent('sorted'));
    };
    th.addEventListener('click', sort);
    th.addEventListener('keydown', (e) => { if (e.key === 'Enter') sort(); });
  });
  fill();
  table = h('table', { id, class: 'data' }, h('thead', {}, h('tr', {}, heads)), body);
  return { table, csv: () => toCsv(columns, order) };
}

/** Nulls last, numbers numerically, the rest as text. */
function compare(a, b) {
  const an = a === null || a === undefined;
  const bn = b === null || b === undefined;
  if (an || bn) return an === bn ? 0 : an ? 1 : -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b));
}

/** RFC 4180 CSV: a header of the column keys, then one line per row of raw values. */
export function toCsv(columns, rows) {
  const cell = (v) => (/[",\r\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);
  const lines = [columns.map((c) => cell(c.key)).join(',')];
  for (const row of rows) lines.push(columns.map((c) => cell(raw(c.value ? c.value(row) : row[c.key]))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** A download link for the CSV `text()` gives; `table` (optional) re-makes it when re-sorted. */
export function csvLink(fileName, text, table) {
  const a = h('a', { class: 'csv button', download: fileName, href: '#' }, 'Download CSV');
  const refresh = () => {
    if (a.dataset.url) URL.revokeObjectURL(a.dataset.url);
    a.dataset.url = URL.createObjectURL(new Blob([text()], { type: 'text/csv' }));
    a.href = a.dataset.url;
  };
  if (table) table.addEventListener('sorted', refresh);
  refresh();
  return a;
}

/** A labelled form control. */
export function field(label, control, hint) {
  return h('label', { class: 'field' }, h('span', {}, label), control, hint && h('small', {}, hint));
}

export function select(name, options, value) {
  return h('select', { name },
    options.map((o) => {
      if (o.group) return h('optgroup', { label: o.group }, o.options.map((x) => option(x, value)));
      return option(o, value);
    }));
}

function option(o, value) {
  const v = typeof o === 'string' ? o : o.value;
  const label = typeof o === 'string' ? o : o.label;
  return h('option', { value: v, selected: v === value }, label);
}

export function input(name, attrs = {}) {
  return h('input', { name, ...attrs });
}
