// Nimatron in the browser: plain JavaScript over the JSON API (docs/api.md).
'use strict';
// The heaps a move leads to, for heap games (the analysis JSON writes a
// heap position as an array and any other position as text).
const toHeaps = (m) => (Array.isArray(m.to) ? m.to : null);

// ---------- small helpers ----------

function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'class') el.className = v;
    else if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

async function api(method, path, body, token) {
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

const heapName = (i) => {
  let n = i + 1, s = '';
  while (n > 0) { const r = (n - 1) % 26; s = String.fromCharCode(65 + r) + s; n = Math.floor((n - 1) / 26); }
  return s;
};

const seats = {
  load(id) { try { return JSON.parse(localStorage.getItem('nimatron.seat.' + id)); } catch (_) { return null; } },
  save(id, seat, token) { localStorage.setItem('nimatron.seat.' + id, JSON.stringify({ seat, token })); },
};

function parseHeapsText(text) {
  if (!/^[\d\s]+$/.test(text.trim())) return null;
  return text.trim().split(/\s+/).map(Number);
}

function sameMultiset(a, b) {
  const norm = (x) => x.filter((v) => v > 0).sort((p, q) => p - q).join(',');
  return norm(a) === norm(b);
}

function when(ms) {
  const d = new Date(ms);
  return d.toLocaleDateString(undefined, { month: 'short', day: 'numeric' }) + ' ' +
    d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
}

const app = () => document.getElementById('app');
let cleanup = [];
function onLeave(fn) { cleanup.push(fn); }

// ---------- routing ----------

function navigate(url, replace) {
  if (replace) history.replaceState(null, '', url); else history.pushState(null, '', url);
  route();
}

document.addEventListener('click', (e) => {
  const a = e.target.closest('a[data-link]');
  if (a && !e.ctrlKey && !e.metaKey && !e.shiftKey && a.origin === location.origin) {
    e.preventDefault();
    navigate(a.pathname + a.search);
  }
});
window.addEventListener('popstate', route);

function route() {
  for (const fn of cleanup) fn();
  cleanup = [];
  const path = location.pathname;
  document.querySelectorAll('nav a').forEach((a) => {
    const active = a.getAttribute('href') === '/' ? (path === '/' || path.startsWith('/play/')) : path.startsWith(a.getAttribute('href'));
    a.classList.toggle('active', active);
  });
  const m = path.match(/^\/play\/([0-9a-f]{16})$/);
  if (m) return playPage(m[1]);
  if (path === '/history') return historyPage();
  if (path === '/explore') return explorePage();
  return homePage();
}

function showError(where, err) {
  const box = h('div', { class: 'notice error', role: 'alert' }, err.message || String(err));
  where.replaceChildren(box);
  return box;
}

// ---------- home: a new game ----------

let catalogue = null;
async function loadCatalogue() {
  if (!catalogue) catalogue = (await api('GET', '/catalogue')).games;
  return catalogue;
}

async function homePage() {
  const root = app();
  root.replaceChildren(h('p', { class: 'muted' }, 'Loading…'));
  let games;
  try { games = await loadCatalogue(); } catch (e) { return showError(root, e); }

  const specInput = h('input', { id: 'spec', name: 'spec', value: 'nim', autocomplete: 'off', spellcheck: 'false', 'aria-describedby': 'spec-help' });
  const gameSelect = h('select', { id: 'game-select', 'aria-label': 'Game' },
    games.map((g) => h('option', { value: g.spec || g.syntax, disabled: !g.playable },
      g.syntax + (g.playable ? '' : ' (not in this build)'))));
  const specHelp = h('p', { id: 'spec-help', class: 'help' });
  const startSelect = h('select', { id: 'start', name: 'start' });
  const customPos = h('input', { id: 'custom-position', name: 'position', placeholder: 'e.g. 2 5 6', autocomplete: 'off', hidden: true });
  const levelSelect = h('select', { id: 'level', name: 'level' },
    ['perfect', 'hard', 'medium', 'easy'].map((l) => h('option', { value: l }, l[0].toUpperCase() + l.slice(1))));
  const radio = (name, value, label, checked) =>
    h('label', { class: 'choice' }, h('input', { type: 'radio', name, value, checked }), h('span', {}, label));

  const entryFor = (spec) => games.find((g) => g.spec === spec) || games.find((g) => spec.split(':')[0] === (g.spec || '').split(':')[0]);
  function refreshStarts() {
    const entry = entryFor(specInput.value.trim());
    const heaps = entry ? entry.heaps : true;
    const opts = [];
    if (heaps) {
      if (entry && entry.start && entry.start !== '3 4 5' && entry.start !== '1 3 5 7') opts.push(['start', 'Usual start (' + entry.start + ')']);
      opts.push(['3 4 5', 'Classic 3-4-5'], ['1 3 5 7', 'Classic 1-3-5-7 (Marienbad)'], ['random', 'Random heaps']);
    } else if (entry && entry.start) {
      opts.push(['start', 'Usual start (' + entry.start + ')']);
    }
    opts.push(['custom', 'Custom…']);
    const before = startSelect.value;
    startSelect.replaceChildren(...opts.map(([v, l]) => h('option', { value: v }, l)));
    if (opts.some(([v]) => v === before)) startSelect.value = before;
    customPos.hidden = startSelect.value !== 'custom';
    customPos.placeholder = entry && entry.position_syntax ? entry.position_syntax : 'e.g. 2 5 6';
    specHelp.textContent = entry ? (entry.rules || entry.summary) : 'A game spec as in `nimatron games`, e.g. nim or moore:2.';
    const misere = form.querySelector('input[value=misere]');
    if (misere && entry) {
      const ok = !entry.conventions.length || entry.conventions.includes('misere');
      misere.disabled = !ok;
      if (!ok) form.querySelector('input[value=normal]').checked = true;
    }
  }
  gameSelect.addEventListener('change', () => { specInput.value = gameSelect.value.replace(/\[.*$/, ''); refreshStarts(); });
  specInput.addEventListener('input', refreshStarts);
  startSelect.addEventListener('change', () => { customPos.hidden = startSelect.value !== 'custom'; if (!customPos.hidden) customPos.focus(); });

  const errorBox = h('div', { class: 'form-error', role: 'alert' });
  const levelRow = h('div', { class: 'sub' }, h('label', { for: 'level' }, 'Level '), levelSelect);
  const form = h('form', { class: 'card new-game', id: 'new-game' },
    h('h1', {}, 'New game'),
    h('div', { class: 'field' }, h('label', { for: 'game-select' }, 'Game'),
      h('div', { class: 'row' }, gameSelect, specInput), specHelp),
    h('fieldset', { class: 'field' }, h('legend', {}, 'Rules'),
      radio('convention', 'normal', 'Normal — last move wins', true),
      radio('convention', 'misere', 'Misère — last move loses')),
    h('div', { class: 'field' }, h('label', { for: 'start' }, 'Start position'),
      h('div', { class: 'row' }, startSelect, customPos)),
    h('fieldset', { class: 'field' }, h('legend', {}, 'Who starts'),
      radio('first', 'you', 'You', true), radio('first', 'opponent', 'Opponent'), radio('first', 'random', 'Toss a coin')),
    h('fieldset', { class: 'field' }, h('legend', {}, 'Opponent'),
      radio('opponent', 'computer', 'The computer', true), levelRow,
      radio('opponent', 'local', 'A friend on this screen'),
      radio('opponent', 'online', 'A friend, by invite link')),
    errorBox,
    h('button', { type: 'submit', class: 'primary', id: 'start-game' }, 'Start game'));
  form.addEventListener('change', () => {
    levelRow.hidden = form.opponent.value !== 'computer';
  });
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    errorBox.textContent = '';
    const body = {
      game: specInput.value.trim() || 'nim',
      convention: form.convention.value,
      first: form.first.value,
      opponent: form.opponent.value,
    };
    if (body.opponent === 'computer') body.level = levelSelect.value;
    const start = startSelect.value;
    if (start === 'random') body.random = true;
    else if (start === 'custom') body.position = customPos.value;
    else if (start !== 'start') body.position = start;
    try {
      const grant = await api('POST', '/games', body);
      seats.save(grant.game.id, grant.seat, grant.token);
      if (grant.invite_url) sessionStorage.setItem('nimatron.invite.' + grant.game.id, grant.invite_url);
      navigate('/play/' + grant.game.id);
    } catch (err) {
      errorBox.textContent = err.message;
    }
  });
  refreshStarts();

  const recent = h('section', { class: 'card recent' }, h('h2', {}, 'Recent games'), h('p', { class: 'muted' }, 'Loading…'));
  root.replaceChildren(h('div', { class: 'home' }, form, h('div', { class: 'side' }, intro(), recent)));
  try {
    const list = await api('GET', '/games?limit=8');
    recent.replaceChildren(h('h2', {}, 'Recent games'),
      list.games.length ? gamesTable(list.games, true) : h('p', { class: 'muted' }, 'No games yet.'),
      h('p', {}, h('a', { href: '/history', 'data-link': true }, 'All games →')));
  } catch (err) { recent.replaceChildren(h('h2', {}, 'Recent games'), h('p', { class: 'error' }, err.message)); }
}

function intro() {
  return h('section', { class: 'card intro' },
    h('h2', {}, 'How to play'),
    h('p', {}, 'Take turns removing objects. In Nim you take any number from one heap: click a match and it goes, with every match to its right.'),
    h('p', {}, 'Games that break rows (Kayles, octal games): drag across a run of adjacent objects to take it. Grundy\'s game: click the gap where a row should split. Circular Nim: click the adjacent objects to take on the ring, then Take.'),
    h('p', {}, 'Keyboard: ↑ ↓ choose a heap, ← → choose how many, Enter plays. Or type a move like ', h('kbd', {}, 'A 2'), '.'),
    h('p', {}, 'Turn on ', h('b', {}, 'analysis'), ' during a game to see which moves win and why — Bouton\'s nim-sum in binary.'));
}

// ---------- history ----------

function resultText(g) {
  if (g.status === 'waiting') return 'waiting for a player';
  if (g.status !== 'over') return 'in progress';
  if (g.mode === 'computer') return g.winner === g.computer_seat ? 'Nimatron won' : 'You won';
  return 'Player ' + (g.winner + 1) + ' won';
}

function gamesTable(games, compact) {
  const modeName = { computer: 'vs computer', local: 'same screen', online: 'online' };
  return h('table', { class: 'games' },
    h('thead', {}, h('tr', {}, h('th', {}, 'When'), h('th', {}, 'Game'), compact ? null : h('th', {}, 'Start'),
      h('th', {}, 'Moves'), h('th', {}, 'Result'))),
    h('tbody', {}, games.map((g) => h('tr', {},
      h('td', {}, h('a', { href: '/play/' + g.id, 'data-link': true }, when(g.created_at))),
      h('td', {}, g.game + (g.convention === 'misere' ? ' (misère)' : ''), h('span', { class: 'muted small' }, ' ' + modeName[g.mode] + (g.level ? ', ' + g.level : ''))),
      compact ? null : h('td', { class: 'mono' }, g.start),
      h('td', { class: 'num' }, g.ply),
      h('td', {}, resultText(g))))));
}

async function historyPage() {
  const root = app();
  root.replaceChildren(h('p', { class: 'muted' }, 'Loading…'));
  try {
    const list = await api('GET', '/games?limit=200');
    const wins = { you: 0, computer: 0 };
    for (const g of list.games) {
      if (g.mode === 'computer' && g.status === 'over') wins[g.winner === g.computer_seat ? 'computer' : 'you']++;
    }
    root.replaceChildren(h('section', { class: 'card' },
      h('h1', {}, 'Past games'),
      h('p', { class: 'muted' }, `${list.total} game${list.total === 1 ? '' : 's'} stored. Against the computer: you won ${wins.you}, Nimatron won ${wins.computer}. Open a game to replay it move by move.`),
      list.games.length ? gamesTable(list.games, false) : h('p', {}, 'No games yet — ', h('a', { href: '/', 'data-link': true }, 'start one'), '.')));
  } catch (e) { showError(root, e); }
}

// ---------- the game page ----------

function playPage(id) {
  const root = app();
  const params = new URLSearchParams(location.search);
  const s = {
    id, game: null, mine: seats.load(id), analysisOn: false, analysis: null, analysisPly: -1,
    replay: null, busy: false, sel: { heap: 0, count: 1 }, drag: null, message: null, pending: null,
  };
  root.replaceChildren(h('p', { class: 'muted' }, 'Loading…'));

  const invite = params.get('invite');
  const start = async () => {
    if (invite && !(s.mine && s.mine.token)) {
      try {
        const grant = await api('POST', `/games/${id}/join`, { invite });
        seats.save(id, grant.seat, grant.token);
        s.mine = { seat: grant.seat, token: grant.token };
      } catch (e) {
        s.message = { kind: 'error', text: 'Could not join: ' + e.message + ' You can still watch.' };
      }
      history.replaceState(null, '', '/play/' + id);
    }
    try {
      setGame(await api('GET', '/games/' + id));
    } catch (e) { return showError(root, e); }
    const es = new EventSource(`/api/games/${id}/events`);
    es.addEventListener('state', (ev) => {
      const g = JSON.parse(ev.data);
      if (s.busy) { s.pending = g; return; }
      if (!s.game || g.ply > s.game.ply || g.status !== s.game.status) setGame(g);
    });
    onLeave(() => es.close());
  };

  const keyHandler = (e) => onKey(s, e);
  document.addEventListener('keydown', keyHandler);
  onLeave(() => document.removeEventListener('keydown', keyHandler));

  function setGame(g) {
    s.game = g;
    const heaps = g.heaps || [];
    if (!heaps[s.sel.heap]) s.sel.heap = Math.max(0, heaps.findIndex((x) => x > 0));
    s.sel.count = Math.min(Math.max(1, s.sel.count), heaps[s.sel.heap] || 1);
    render(s);
    if (s.analysisOn) refreshAnalysis(s);
  }
  s.setGame = setGame;
  start();
}

function names(s) {
  const g = s.game;
  const me = s.mine ? s.mine.seat : null;
  if (g.mode === 'computer') return me === null ? ['Player', 'Nimatron'] : ['You', 'Nimatron'];
  if (g.mode === 'local') return ['Player 1', 'Player 2'];
  if (me === null) return ['Player 1', 'Player 2'];
  return me === 0 ? ['You', 'Your friend'] : ['Your friend', 'You'];
}

function canMove(s) {
  const g = s.game;
  if (!g || g.status !== 'playing' || s.replay !== null || s.busy || !s.mine) return false;
  return g.mode === 'local' || s.mine.seat === g.to_move;
}

function statusLine(s) {
  const g = s.game;
  const n = names(s);
  if (g.status === 'waiting') return 'Waiting for your friend to open the invite link…';
  if (g.status === 'over') {
    const winner = n[g.winner];
    return winner === 'You' ? 'You win!' : winner + (winner === 'Your friend' ? ' wins.' : ' wins!');
  }
  if (s.busy) return n[1 - (s.busyFor ?? 0)] === 'Nimatron' ? 'Nimatron is thinking…' : 'Moving…';
  const who = n[g.to_move];
  if (!s.mine) return who + ' to move. You are watching.';
  if (g.mode === 'local') return who + ' to move.';
  return who === 'You' ? 'Your move.' : (who === 'Nimatron' ? 'Nimatron is thinking…' : 'Waiting for your friend to move…');
}

function splitting(g) {
  // Games whose moves can break a row in two (Kayles, octal games, Grundy's
  // game): select a run of adjacent objects (or a gap) instead of a suffix.
  // The server says so for the game (`rows_split`); the legal moves are a
  // fallback for a server without the field.
  return !!g.heaps && (!!g.rows_split || g.legal_moves.some((m) => toHeaps(m) && toHeaps(m).length > g.heaps.length));
}

const runKey = (heap, take, parts) => heap + '|' + take + '|' + parts.filter((x) => x > 0).sort((a, b) => a - b).join(',');

const moveIndexes = new WeakMap();
function moveIndex(g) {
  // The legal moves that act on one heap in place, by heap, objects taken
  // and the parts left of that heap: a move on heap i leaves the heaps
  // before i, its parts, then the heaps after i (docs/api.md).
  let idx = moveIndexes.get(g.legal_moves);
  if (idx) return idx;
  idx = new Map();
  const heaps = g.heaps || [];
  for (const m of g.legal_moves) {
    if (m.heap === null || m.heap === undefined || m.take === null || m.take === undefined || !toHeaps(m)) continue;
    const i = m.heap;
    const tail = heaps.length - i - 1;
    const end = toHeaps(m).length - tail;
    if (end <= i) continue;
    if (toHeaps(m).slice(0, i).join() !== heaps.slice(0, i).join()) continue;
    if (toHeaps(m).slice(end).join() !== heaps.slice(i + 1).join()) continue;
    const key = runKey(i, m.take, toHeaps(m).slice(i, end));
    if (!idx.has(key)) idx.set(key, m);
  }
  moveIndexes.set(g.legal_moves, idx);
  return idx;
}

function findMove(g, heap, from, to) {
  // The legal move that removes objects from..to (inclusive) of a heap,
  // leaving the objects on either side as the heap's parts.
  const n = g.heaps[heap];
  if (from < 0 || to >= n || from > to) return null;
  const direct = moveIndex(g).get(runKey(heap, to - from + 1, [from, n - 1 - to]));
  if (direct) return direct;
  if (to === n - 1) {
    const exact = g.legal_moves.find((m) => m.heap === heap && m.take === n - from);
    if (exact) return exact;
  }
  const target = g.heaps.slice();
  target.splice(heap, 1, from, n - 1 - to);
  const candidates = g.legal_moves.filter((m) => toHeaps(m) && sameMultiset(toHeaps(m), target));
  return candidates.find((m) => m.heap === heap) || candidates[0] || null;
}

function findSplit(g, heap, at) {
  // The legal move that splits a heap between objects at-1 and at without
  // taking any (Grundy's game).
  const n = g.heaps[heap];
  if (at <= 0 || at >= n) return null;
  return moveIndex(g).get(runKey(heap, 0, [at, n - at])) || null;
}

function runNotation(g, heap, from, to) {
  // How to write taking objects from..to of a heap, legal or not, so that
  // the server can say why it is refused.
  const n = g.heaps[heap];
  const parts = [from, n - 1 - to].filter((x) => x > 0);
  const name = heapName(heap);
  if (parts.length === 2) return `${name} ${to - from + 1} ${parts[0]}+${parts[1]}`;
  return `${name} ${to - from + 1}` + (parts.length ? ' ' + parts[0] : '');
}

function moveValue(s, mv) {
  if (!s.analysisOn || !s.analysis || !s.analysis.current || !mv) return null;
  const a = s.analysis.current.moves.find((m) => m.notation === mv.notation);
  return a ? a.value : null;
}

async function submitMove(s, notation) {
  if (!canMove(s)) return;
  const g = s.game;
  s.busy = true;
  s.busyFor = g.to_move;
  s.message = null;
  render(s);
  try {
    const reply = await api('POST', `/games/${s.id}/moves`, { move: notation, ply: g.ply }, s.mine.token);
    if (reply.applied.length > 1) {
      // Show our move, then the computer's reply a moment later.
      const first = reply.applied[0];
      s.game = Object.assign({}, g, {
        position: first.after, heaps: g.heaps ? (parseHeapsText(first.after) || g.heaps) : null,
        moves: g.moves.concat([first]), ply: first.ply, legal_moves: [], to_move: 1 - g.to_move,
      });
      render(s);
      await new Promise((r) => setTimeout(r, 450));
    }
    s.busy = false;
    let next = reply.game;
    if (s.pending && s.pending.ply > next.ply) next = s.pending;
    s.pending = null;
    s.setGame(next);
  } catch (e) {
    s.busy = false;
    s.message = { kind: 'error', text: (e.code === 'illegal_move' ? '' : '') + e.message };
    if (e.code === 'stale_ply' || e.code === 'not_your_turn') {
      try { s.setGame(await api('GET', '/games/' + s.id)); return; } catch (_) { /* keep */ }
    }
    render(s);
  }
}

async function refreshAnalysis(s) {
  const g = s.game;
  if (!g || s.analysisPly === g.ply && s.analysis) { render(s); return; }
  try {
    const a = await api('GET', `/games/${s.id}/analysis`);
    if (s.game.ply === g.ply) {
      s.analysis = a;
      s.analysisPly = g.ply;
      s.analysisError = null;
    }
  } catch (e) { s.analysisError = e.message; }
  render(s);
}

function onKey(s, e) {
  if (!s.game || e.target.closest('input, textarea, select')) return;
  const g = s.game;
  if (s.replay !== null || g.status === 'over') {
    if (e.key === 'ArrowLeft') { stepReplay(s, -1); e.preventDefault(); }
    if (e.key === 'ArrowRight') { stepReplay(s, 1); e.preventDefault(); }
    return;
  }
  if (!g.heaps || !canMove(s)) return;
  const heaps = g.heaps;
  const nonEmpty = heaps.map((x, i) => (x > 0 ? i : -1)).filter((i) => i >= 0);
  if (!nonEmpty.length) return;
  let { heap, count } = s.sel;
  if (!heaps[heap]) heap = nonEmpty[0];
  const pos = nonEmpty.indexOf(heap);
  if (e.key === 'ArrowDown') heap = nonEmpty[(pos + 1) % nonEmpty.length];
  else if (e.key === 'ArrowUp') heap = nonEmpty[(pos - 1 + nonEmpty.length) % nonEmpty.length];
  else if (e.key === 'ArrowRight') count += 1;
  else if (e.key === 'ArrowLeft') count -= 1;
  else if (/^[1-9]$/.test(e.key)) count = Number(e.key);
  else if (/^[a-z]$/i.test(e.key) && e.key.length === 1) {
    const i = e.key.toUpperCase().charCodeAt(0) - 65;
    if (heaps[i] > 0) heap = i; else return;
  } else if (e.key === 'Enter' || e.key === ' ') {
    const n = heaps[heap];
    const mv = findMove(g, heap, n - count, n - 1);
    if (mv) submitMove(s, mv.notation);
    else { s.message = { kind: 'error', text: `Taking ${count} from heap ${heapName(heap)} is not a legal move here.` }; render(s); }
    e.preventDefault();
    return;
  } else return;
  e.preventDefault();
  count = Math.min(Math.max(1, count), heaps[heap]);
  s.sel = { heap, count, keyboard: true };
  render(s);
}

function stepReplay(s, delta) {
  const total = s.game.moves.length;
  const at = s.replay === null ? total : s.replay;
  const next = Math.min(total, Math.max(0, at + delta));
  s.replay = next === total && s.game.status !== 'over' ? null : next;
  render(s);
}

function replayPosition(s) {
  const g = s.game;
  const i = s.replay;
  if (i === null) return g.position;
  return i === 0 ? g.start : g.moves[i - 1].after;
}

function render(s) {
  const g = s.game;
  const root = app();
  if (!g) return;
  const n = names(s);
  const convention = g.convention === 'misere' ? 'misère play: whoever moves last loses' : 'normal play: whoever moves last wins';
  const headerBits = [g.game, convention];
  if (g.mode === 'computer') headerBits.push('Nimatron (' + g.level + ')');
  const header = h('div', { class: 'game-head' },
    h('div', {}, h('h1', {}, g.game === 'nim' ? 'Nim' : g.game), h('p', { class: 'muted' }, headerBits.slice(1).join(' · '))),
    h('label', { class: 'switch' }, h('input', {
      type: 'checkbox', id: 'analysis-toggle', checked: s.analysisOn,
      onchange: (e) => { s.analysisOn = e.target.checked; if (s.analysisOn) refreshAnalysis(s); else render(s); },
    }), h('span', { class: 'slider', 'aria-hidden': 'true' }), h('span', {}, 'Analysis')));

  const over = g.status === 'over';
  const status = h('div', { class: 'status ' + (over ? 'over' : '') + (canMove(s) ? ' your-turn' : ''), id: 'status', role: 'status' }, statusLine(s));
  const message = s.message ? h('div', { class: 'notice ' + s.message.kind, id: 'message', role: 'alert' }, s.message.text) : null;

  const inviteBox = inviteView(s);
  const board = boardView(s);
  const controls = controlsView(s);
  const side = h('aside', { class: 'side' }, analysisView(s), movesView(s, n));
  root.replaceChildren(h('div', { class: 'play' },
    h('section', { class: 'card table' }, header, status, message, inviteBox, board, controls), side));
}

function inviteView(s) {
  const g = s.game;
  const url = sessionStorage.getItem('nimatron.invite.' + g.id);
  if (g.mode !== 'online' || !url || !s.mine || s.mine.seat !== 0 || g.seats[1].taken) return null;
  const full = location.origin + url;
  const input = h('input', { id: 'invite-link', readonly: true, value: full, onfocus: (e) => e.target.select() });
  return h('div', { class: 'invite' },
    h('p', {}, 'Send this link to your friend. It hands out the second seat, once:'),
    h('div', { class: 'row' }, input, h('button', {
      type: 'button', onclick: async (e) => {
        try { await navigator.clipboard.writeText(full); e.target.textContent = 'Copied'; } catch (_) { input.select(); }
      },
    }, 'Copy')),
    h('p', { class: 'muted small' }, 'Anyone with the plain game link (without the invite) can watch.'));
}

function boardView(s) {
  const g = s.game;
  const position = replayPosition(s);
  const ring = ringOf(g, position);
  if (ring) return ringView(s, ring);
  const heaps = s.replay === null ? g.heaps : (g.heaps ? parseHeapsText(position) : null);
  if (!heaps) {
    return h('div', { class: 'board text-board' }, h('pre', { id: 'board-text' }, s.replay === null ? g.board : position));
  }
  const live = s.replay === null && canMove(s);
  const split = splitting(g);
  const sel = s.sel;
  const rows = heaps.map((n, i) => {
    const stones = [];
    // Splitting games: the moves that take objects from this heap (runs)
    // and those that split it without taking (gaps).
    let takes = [];
    let gaps = false;
    if (live && split) {
      const mine = g.legal_moves.filter((m) => m.heap === i);
      takes = [...new Set(mine.map((m) => m.take).filter((t) => t > 0))];
      gaps = mine.some((m) => m.take === 0);
    }
    for (let k = 0; k < n; k++) {
      if (gaps && k > 0) {
        const mv = findSplit(g, i, k);
        const v = moveValue(s, mv);
        stones.push(h('button', {
          type: 'button', class: 'gap' + (v ? ' ' + v : '') + (mv ? '' : ' dead'), disabled: !mv,
          'aria-label': `Heap ${heapName(i)}, split between objects ${k} and ${k + 1}` + (mv ? ': ' + mv.text : ' (not a legal split)'),
          title: mv ? mv.text : 'not a legal split', dataset: { heap: i, at: k },
          onclick: mv ? () => submitMove(s, mv.notation) : null,
        }));
      }
      let cls = 'stone';
      let mv = null;
      let covering = [];
      if (live) {
        if (split) {
          // Every legal run through this object.
          for (const t of takes) {
            for (let from = Math.max(0, k - t + 1); from <= k && from + t <= n; from++) {
              const m = findMove(g, i, from, from + t - 1);
              if (m) covering.push(m);
            }
          }
          mv = findMove(g, i, k, k);
          if (s.analysisOn && covering.length) {
            const values = covering.map((m) => moveValue(s, m));
            if (values.includes('winning')) cls += ' winning';
            else if (values.every((v) => v === 'losing')) cls += ' losing';
          }
          if (!covering.length) cls += ' dead';
        } else {
          mv = findMove(g, i, k, n - 1);
          const v = moveValue(s, mv);
          if (v) cls += ' ' + v;
          if (!mv) cls += ' dead';
        }
        if (sel.keyboard && sel.heap === i && k >= n - sel.count) cls += ' selected';
      }
      const canSelect = split && takes.length > 0;
      const label = `Heap ${heapName(i)}, object ${k + 1} of ${n}` + (mv ? ': ' + mv.text : '');
      const winningHere = covering.filter((m) => moveValue(s, m) === 'winning').map((m) => m.text);
      stones.push(h('button', {
        type: 'button', class: cls, 'aria-label': label,
        title: winningHere.length ? 'winning: ' + winningHere.join('; ') : (mv ? mv.text : null),
        disabled: !live || (split ? !canSelect : !mv),
        dataset: { heap: i, index: k },
        onpointerdown: canSelect && live ? (e) => {
          e.preventDefault();
          if (e.target.releasePointerCapture) e.target.releasePointerCapture(e.pointerId);
          s.drag = { heap: i, from: k, to: k };
          paintDrag(s);
        } : null,
        onpointerenter: canSelect && live ? () => { if (s.drag && s.drag.heap === i) { s.drag.to = k; paintDrag(s); } } : null,
        onclick: live && !split ? () => mv && submitMove(s, mv.notation) : null,
      }));
    }
    return h('div', { class: 'heap', dataset: { heap: i } },
      h('span', { class: 'heap-name' }, heapName(i)),
      h('span', { class: 'heap-size' }, n),
      h('div', { class: 'stones' + (gaps ? ' with-gaps' : '') }, n ? stones : h('span', { class: 'empty' }, 'empty')));
  });
  const el = h('div', { class: 'board' + (live ? ' live' : '') + (split ? ' split' : ''), id: 'board' }, rows);
  if (split && live) {
    const finish = () => {
      if (!s.drag) return;
      const { heap, from, to } = s.drag;
      s.drag = null;
      const a = Math.min(from, to), b = Math.max(from, to);
      const mv = findMove(g, heap, a, b);
      // Not a legal move: the server says why, and the board stays.
      submitMove(s, mv ? mv.notation : runNotation(g, heap, a, b));
    };
    el.addEventListener('pointerup', finish);
    el.addEventListener('pointerleave', () => { if (s.drag) { s.drag = null; paintDrag(s); } });
  }
  return el;
}

function paintDrag(s) {
  document.querySelectorAll('#board .stone').forEach((b) => {
    const d = s.drag;
    const i = Number(b.dataset.heap), k = Number(b.dataset.index);
    const on = !!d && d.heap === i && k >= Math.min(d.from, d.to) && k <= Math.max(d.from, d.to);
    b.classList.toggle('selected', on);
  });
}

// ---------- circular Nim: a ring of places ----------

function ringOf(g, position) {
  // Circular Nim positions are patterns of places, '.' an object and '_' a
  // gap (docs/games.md); the ring is drawn from that text.
  if (g.heaps || !/^circular(:|$)/.test(g.game) || !/^[._]+$/.test(position)) return null;
  const k = Number((g.game.split(':')[1]) || 3);
  return { cells: position.split('').map((c) => c === '.'), maxTake: k };
}

function ringSelection(cells, selected) {
  // The notation of taking the selected places (0-based), as the server
  // writes it when they form one run (clockwise, wrapping across the join);
  // otherwise the places as a list, which the server refuses with a reason.
  const n = cells.length;
  const places = [...selected].sort((a, b) => a - b);
  if (!places.length) return null;
  const starts = places.filter((p) => !selected.has((p + n - 1) % n));
  if (places.length === n) return places.length === 1 ? '1' : `1-${n}`;
  if (starts.length === 1) {
    const a = starts[0], len = places.length;
    return len === 1 ? String(a + 1) : `${a + 1}-${(a + len - 1) % n + 1}`;
  }
  return 'take ' + places.map((p) => p + 1).join(' ');
}

function ringView(s, ring) {
  const g = s.game;
  const live = s.replay === null && canMove(s);
  const { cells } = ring;
  const n = cells.length;
  // The selection lasts until a move is made (a refused one keeps it).
  if (!s.ringSel || s.ringSel.ply !== g.ply) s.ringSel = { ply: g.ply, places: new Set() };
  const selected = live ? s.ringSel.places : new Set();
  const covering = [];
  if (live && s.analysisOn) {
    for (const m of g.legal_moves) {
      const [a, b] = m.notation.split('-').map((x) => Number(x) - 1);
      const len = b === undefined ? 1 : (b - a + n) % n + 1;
      for (let j = 0; j < len; j++) (covering[(a + j) % n] = covering[(a + j) % n] || []).push(m);
    }
  }
  const size = Math.min(460, Math.max(240, n * 26));
  const r = size / 2 - 26;
  const items = cells.map((obj, i) => {
    const angle = -Math.PI / 2 + (2 * Math.PI * i) / n;
    const x = size / 2 + r * Math.cos(angle), y = size / 2 + r * Math.sin(angle);
    const style = `left:${x.toFixed(1)}px;top:${y.toFixed(1)}px`;
    const lx = size / 2 + (r - 30) * Math.cos(angle), ly = size / 2 + (r - 30) * Math.sin(angle);
    const number = h('span', { class: 'place-number', style: `left:${lx.toFixed(1)}px;top:${ly.toFixed(1)}px` }, i + 1);
    if (!obj) return [h('span', { class: 'place gap', style, title: `place ${i + 1}: empty`, dataset: { place: i + 1 } }), number];
    const single = live ? g.legal_moves.find((m) => m.notation === String(i + 1)) : null;
    // With analysis: winning if some winning move takes this object.
    const values = live ? (covering[i] || []).map((m) => moveValue(s, m)) : [];
    const v = values.includes('winning') ? 'winning' : (values.length && values.every((x) => x === 'losing') ? 'losing' : null);
    const cls = 'place object' + (selected.has(i) ? ' selected' : '') + (v ? ' ' + v : '');
    return [h('button', {
      type: 'button', class: cls, style, disabled: !live, dataset: { place: i + 1 },
      'aria-label': `Place ${i + 1}` + (selected.has(i) ? ', selected' : ''), 'aria-pressed': selected.has(i) ? 'true' : 'false',
      title: single ? single.text : `place ${i + 1}`,
      onclick: live ? () => {
        if (selected.has(i)) selected.delete(i); else selected.add(i);
        s.message = null;
        render(s);
      } : null,
    }), number];
  });
  const objects = cells.filter((c) => c).length;
  const centre = h('div', { class: 'ring-centre' },
    h('b', {}, objects), h('span', {}, objects === 1 ? 'object' : 'objects'),
    h('span', { class: 'muted small' }, `take 1–${ring.maxTake} adjacent`));
  const parts = [h('div', { class: 'ring', style: `width:${size}px;height:${size}px` }, items, centre)];
  if (live) {
    const notation = ringSelection(cells, selected);
    const take = () => {
      if (!notation) return;
      const legal = g.legal_moves.find((m) => m.notation === notation);
      // An illegal selection is sent as written: the server refuses it with
      // its reason and the ring stays as it was.
      submitMove(s, legal ? legal.notation : notation);
    };
    parts.push(h('div', { class: 'row ring-actions' },
      h('button', { type: 'button', class: 'primary', id: 'take-selected', disabled: !notation, onclick: take },
        notation ? `Take ${notation.replace(/^take /, '')}` : 'Select objects to take'),
      h('button', { type: 'button', id: 'clear-selection', disabled: !notation, onclick: () => { selected.clear(); render(s); } }, 'Clear')));
  }
  return h('div', { class: 'board ring-board' + (live ? ' live' : ''), id: 'board' }, parts);
}

function boardHelp(g) {
  if (!splitting(g)) return 'Click a match to take it and every match to its right. Keyboard: ↑ ↓ heap, ← → how many, Enter.';
  const runs = g.legal_moves.some((m) => m.take > 0);
  const gaps = g.legal_moves.some((m) => m.take === 0);
  const text = [];
  if (runs) text.push('Drag across a run of adjacent objects to take them, or click one to take it alone; what is left on each side becomes a row of its own.');
  if (gaps) text.push('Click the gap between two objects to split the row there without taking any.');
  if (runs) text.push('Keyboard: ↑ ↓ heap, ← → how many from the right, Enter.');
  return text.join(' ');
}

function controlsView(s) {
  const g = s.game;
  const parts = [];
  if (s.replay !== null || g.status === 'over') {
    const total = g.moves.length;
    const at = s.replay === null ? total : s.replay;
    parts.push(h('div', { class: 'replay', id: 'replay' },
      h('span', { class: 'label' }, 'Replay'),
      h('button', { type: 'button', onclick: () => { s.replay = 0; render(s); }, 'aria-label': 'First position' }, '⏮'),
      h('button', { type: 'button', id: 'replay-back', onclick: () => stepReplay(s, -1), 'aria-label': 'Back one move' }, '◀'),
      h('input', { type: 'range', min: 0, max: total, value: at, 'aria-label': 'Move', oninput: (e) => { s.replay = Number(e.target.value); if (s.replay === total && g.status !== 'over') s.replay = null; render(s); } }),
      h('button', { type: 'button', id: 'replay-forward', onclick: () => stepReplay(s, 1), 'aria-label': 'Forward one move' }, '▶'),
      h('button', { type: 'button', onclick: () => { s.replay = g.status === 'over' ? total : null; render(s); }, 'aria-label': 'Last position' }, '⏭'),
      h('span', { class: 'muted', id: 'replay-at' }, at === 0 ? 'start' : `after move ${at} of ${total}`)));
  } else if (g.moves.length) {
    parts.push(h('button', { type: 'button', class: 'link', onclick: () => { s.replay = g.moves.length - 1; render(s); } }, '◀ Step back through the game'));
  }
  if (canMove(s)) {
    const input = h('input', { id: 'move-input', placeholder: 'Type a move, e.g. ' + (g.legal_moves[0] ? g.legal_moves[0].notation : 'A 1'), autocomplete: 'off', 'aria-label': 'Move' });
    parts.push(h('form', {
      class: 'row type-move',
      onsubmit: (e) => { e.preventDefault(); if (input.value.trim()) submitMove(s, input.value.trim()); },
    }, input, h('button', { type: 'submit' }, 'Move')));
    if (g.heaps) parts.push(h('p', { class: 'help', id: 'board-help' }, boardHelp(g)));
    else if (ringOf(g, g.position)) parts.push(h('p', { class: 'help', id: 'board-help' }, 'Click objects to select a run of adjacent ones (it may wrap from the last place to place 1), then Take. Click a selected object again to drop it.'));
    const list = h('div', { class: 'move-list', id: 'legal-moves' }, g.legal_moves.map((m) => {
      const v = moveValue(s, m);
      return h('button', { type: 'button', class: 'move ' + (v || ''), onclick: () => submitMove(s, m.notation), title: m.text }, m.notation);
    }));
    parts.push(h('details', { open: !g.heaps && !ringOf(g, g.position) }, h('summary', {}, `All legal moves (${g.legal_moves.length})`), list));
  }
  if (g.status === 'over') {
    parts.push(h('div', { class: 'row end' },
      h('button', { type: 'button', class: 'primary', id: 'rematch', onclick: () => rematch(s) }, 'Play again'),
      h('a', { href: '/', 'data-link': true, class: 'button' }, 'New game')));
  }
  return h('div', { class: 'controls' }, parts);
}

async function rematch(s) {
  const g = s.game;
  const body = { game: g.game, convention: g.convention, position: g.start, opponent: g.mode };
  if (g.mode === 'computer') body.level = g.level;
  body.first = g.first_seat === 0 ? 'you' : 'opponent';
  try {
    const grant = await api('POST', '/games', body);
    seats.save(grant.game.id, grant.seat, grant.token);
    if (grant.invite_url) sessionStorage.setItem('nimatron.invite.' + grant.game.id, grant.invite_url);
    navigate('/play/' + grant.game.id);
  } catch (e) { s.message = { kind: 'error', text: e.message }; render(s); }
}

function nimTableView(t) {
  const lead = t.nim_sum ? t.bits - 1 - Math.floor(Math.log2(t.nim_sum)) : -1;
  const cols = [];
  for (let b = t.bits - 1; b >= 0; b--) cols.push(2 ** b);
  const cells = (bin) => bin.split('').map((c, i) => h('td', { class: 'bit' + (c === '1' ? ' one' : '') + (i === lead ? ' lead' : '') }, c));
  return h('table', { class: 'nim-table', id: 'nim-table' },
    h('thead', {}, h('tr', {}, h('th', {}, 'heap'), h('th', {}, 'size'), cols.map((c, i) => h('th', { class: i === lead ? 'lead' : '' }, c + 's')))),
    h('tbody', {}, t.rows.map((r) => h('tr', {}, h('th', {}, r.name), h('td', { class: 'num' }, r.size), cells(r.binary)))),
    h('tfoot', {}, h('tr', {}, h('th', {}, 'nim-sum'), h('td', { class: 'num' }, t.nim_sum), cells(t.nim_sum_binary))));
}

function analysisView(s) {
  if (!s.analysisOn) {
    return h('section', { class: 'card analysis off' }, h('h2', {}, 'Analysis'),
      h('p', { class: 'muted' }, 'Off, so as not to spoil the game. Turn it on to colour every move winning or losing and to see why.'));
  }
  const box = h('section', { class: 'card analysis', id: 'analysis' }, h('h2', {}, 'Analysis'));
  if (s.analysisError) { box.append(h('p', { class: 'error' }, s.analysisError)); return box; }
  if (!s.analysis) { box.append(h('p', { class: 'muted' }, 'Solving…')); return box; }
  const a = s.analysis.current;
  const n = names(s);
  if (a && s.replay === null) {
    const mover = n[s.game.to_move];
    const verdict = a.outcome === 'N'
      ? `${mover} ${mover === 'You' ? 'are' : 'is'} winning: a winning move exists.`
      : `${mover} ${mover === 'You' ? 'are' : 'is'} losing against perfect play: every move leaves a win for the other side.`;
    box.append(h('p', { class: 'verdict ' + (a.outcome === 'N' ? 'winning' : 'losing'), id: 'verdict' }, verdict));
    if (a.winning_moves.length) {
      box.append(h('p', { id: 'best-move' }, 'Winning move' + (a.winning_moves.length > 1 ? 's' : '') + ': ',
        a.winning_moves.map((m, i) => [i ? ', ' : '', h('b', { class: 'win-text' }, m.text)])));
    }
    box.append(h('p', { class: 'legend' }, h('span', { class: 'swatch winning' }), ' winning move ', h('span', { class: 'swatch losing' }), ' losing move'));
    if (a.nim_table) box.append(nimTableView(a.nim_table));
    else if (a.grundy !== null && a.grundy !== undefined) box.append(h('p', {}, 'Sprague–Grundy value: ', h('b', {}, a.grundy)));
    box.append(h('details', { open: true, class: 'explanation' }, h('summary', {}, 'Why'), h('pre', { id: 'explanation' }, a.explanation)),
      h('p', { class: 'muted small' }, a.method));
  } else if (s.replay !== null) {
    box.append(h('p', { class: 'muted' }, 'Replaying: the move values below judge each move.'));
  }
  return box;
}

function movesView(s, n) {
  const g = s.game;
  const review = s.analysisOn && s.analysis ? s.analysis.history : null;
  const items = g.moves.map((m, i) => {
    const r = review && review[i];
    const mark = r ? { winning: ['✓', 'kept the win'], blunder: ['✗', 'threw away a win'], lost: ['·', 'already lost'] }[r.value] : null;
    return h('li', { class: (r ? r.value : '') + (s.replay === i + 1 ? ' current' : ''), onclick: () => { s.replay = i + 1 === g.moves.length && g.status !== 'over' ? null : i + 1; render(s); } },
      h('span', { class: 'ply' }, m.ply + '.'),
      h('span', { class: 'who' }, n[m.seat]),
      h('span', { class: 'what' }, m.text),
      mark ? h('span', { class: 'mark', title: mark[1] }, mark[0], h('span', { class: 'mark-text' }, ' ' + mark[1])) : null);
  });
  return h('section', { class: 'card moves' }, h('h2', {}, 'Moves'),
    g.moves.length ? h('ol', { id: 'move-history' }, items) : h('p', { class: 'muted' }, 'No moves yet. Start: ' + g.start),
    g.moves.length ? h('p', { class: 'muted small' }, 'Click a move to see the position after it.') : null);
}

// ---------- explore ----------

async function explorePage() {
  const root = app();
  const params = new URLSearchParams(location.search);
  const form = h('form', { class: 'card explore-form', id: 'explore-form' },
    h('h1', {}, 'Explore a heap game'),
    h('div', { class: 'row wrap' },
      h('label', {}, 'Game ', h('input', { name: 'game', value: params.get('game') || 'nim', spellcheck: 'false' })),
      h('label', {}, 'Grundy values up to N = ', h('input', { name: 'to', type: 'number', min: 1, max: 1000, value: params.get('to') || 64 })),
      h('label', {}, 'P-positions of ', h('select', { name: 'heaps' }, [1, 2, 3].map((k) => h('option', { value: k, selected: String(k) === (params.get('heaps') || '2') }, k))), ' heaps'),
      h('label', {}, 'up to ', h('input', { name: 'max', type: 'number', min: 1, max: 20, value: params.get('max') || 10 })),
      h('label', {}, h('select', { name: 'convention' }, h('option', { value: 'normal' }, 'normal play'), h('option', { value: 'misere', selected: params.get('convention') === 'misere' }, 'misère play'))),
      h('button', { type: 'submit', class: 'primary' }, 'Compute')));
  const out = h('div', { id: 'explore-out' });
  root.replaceChildren(form, out);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const q = new URLSearchParams(new FormData(form));
    history.replaceState(null, '', '/explore?' + q);
    run(q);
  });
  async function run(q) {
    out.replaceChildren(h('p', { class: 'muted' }, 'Computing…'));
    try {
      const e = await api('GET', '/explore?' + q);
      out.replaceChildren(exploreView(e));
    } catch (err) { showError(out, err); }
  }
  run(new URLSearchParams(new FormData(form)));
}

function exploreView(e) {
  const v = e.values;
  const maxV = Math.max(1, ...v);
  const W = 720, H = 220, pad = 28;
  const bw = (W - pad) / Math.max(1, v.length);
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', `0 0 ${W} ${H + 20}`);
  svg.setAttribute('class', 'plot');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', `Grundy values of ${e.game} for heaps 0 to ${v.length - 1}`);
  const add = (tag, attrs, text) => {
    const el = document.createElementNS('http://www.w3.org/2000/svg', tag);
    for (const [k, val] of Object.entries(attrs)) el.setAttribute(k, val);
    if (text !== undefined) el.textContent = text;
    svg.append(el);
    return el;
  };
  add('line', { x1: pad, y1: H, x2: W, y2: H, class: 'axis' });
  add('text', { x: 2, y: 12, class: 'tick' }, maxV);
  add('text', { x: 2, y: H, class: 'tick' }, 0);
  if (e.period && e.preperiod < v.length) {
    const x0 = pad + e.preperiod * bw;
    add('rect', { x: x0, y: 0, width: Math.min(W - x0, e.period * bw), height: H, class: 'period-band' });
  }
  v.forEach((g, n) => {
    const hgt = g === 0 ? 3 : (g / maxV) * (H - 16);
    const r = add('rect', { x: pad + n * bw + bw * 0.1, y: H - hgt, width: Math.max(1, bw * 0.8), height: hgt, class: g === 0 ? 'bar zero' : 'bar' });
    const t = document.createElementNS('http://www.w3.org/2000/svg', 'title');
    t.textContent = `g(${n}) = ${g}`;
    r.append(t);
  });
  const step = Math.max(1, Math.ceil(v.length / 16));
  for (let n = 0; n < v.length; n += step) add('text', { x: pad + n * bw + bw / 2, y: H + 14, class: 'tick', 'text-anchor': 'middle' }, n);

  const note = e.period_note[0].toUpperCase() + e.period_note.slice(1) + '.';
  const periodText = e.period
    ? `Period ${e.period}, preperiod ${e.preperiod}: g(n + ${e.period}) = g(n) for every n ≥ ${e.preperiod}${e.proven ? '' : ' up to ' + e.computed_to}. ${note}`
    : note;
  const source = e.source === 'sequence'
    ? `Values and period from the Grundy-sequence engine, which computed g(0) … g(${e.computed_to}); the first ${v.length} are shown.`
    : 'Values from the game\'s own solver, one heap at a time.';
  const valuesTable = h('div', { class: 'values', id: 'grundy-values' }, v.map((g, n) => h('span', { class: 'value' + (g === 0 ? ' zero' : '') }, h('i', {}, n), h('b', {}, g))));
  const section = h('div', { class: 'explore' },
    h('section', { class: 'card' }, h('h2', {}, `Grundy values of ${e.game}: g(0) … g(${v.length - 1})`),
      svg, h('p', { id: 'period', class: e.proven ? 'proven' : '' }, periodText),
      h('p', { class: 'muted small', id: 'values-source' }, source),
      e.values_error ? h('p', { class: 'error' }, e.values_error) : null,
      h('p', { class: 'muted small' }, 'Shaded: one period. Flat marks: g(n) = 0, heaps that are P-positions on their own.'),
      valuesTable),
    h('section', { class: 'card' }, h('h2', {}, `P-positions of ${e.heaps} heap${e.heaps > 1 ? 's' : ''} up to ${e.max} (${e.convention === 'misere' ? 'misère' : 'normal'} play)`),
      h('p', { class: 'muted' }, 'The player to move loses from these: whoever moves into one can keep winning.'),
      e.p_positions_error ? h('p', { class: 'error' }, e.p_positions_error) : null,
      e.heaps === 2 ? pGrid(e) : h('p', { class: 'mono p-list', id: 'p-positions' }, e.p_positions.map((p) => '(' + p.join(', ') + ')').join('  '))));
  return section;
}

function pGrid(e) {
  const set = new Set(e.p_positions.map((p) => p.join(',')));
  const header = h('tr', {}, h('th', {}, ''), Array.from({ length: e.max + 1 }, (_, b) => h('th', {}, b)));
  const rows = Array.from({ length: e.max + 1 }, (_, a) => h('tr', {}, h('th', {}, a),
    Array.from({ length: e.max + 1 }, (_, b) => {
      const p = set.has([Math.min(a, b), Math.max(a, b)].join(','));
      return h('td', { class: p ? 'p' : '', title: `${a} ${b}: ${p ? 'P (loss for the player to move)' : 'N'}` }, p ? 'P' : '');
    })));
  return h('table', { class: 'p-grid', id: 'p-positions' }, h('thead', {}, header), h('tbody', {}, rows));
}

route();
