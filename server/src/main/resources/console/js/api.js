// The console's only way to the data: the public /api/v1.0, with the API key the user pasted. The key (and the optional
// Accessible-Account-Id of an agency key) live in sessionStorage only: they end with the browser tab.
const KEY = 'attribution.console.apiKey';
const ACCOUNT = 'attribution.console.accessibleAccountId';

export const session = {
  key: () => sessionStorage.getItem(KEY) || '',
  account: () => sessionStorage.getItem(ACCOUNT) || '',
  save(key, account) {
    sessionStorage.setItem(KEY, key.trim());
    if (account && account.trim()) sessionStorage.setItem(ACCOUNT, account.trim());
    else sessionStorage.removeItem(ACCOUNT);
  },
  forget() {
    sessionStorage.removeItem(KEY);
    sessionStorage.removeItem(ACCOUNT);
  },
};

/** An answer that is not a success: `messages` are the API's own (its error envelope's `message` array). */
export class ApiError extends Error {
  constructor(status, messages) {
    super(messages.join(' | '));
    this.status = status;
    this.messages = messages;
  }
}

/** The `"a","b"` list form of spec 4.0 from a comma- or space-separated text. */
export function quotedList(text) {
  return splitIds(text).map((v) => `"${v.replaceAll('"', '')}"`).join(',');
}

/** Ids typed by a person: split on commas, spaces or new lines, quotes dropped, blanks left out. */
export function splitIds(text) {
  return (text || '').split(/[\s,]+/).map((v) => v.replace(/^"|"$/g, '').trim()).filter(Boolean);
}

/** GET /api/v1.0{path} with `params` (empty values left out); resolves to the parsed JSON body. */
export async function get(path, params = {}) {
  const key = session.key();
  if (!key) throw new ApiError(0, ['Paste an API key above to load reports.']);
  const url = new URL(`/api/v1.0${path}`, window.location.origin);
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') url.searchParams.set(name, String(value));
  }
  const headers = { 'API-Key': key, Accept: 'application/json' };
  if (session.account()) headers['Accessible-Account-Id'] = session.account();
  let response;
  try {
    response = await fetch(url, { headers });
  } catch (e) {
    throw new ApiError(0, [`Could not reach the API: ${e.message}`]);
  }
  const text = await response.text();
  let body = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch (e) {
    body = null;
  }
  if (!response.ok || (body && body.result === 'ERROR')) {
    const m = body && body.message;
    const messages = Array.isArray(m) ? m.map(String) : [m ? String(m) : `${response.status} ${response.statusText}`];
    throw new ApiError(response.status, messages);
  }
  if (body === null) throw new ApiError(response.status, ['The API answered something that is not JSON.']);
  return body;
}

/** Every page of a list answer, following `nextPageId` (at most `maxPages` requests). */
export async function getAllPages(path, params, maxPages = 20) {
  let rows = [];
  let last = null;
  let pageId = null;
  for (let i = 0; i < maxPages; i += 1) {
    last = await get(path, pageId ? { ...params, pageId } : params);
    rows = rows.concat(last.result || []);
    pageId = last.nextPageId;
    if (!pageId) break;
  }
  return { ...last, result: rows, nextPageId: pageId || null };
}
