// The server's JSON API (docs/api.md): requests, live updates of a game,
// and the seat tokens and invite links it hands out, kept in this browser.

class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export async function api(method, path, body, token) {
  const headers = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers['Authorization'] = 'Bearer ' + token;
  const res = await fetch('/api' + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data = null;
  try { data = await res.json(); } catch (_) { /* not JSON */ }
  if (!res.ok) {
    const e = (data && data.error) || {};
    throw new ApiError(res.status, e.code || 'error', e.message || ('HTTP ' + res.status));
  }
  return data;
}

// The seat this browser holds in each game: { seat, token }.
export const seats = {
  load(id) { try { return JSON.parse(localStorage.getItem('nimatron.seat.' + id)); } catch (_) { return null; } },
  save(id, seat, token) { localStorage.setItem('nimatron.seat.' + id, JSON.stringify({ seat, token })); },
};

// The invite link of an online game, for its creator: kept in this
// browser, so that another tab (or a reload) still shows it.
export const invites = {
  load(id) { try { return localStorage.getItem('nimatron.invite.' + id); } catch (_) { return null; } },
  save(id, url) { try { localStorage.setItem('nimatron.invite.' + id, url); } catch (_) { /* private mode */ } },
};

// Create a game and keep its seat token (and invite link): the grant.
export async function createGame(body) {
  const grant = await api('POST', '/games', body);
  seats.save(grant.game.id, grant.seat, grant.token);
  if (grant.invite_url) invites.save(grant.game.id, grant.invite_url);
  return grant;
}

// Call `onState` with the game's state now and after every change; returns
// the function that stops watching.
export function watchGame(id, onState) {
  const es = new EventSource(`/api/games/${id}/events`);
  es.addEventListener('state', (ev) => onState(JSON.parse(ev.data)));
  return () => es.close();
}

let catalogue = null;
export async function loadCatalogue() {
  if (!catalogue) catalogue = (await api('GET', '/catalogue')).games;
  return catalogue;
}
