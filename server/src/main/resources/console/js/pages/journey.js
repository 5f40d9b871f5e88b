// A lead's journey (GET /leads/journey with includeEvents): the lead, its totals and a timeline of its events.
import { get, quotedList } from '../api.js';
import { empty, field, h, input, resultRegion, run, show } from '../ui.js';

export const title = 'Lead journey';

const LABELS = {
  sl: 'Click', 'lead-stage': 'Stage', sale: 'Sale', call: 'Call', cart: 'Cart', 'subscription-started': 'Subscription started',
  'subscription-ended': 'Subscription ended', action: 'Action', 'opt-in': 'Opt-in', email: 'Email', 'email-open': 'Email opened',
};

export function render(root, param) {
  const form = h('form', { class: 'report-form', id: 'journey-form' },
    field('Lead ids', input('ids', { placeholder: 'lead ids, comma-separated', size: 36, value: param || '' })),
    field('or emails', input('emails', { placeholder: 'emails, comma-separated', size: 36 })),
    h('button', { type: 'submit' }, 'Show journey'));
  const region = resultRegion('journey-result');
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    run(region, form, () => load(form, region));
  });
  root.replaceChildren(h('h2', {}, 'Lead journey'),
    h('p', { class: 'lead' }, 'Everything one lead did, in order: clicks with their ads, stages, sales, calls, carts, subscriptions.'),
    form, region);
  if (param) form.requestSubmit();
}

async function load(form, region) {
  const body = await get('/leads/journey', {
    ids: quotedList(form.ids.value),
    emails: quotedList(form.emails.value),
    includeEvents: 'true',
  });
  const journeys = body.result || [];
  if (journeys.length === 0) {
    region.replaceChildren(empty('No lead matches these ids or emails.'));
    return 'empty';
  }
  region.replaceChildren(...journeys.map(journey));
  return 'done';
}

function journey(j) {
  const lead = j.lead || {};
  const count = (name) => (j[name] || []).length;
  const events = j.journey || [];
  return h('article', { class: 'journey', 'data-lead': lead.id },
    h('header', {}, h('h3', {}, lead.email || lead.id), h('small', {}, [lead.firstName, lead.lastName].filter(Boolean).join(' '), lead.stage ? ` · stage ${lead.stage.name || lead.stage}` : '')),
    h('ul', { class: 'totals' }, ['sales', 'calls', 'carts', 'subscriptions', 'linkedLeads'].map((k) => h('li', { 'data-key': k, 'data-value': count(k) }, h('b', {}, count(k)), ` ${k}`))),
    events.length === 0 ? empty('No events recorded for this lead.')
      : h('ol', { class: 'timeline' }, events.map((e) => h('li', { class: `event ${e.type}`, 'data-type': e.type, 'data-date': e.date, 'data-id': e.id || null },
        h('time', { datetime: e.date }, e.date),
        h('span', { class: 'type' }, LABELS[e.type] || e.type),
        h('span', { class: 'what' }, describe(e))))));
}

function describe(e) {
  const parts = [e.name, e.tag, e.extra, e.keyword].filter(Boolean);
  if (e.type === 'sl') {
    const ad = ['trafficSource', 'campaign', 'adSet', 'ad'].map((k) => e[k] && e[k].name).filter(Boolean);
    if (ad.length) parts.push(ad.join(' › '));
  }
  if (e.subNames && e.subNames.length) parts.push(e.subNames.join(', '));
  return parts.map(show).join(' · ');
}
