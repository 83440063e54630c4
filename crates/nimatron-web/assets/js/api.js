// The server's JSON API (docs/api.md): requests, live updates of a game,
// and the seat tokens and invite links it hands out, kept in this browser.

class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export async function api(method, path, body, token, signal) {
  /** @type {Record<string, string>} */
  const headers = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers['Authorization'] = 'Bearer ' + token;
  const res = await fetch('/api' + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal,
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
  // The ids of every game this browser holds a seat in.
  ids() {
    const out = [];
    try {
      for (let i = 0; i < localStorage.length; i++) {
        const k = localStorage.key(i);
        if (k && k.startsWith('nimatron.seat.')) out.push(k.slice('nimatron.seat.'.length));
      }
    } catch (_) { /* storage off */ }
    return out.filter((id) => /^[0-9a-f]{16}$/.test(id));
  },
};

// The games this browser holds a seat in, newest first (at most `limit`),
// as the history lists them.
export async function myGames(limit = 1000) {
  const ids = seats.ids();
  const games = [];
  for (let i = 0; i < ids.length; i += 200) {
    const page = await api('GET', '/games?ids=' + ids.slice(i, i + 200).join(','));
    games.push(...page.games);
  }
  games.sort((a, b) => b.created_at - a.created_at || (a.id < b.id ? -1 : 1));
  return games.slice(0, limit);
}

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

// The game's name for people, from the catalogue: "Kayles", or "Subtraction
// game (1,2,3)" for parameters other than the catalogue's own.
export function titleOf(spec, games) {
  const exact = (games || []).find((e) => e.spec === spec);
  if (exact) return exact.title;
  const name = spec.split(':')[0];
  const family = (games || []).find((e) => (e.spec || '').split(':')[0] === name);
  if (family) return `${family.title} (${spec.slice(name.length + 1)})`;
  return spec;
}
