// The analyst console's entry module: the key form, the navigation and the page router (#attribution, #cac, ...).
// A client of the public /api/v1.0 only: every data call carries the key pasted here.
import { get, session } from './api.js';
import { errorBox, h } from './ui.js';
import * as attribution from './pages/attribution.js';
import * as cac from './pages/cac.js';
import * as roas from './pages/roas.js';
import * as adaccount from './pages/adaccount.js';
import * as paths from './pages/paths.js';
import * as journey from './pages/journey.js';

const PAGES = { attribution, cac, roas, adaccount, paths, journey };

const app = document.getElementById('app');
const keyForm = document.getElementById('key-form');
const nav = document.getElementById('nav');
const keyState = document.getElementById('key-state');

function route() {
  const [name, ...rest] = (window.location.hash.replace(/^#\/?/, '') || 'attribution').split('/');
  const page = PAGES[name];
  nav.querySelectorAll('a').forEach((a) => a.setAttribute('aria-current', a.dataset.page === name ? 'page' : 'false'));
  if (!page) {
    app.replaceChildren(h('h2', {}, 'Not found'), h('p', {}, `There is no console page "${name}".`));
    app.dataset.page = 'none';
    return;
  }
  app.dataset.page = name;
  if (!session.key()) {
    app.replaceChildren(h('h2', {}, page.title),
      h('p', { class: 'empty', id: 'need-key' }, 'Paste an API key above: the console reads your account through the API with it.'));
    return;
  }
  page.render(app, rest.map(decodeURIComponent).join('/'));
}

async function checkKey() {
  keyState.replaceChildren();
  keyState.dataset.state = 'checking';
  try {
    await get('/ad-accounts', { pageSize: 1 });
    keyState.dataset.state = 'ok';
    keyState.replaceChildren(h('span', { class: 'ok' }, session.account() ? `Key accepted, acting for ${session.account()}` : 'Key accepted'));
  } catch (e) {
    keyState.dataset.state = 'error';
    keyState.replaceChildren(errorBox(e));
  }
}

function showSession() {
  keyForm.apiKey.value = '';
  keyForm.apiKey.placeholder = session.key() ? 'key in use (paste another to replace it)' : 'paste your API key';
  keyForm.accessibleAccountId.value = session.account();
  keyForm.forget.hidden = !session.key();
}

keyForm.addEventListener('submit', (e) => {
  e.preventDefault();
  const key = keyForm.apiKey.value.trim() || session.key();
  session.save(key, keyForm.accessibleAccountId.value);
  showSession();
  route();
  if (session.key()) checkKey();
});
keyForm.forget.addEventListener('click', () => {
  session.forget();
  showSession();
  keyState.replaceChildren();
  keyState.dataset.state = 'none';
  route();
});
window.addEventListener('hashchange', route);

nav.replaceChildren(...Object.entries(PAGES).map(([name, page]) => h('a', { href: `#${name}`, 'data-page': name }, page.title)));
showSession();
route();
if (session.key()) checkKey();
app.closest('body').dataset.state = 'ready';
