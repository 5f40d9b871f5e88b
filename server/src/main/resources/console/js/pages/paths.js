// Conversion paths browser (GET /conversion-paths): each conversion with the touches that led to it, page by page.
import { get } from '../api.js';
import { defaultRange, empty, field, h, input, resultRegion, run, select, show } from '../ui.js';

export const title = 'Conversion paths';

export function render(root) {
  const range = defaultRange();
  const form = h('form', { class: 'report-form', id: 'paths-form' },
    field('Conversion', select('conversionType', ['SALE', 'LEAD', 'CALL'], 'SALE')),
    field('From', input('from', { type: 'date', value: range.from }), 'account time zone'),
    field('To', input('to', { type: 'date', value: range.to })),
    field('Window (days)', input('window', { type: 'number', min: 0, max: 365, value: 0 }), '0 = every touch'),
    field('Page size', input('pageSize', { type: 'number', min: 1, max: 250, value: 50 })),
    h('button', { type: 'submit' }, 'Show paths'));
  const region = resultRegion('paths-result');
  const pages = [];
  const showPage = (pageId) => run(region, form, () => load(form, region, pageId, pages, showPage));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    pages.length = 0;
    showPage(null);
  });
  root.replaceChildren(h('h2', {}, 'Conversion paths'),
    h('p', { class: 'lead' }, 'Every sale, call or lead of the range with its touches, oldest first. Click a lead to see its journey.'),
    form, region);
}

async function load(form, region, pageId, pages, again) {
  const body = await get('/conversion-paths', {
    conversionType: form.conversionType.value,
    fromDate: form.from.value,
    toDate: form.to.value,
    windowAttributionDaysRange: form.window.value,
    pageSize: form.pageSize.value,
    pageId: pageId || '',
  });
  const rows = body.result || [];
  if (rows.length === 0) {
    region.replaceChildren(empty('No conversions of this type in this range.'));
    return 'empty';
  }
  const table = h('table', { class: 'data', id: 'paths-table' },
    h('thead', {}, h('tr', {}, ['id', 'leadId', 'creationDate', 'price', 'firstSale', 'path'].map((k) => h('th', { scope: 'col' }, k)))),
    h('tbody', {}, rows.map((c) => h('tr', { 'data-id': c.id },
      cell('id', c.id),
      h('td', { 'data-key': 'leadId', 'data-value': c.leadId }, h('a', { href: `#journey/${encodeURIComponent(c.leadId)}` }, c.leadId)),
      cell('creationDate', c.creationDate),
      cell('price', c.price ? c.price.price : null, c.price ? `${show(c.price.price)} ${c.price.currency || ''}` : '—'),
      cell('firstSale', c.firstSale ?? null),
      h('td', { 'data-key': 'path', 'data-value': (c.path || []).map((t) => t.sourceLinkId || t.tag || t.name).join(' > ') },
        (c.path || []).length === 0 ? h('span', { class: 'muted' }, 'no touches')
          : h('ol', { class: 'path' }, c.path.map((t) => h('li', { class: t.organic ? 'organic' : 'paid', title: t.clickDate || '' },
            t.name || t.tag || t.sourceLinkId, t.sourceLinkAd && t.sourceLinkAd.name ? h('small', {}, ` · ${t.sourceLinkAd.name}`) : null))))))));
  const nav = h('div', { class: 'toolbar' }, h('span', { class: 'count' }, `page ${pages.length + 1}: ${rows.length} conversions`));
  if (pages.length > 0) {
    nav.append(h('button', { type: 'button', class: 'prev', onclick: () => again(pages.pop() || null) }, 'Previous page'));
  }
  if (body.nextPageId) {
    nav.append(h('button', { type: 'button', class: 'next', onclick: () => { pages.push(pageId); again(body.nextPageId); } }, 'Next page'));
  }
  region.replaceChildren(nav, h('div', { class: 'scroll' }, table));
  return 'done';
}

function cell(key, value, text) {
  return h('td', { 'data-key': key, 'data-value': value === null || value === undefined ? '' : String(value) }, text ?? show(value));
}
