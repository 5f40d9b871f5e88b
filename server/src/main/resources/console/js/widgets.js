// Form widgets several pages share: the grouped metric picker and the ad-account picker.
import { getAllPages } from './api.js';
import { METRIC_GROUPS } from './catalog.js';
import { h } from './ui.js';

/** Checkboxes of the 4.5.1 metric names, grouped; values() gives the chosen ones in catalog order. */
export function metricPicker(chosen) {
  const summary = h('summary');
  const el = h('details', { class: 'metrics' }, summary,
    METRIC_GROUPS.map((g) => h('fieldset', {}, h('legend', {}, g.group),
      g.names.map((n) => h('label', { class: 'check' },
        h('input', { type: 'checkbox', name: 'metric', value: n, 'data-metric': n, checked: chosen.includes(n) }), n)))));
  const values = () => [...el.querySelectorAll('input[name=metric]:checked')].map((i) => i.value);
  const count = () => { summary.textContent = `Metrics: ${values().join(', ') || 'none chosen'}`; };
  el.addEventListener('change', count);
  count();
  return { el, values };
}

/** A select of the account's ad accounts (GET /ad-accounts), filled once it has answered. */
export function adAccountPicker(name = 'adAccount') {
  const el = h('select', { name, 'data-state': 'loading' }, h('option', { value: '' }, 'Loading ad accounts…'));
  getAllPages('/ad-accounts', { pageSize: 250 }).then((body) => {
    const accounts = body.result || [];
    el.replaceChildren(...(accounts.length === 0
      ? [h('option', { value: '' }, 'No ad accounts in this account yet')]
      : accounts.map((a) => h('option', { value: a.id }, `${a.name || a.id} (${a.type || 'ad account'}) — ${a.id}`))));
    el.dataset.state = accounts.length === 0 ? 'empty' : 'done';
  }, (e) => {
    el.replaceChildren(h('option', { value: '' }, `Ad accounts unavailable: ${e.message}`));
    el.dataset.state = 'error';
  });
  return el;
}
