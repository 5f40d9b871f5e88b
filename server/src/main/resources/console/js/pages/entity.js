// The entity of the ROAS card and the CAC curve: a level and an id, typed or picked from the account's ads and ad
// accounts (GET /ads, GET /ad-accounts).
import { getAllPages } from '../api.js';
import { field, h, input, select } from '../ui.js';

export const ENTITY_LEVELS = [
  { value: 'ad', label: 'ad' },
  { value: 'source_link', label: 'source_link (ad set / ad group)' },
  { value: 'campaign', label: 'campaign' },
  { value: 'account', label: 'account (ad account)' },
];

/** [pick, level, id] fields; picking sets level and id. */
export function entityPicker() {
  const pick = h('select', { name: 'pick', 'data-state': 'loading' }, h('option', { value: '' }, 'Loading ads…'));
  const level = select('level', ENTITY_LEVELS, 'ad');
  const id = input('entityId', { placeholder: 'id as issued by the ad platform', size: 28, required: true });
  pick.addEventListener('change', () => {
    const [l, ...rest] = pick.value.split(':');
    if (!l) return;
    level.value = l;
    id.value = rest.join(':');
  });
  Promise.all([getAllPages('/ads', { pageSize: 250 }, 4), getAllPages('/ad-accounts', { pageSize: 250 }, 4)]).then(([ads, accounts]) => {
    const adOptions = (ads.result || []).filter((a) => a.adSource && a.adSource.adSourceId)
      .map((a) => h('option', { value: `ad:${a.adSource.adSourceId}` }, `${a.name || a.adSource.adSourceId} (${a.adSource.platform || ''})`));
    const accountOptions = (accounts.result || []).map((a) => h('option', { value: `account:${a.id}` }, `${a.name || a.id} (${a.type || ''})`));
    pick.replaceChildren(h('option', { value: '' }, adOptions.length + accountOptions.length ? 'Pick an ad or ad account…' : 'No ads in this account yet'),
      adOptions.length ? h('optgroup', { label: 'Ads' }, adOptions) : null,
      accountOptions.length ? h('optgroup', { label: 'Ad accounts' }, accountOptions) : null);
    pick.dataset.state = 'done';
  }, (e) => {
    pick.replaceChildren(h('option', { value: '' }, `List unavailable: ${e.message}`));
    pick.dataset.state = 'error';
  });
  return [field('Pick', pick), field('Level', level), field('Id', id)];
}
