// The game page: loading and watching a game, the status line, the board,
// moves by click, drag, keyboard or typing, replay, the invite link,
// take-backs, resigning, agreeing to the analysis online, and rematches. The boards and the side panels draw from the state `s` and call
// back through `s.submit(notation)` and `s.render()`.

import { h, app, showError } from './dom.js';
import { api, invites, loadCatalogue, seats, watchGame } from './api.js';
import { navigate, onLeave } from './router.js';
import { canMove, moveValue, names, replayPosition } from './play-state.js';
import { choicesView, drawBoard } from './board.js';
import { analysisView, movesView } from './analysis.js';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export function playPage(id) {
  const root = app();
  const params = new URLSearchParams(location.search);
  const s = {
    id, game: null, mine: seats.load(id), analysisOn: false, analysis: null, analysisPly: -1,
    replay: null, busy: false, drag: null, message: null, pending: null, positions: new Map(), leaving: null,
  };
  root.replaceChildren(h('p', { class: 'muted' }, 'Loading…'));

  loadCatalogue().then((c) => { s.catalogue = c; if (s.game) render(s); }).catch(() => {});
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
    onLeave(watchGame(id, (g) => {
      if (s.busy) { s.pending = g; return; }
      if (!s.game || g.updated_at > s.game.updated_at || g.ply > s.game.ply || g.status !== s.game.status) setGame(g);
    }));
  };

  const keyHandler = (e) => onKey(s, e);
  document.addEventListener('keydown', keyHandler);
  onLeave(() => document.removeEventListener('keydown', keyHandler));

  // A new state of the game; a move seen arrive (the friend's, or one
  // watched) first leaves the old board, marked, for a moment.
  async function setGame(g, animate = true) {
    const old = s.game;
    // A take-back rewrites the record from its ply on: forget what was
    // drawn or solved from the old one.
    if (old && g.ply <= old.ply && g.updated_at !== old.updated_at) {
      s.positions.clear();
      s.analysis = null;
      s.analysisPly = -1;
      if (s.replay !== null && s.replay > g.moves.length) s.replay = null;
    }
    // The rematch has just been made: a player goes to it (with the seat
    // and token the server confirms); a watcher is offered a link.
    if (old && !old.rematch.game && g.rematch.game && s.mine && !s.followed) {
      s.followed = true;
      followRematch(s);
    }
    if (animate && old && g.ply === old.ply + 1 && s.replay === null && (g.last_touches || []).length) {
      s.leaving = { geometry: old.geometry, touches: g.last_touches };
      render(s);
      await sleep(320);
      s.leaving = null;
    }
    s.game = g;
    // Online, the switch is this seat's answer as the server holds it, and
    // nothing solved stays on screen once the analysis may not be shown.
    if (needsConsent(s)) s.analysisOn = g.analysis.agreed[s.mine.seat];
    if (!g.analysis.shown) { s.analysis = null; s.analysisPly = -1; }
    render(s);
    if (s.analysisOn && g.analysis.shown) refreshAnalysis(s);
  }
  s.setGame = setGame;
  s.render = () => render(s);
  s.submit = (notation) => submitMove(s, notation);
  start();
}

function statusLine(s) {
  const g = s.game;
  const n = names(s);
  if (g.status === 'waiting') return 'Waiting for your friend to open the invite link…';
  const last = g.moves[g.moves.length - 1];
  const lastText = last ? `${n[last.seat]}: ${last.text.replace(/^./, (c) => c.toLowerCase())}.` : '';
  if (g.status === 'over') {
    const winner = n[g.winner];
    const mover = last ? n[last.seat] : null;
    const won = winner === 'You' ? 'You win!' : winner + (winner === 'Your friend' ? ' wins.' : ' wins!');
    if (g.resigned !== null && g.resigned !== undefined) {
      const quitter = n[g.resigned];
      return `${quitter} resigned. ${won}`;
    }
    if (!mover) return won;
    const you = mover === 'You';
    const why = g.convention === 'misere'
      ? `${you ? 'You' : mover} made the last move; in misère play that loses.`
      : `${you ? 'You' : mover} made the last move; in normal play that wins.`;
    return `${won} ${why}`;
  }
  if (s.busy) {
    if (n[1 - (s.busyFor ?? 0)] !== 'Nimatron') return 'Moving…';
    // A slow reply shows that it is still on its way, second by second.
    return ['Nimatron is thinking… ', h('span', { id: 'thinking-time', class: 'muted' }, thinkingTime(s))];
  }
  const who = n[g.to_move];
  let now;
  if (!s.mine) now = who + ' to move. You are watching.';
  else if (g.mode === 'local') now = who + ' to move.';
  else now = who === 'You' ? 'Your move.' : (who === 'Nimatron' ? 'Nimatron is thinking…' : 'Waiting for your friend to move…');
  return lastText ? [h('span', { class: 'last-move', id: 'last-move' }, lastText + ' '), now] : now;
}

function thinkingTime(s) {
  const seconds = Math.floor((Date.now() - (s.busySince || Date.now())) / 1000);
  return seconds >= 1 ? `(${seconds} s; it solves the position before it moves)` : '';
}

// The game's name for people, from the catalogue: "Kayles", or "Subtraction
// game (1,2,3)" for parameters other than the catalogue's own.
function titleOf(spec, games) {
  const exact = (games || []).find((e) => e.spec === spec);
  if (exact) return exact.title;
  const name = spec.split(':')[0];
  const family = (games || []).find((e) => (e.spec || '').split(':')[0] === name);
  if (family) return `${family.title} (${spec.slice(name.length + 1)})`;
  return spec;
}

async function submitMove(s, notation) {
  if (!canMove(s)) return;
  const g = s.game;
  s.busy = true;
  s.busyFor = g.to_move;
  s.busySince = Date.now();
  s.message = null;
  render(s);
  const ticker = setInterval(() => {
    const el = document.getElementById('thinking-time');
    if (!s.busy) clearInterval(ticker);
    else if (el) el.textContent = thinkingTime(s);
  }, 500);
  try {
    const reply = await api('POST', `/games/${s.id}/moves`, { move: notation, ply: g.ply }, s.mine.token);
    // Each applied move leaves its board, marked, before the next is shown:
    // ours, then the computer's reply.
    let before = g;
    for (const [i, mv] of reply.applied.entries()) {
      if (!mv.touches || !mv.geometry) break;
      s.leaving = { geometry: before.geometry, touches: mv.touches };
      render(s);
      await sleep(i === 0 ? 220 : 380);
      s.leaving = null;
      if (i + 1 < reply.applied.length) {
        before = Object.assign({}, before, {
          geometry: mv.geometry, position: mv.after, moves: before.moves.concat([mv]), ply: mv.ply,
          legal_moves: [], to_move: 1 - before.to_move, last_touches: mv.touches,
        });
        s.game = before;
        render(s);
        await sleep(420);
      }
    }
    s.busy = false;
    clearInterval(ticker);
    let next = reply.game;
    if (s.pending && s.pending.ply > next.ply) next = s.pending;
    s.pending = null;
    s.setGame(next, false);
  } catch (e) {
    s.busy = false;
    clearInterval(ticker);
    s.message = { kind: 'error', text: e.message };
    if (e.code === 'stale_ply' || e.code === 'not_your_turn') {
      try { s.setGame(await api('GET', '/games/' + s.id)); return; } catch (_) { /* keep */ }
    }
    render(s);
  }
}

async function refreshAnalysis(s) {
  const g = s.game;
  if (!g || s.analysisPly === g.ply && s.analysis) { render(s); return; }
  if (!g.analysis.shown) { s.analysis = null; s.analysisPly = -1; render(s); return; }
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

// The analysis switch. In an online game under way it is this seat's
// answer: the analysis shows once both players have agreed.
async function toggleAnalysis(s, on) {
  s.analysisOn = on;
  const g = s.game;
  if (needsConsent(s)) {
    try {
      s.setGame(await api('POST', `/games/${s.id}/analysis-consent`, { agree: on }, s.mine.token), false);
    } catch (e) { s.message = { kind: 'error', text: e.message }; render(s); }
    return;
  }
  if (on && g.analysis.shown) refreshAnalysis(s); else render(s);
}

// Whether this browser holds a seat in an online game under way, whose
// analysis needs both players' agreement.
export function needsConsent(s) {
  const g = s.game;
  return g.mode === 'online' && g.status !== 'over' && !!s.mine;
}

function onKey(s, e) {
  // The board handles its own keys (board.js); these step through a replay.
  if (!s.game || e.target.closest('input, textarea, select, #board, #choices')) return;
  const g = s.game;
  if (s.replay !== null || g.status === 'over') {
    if (e.key === 'ArrowLeft') { stepReplay(s, -1); e.preventDefault(); }
    if (e.key === 'ArrowRight') { stepReplay(s, 1); e.preventDefault(); }
  }
}

function stepReplay(s, delta) {
  const total = s.game.moves.length;
  const at = s.replay === null ? total : s.replay;
  const next = Math.min(total, Math.max(0, at + delta));
  s.replay = next === total && s.game.status !== 'over' ? null : next;
  render(s);
}

function render(s) {
  const g = s.game;
  const root = app();
  if (!g) return;
  // Keep the keyboard where it was: the same board element or control. A
  // board redrawn while a move plays has no element to hold it, so the
  // board remembers that it had the focus until it can take it back.
  const active = document.activeElement;
  let focusKey = null;
  if (active && root.contains(active) && active !== root) {
    s.boardFocus = !!active.closest('#board');
    focusKey = active.dataset && active.dataset.atom ? { atom: active.dataset.atom }
      : (active.id === 'board' ? { atom: s.focusAtom || '' } : (active.id ? { id: active.id } : null));
  } else if ((!active || active === document.body) && s.boardFocus) {
    focusKey = { atom: s.focusAtom || '' };
  }
  const n = names(s);
  const convention = g.convention === 'misere' ? 'misère play: whoever moves last loses' : 'normal play: whoever moves last wins';
  const headerBits = [g.game, convention];
  if (g.mode === 'computer') headerBits.push('Nimatron (' + g.level + ')');
  const header = h('div', { class: 'game-head' },
    h('div', {}, h('h1', {}, titleOf(g.game, s.catalogue)), h('p', { class: 'muted' }, headerBits.slice(1).join(' · '))),
    h('label', { class: 'switch' }, h('input', {
      type: 'checkbox', id: 'analysis-toggle', checked: s.analysisOn,
      onchange: (e) => toggleAnalysis(s, e.target.checked),
    }), h('span', { class: 'slider', 'aria-hidden': 'true' }), h('span', {}, 'Analysis')));

  const over = g.status === 'over';
  const status = h('div', { class: 'status ' + (over ? 'over' : '') + (canMove(s) ? ' your-turn' : ''), id: 'status', role: 'status', 'aria-live': 'polite' }, statusLine(s));
  const message = s.message ? h('div', { class: 'notice ' + s.message.kind, id: 'message', role: 'alert' }, s.message.text) : null;

  const inviteBox = inviteView(s);
  const board = boardView(s);
  const controls = controlsView(s);
  const side = h('aside', { class: 'side' }, analysisView(s), movesView(s, n));
  root.replaceChildren(h('div', { class: 'play' },
    h('section', { class: 'card table' }, header, status, message, inviteBox, board, choicesView(s), controls), side));
  const history = document.getElementById('move-history');
  if (history && s.replay === null) history.scrollTop = history.scrollHeight;
  if (focusKey) {
    queueMicrotask(() => {
      let el = focusKey.atom !== undefined ? root.querySelector(`[data-atom="${CSS.escape(focusKey.atom)}"]:not(:disabled)`) : document.getElementById(focusKey.id);
      if (!el && focusKey.atom !== undefined) el = root.querySelector('#board [tabindex="0"]:not(:disabled)') || root.querySelector('#board');
      if (el) el.focus({ preventScroll: true });
    });
  }
}

function inviteView(s) {
  const g = s.game;
  const url = invites.load(g.id);
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

// The live board, or a replayed position (fetched once, then kept).
function boardView(s) {
  if (s.replay === null) return drawBoard(s, null);
  const view = s.positions.get(s.replay);
  if (view) return drawBoard(s, view);
  const ply = s.replay;
  api('GET', `/games/${s.id}/positions/${ply}`).then((v) => {
    s.positions.set(ply, v);
    if (s.replay === ply) render(s);
  }).catch((e) => { s.message = { kind: 'error', text: e.message }; render(s); });
  return h('div', { class: 'board text-board', id: 'board' }, h('pre', { id: 'board-text' }, replayPosition(s)));
}

// What the board takes, in a line, by the kind of board.
function boardHelp(g) {
  const kind = g.geometry.kind;
  const touched = new Set(g.legal_moves.flatMap((m) => (m.touches || []).map((t) => t.kind)));
  const splitHelp = [];
  if (touched.has('objects')) splitHelp.push('Click an object, then a neighbour, or drag across a run of adjacent objects to take it; click an object twice to take it alone.');
  if (touched.has('gap')) splitHelp.push('Click the gap between two objects to split the row there without taking any.');
  const text = {
    heaps: touched.has('heap') ? 'Press the + beside a heap to place a stone on it.'
      : g.geometry.rows_split ? splitHelp.join(' ')
      : 'Click an object to take it and every object to its right.' + (touched.has('all_heaps') ? ' Or take the same number from every heap with the button below the heaps.' : ''),
    ring: 'Click adjacent objects to choose a run (it may wrap past the last place), then pick the move.',
    grid: 'Click a cell to take it; drag across a line of cells to take them together.',
    marks: 'Click an empty cell to put an X there.',
    graph: 'Click a vertex or an edge.',
    counter: 'Click a step.',
    words: 'Click the letters to take from a word: they must spell a word, and so must the letters left.',
    text: 'Pick a move from the list, or type one.',
  }[kind] || 'Pick a move from the list, or type one.';
  // A touch screen with no pointer that hovers (a phone) is tapped, and
  // seldom has a keyboard.
  if (window.matchMedia('(hover: none) and (pointer: coarse)').matches) {
    return text.replace(/\bClick\b/g, 'Tap').replace(/\bclick\b/g, 'tap');
  }
  return text + (kind !== 'text' ? ' Keyboard: Tab to the board, arrow keys to move, Enter to play, Esc to clear.' : '');
}

function controlsView(s) {
  const g = s.game;
  const parts = [];
  if (s.replay !== null || g.status === 'over') {
    const total = g.moves.length;
    const at = s.replay === null ? total : s.replay;
    parts.push(h('div', { class: 'replay', id: 'replay' },
      h('span', { class: 'label' }, 'Replay'),
      h('button', { type: 'button', onclick: () => { s.replay = 0; render(s); }, 'aria-label': 'First position' }, '|◀'),
      h('button', { type: 'button', id: 'replay-back', onclick: () => stepReplay(s, -1), 'aria-label': 'Back one move' }, '◀'),
      h('input', { type: 'range', min: 0, max: total, value: at, 'aria-label': 'Move', oninput: (e) => { s.replay = Number(e.target.value); if (s.replay === total && g.status !== 'over') s.replay = null; render(s); } }),
      h('button', { type: 'button', id: 'replay-forward', onclick: () => stepReplay(s, 1), 'aria-label': 'Forward one move' }, '▶'),
      h('button', { type: 'button', onclick: () => { s.replay = g.status === 'over' ? total : null; render(s); }, 'aria-label': 'Last position' }, '▶|'),
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
    parts.push(h('p', { class: 'help', id: 'board-help' }, boardHelp(g)));
    const list = h('div', { class: 'move-list', id: 'legal-moves' }, g.legal_moves.map((m) => {
      const v = moveValue(s, m);
      return h('button', { type: 'button', class: 'move ' + (v || ''), onclick: () => submitMove(s, m.notation), title: m.text }, m.notation);
    }));
    parts.push(h('details', { open: g.geometry.kind === 'text' }, h('summary', {}, `All legal moves (${g.legal_moves.length})`), list));
  }
  const actions = actionsView(s);
  if (actions) parts.push(actions);
  return h('div', { class: 'controls' }, parts);
}

// Take back, resign (asked twice), and the rematch: at once against the
// computer or at one screen; online, offered to the friend, who sees the
// offer arrive and accepts it with the same button.
function actionsView(s) {
  const g = s.game;
  if (!s.mine) {
    if (g.rematch.game) return h('p', { id: 'rematch-note' }, h('a', { href: '/play/' + g.rematch.game, 'data-link': true }, 'Watch the rematch'));
    return null;
  }
  const buttons = [];
  if (g.can_undo && !s.busy && s.replay === null) {
    buttons.push(h('button', { type: 'button', id: 'undo', onclick: () => act(s, 'undo'), title: g.mode === 'computer' ? 'Take back your last move and Nimatron\'s reply' : 'Take back the last move' }, 'Take back'));
  }
  if (g.status === 'playing' && !s.busy) {
    if (s.confirmResign) {
      buttons.push(h('span', { class: 'confirm', id: 'resign-confirm' }, 'Resign this game? ',
        h('button', { type: 'button', class: 'danger', id: 'resign-yes', onclick: () => { s.confirmResign = false; act(s, 'resign'); } }, 'Yes, resign'),
        h('button', { type: 'button', id: 'resign-no', onclick: () => { s.confirmResign = false; render(s); } }, 'No')));
    } else {
      buttons.push(h('button', { type: 'button', id: 'resign', onclick: () => { s.confirmResign = true; render(s); document.getElementById('resign-no')?.focus(); } }, 'Resign'));
    }
  }
  const note = [];
  if (g.status === 'over') {
    const me = g.mode === 'online' ? s.mine.seat : 0;
    const offered = g.rematch.offered;
    let label = 'Play again';
    if (g.mode === 'online') {
      if (offered[me]) label = null;
      else label = offered[1 - me] ? 'Accept the rematch' : 'Offer a rematch';
      if (offered[me] && !g.rematch.game) note.push(h('p', { class: 'muted', id: 'rematch-note', role: 'status' }, 'Rematch offered. Waiting for your friend to accept…'));
      if (!offered[me] && offered[1 - me]) note.push(h('p', { id: 'rematch-note', role: 'status' }, 'Your friend offers a rematch, with the other player moving first.'));
    }
    if (label) buttons.push(h('button', { type: 'button', class: 'primary', id: 'rematch', onclick: () => act(s, 'rematch') }, label));
    buttons.push(h('a', { href: '/', 'data-link': true, class: 'button' }, 'New game'));
  }
  if (!buttons.length && !note.length) return null;
  return h('div', { class: 'actions' }, note, h('div', { class: 'row end' }, buttons));
}

async function act(s, what) {
  const g = s.game;
  s.message = null;
  try {
    const reply = await api('POST', `/games/${s.id}/${what}`, { ply: g.ply }, s.mine.token);
    if (what === 'undo') {
      s.replay = null;
      s.setGame(reply.game, false);
    } else if (what === 'resign') {
      s.setGame(reply, false);
    } else if (reply.rematch) {
      goToRematch(reply.rematch);
    } else {
      s.setGame(reply.game, false);
    }
  } catch (e) {
    s.message = { kind: 'error', text: e.message };
    try { s.setGame(await api('GET', '/games/' + s.id), false); } catch (_) { render(s); }
  }
}

// The rematch was made (by the friend's acceptance, seen on the event
// stream): ask for this seat's place in it, then go there.
async function followRematch(s) {
  try {
    const reply = await api('POST', `/games/${s.id}/rematch`, {}, s.mine.token);
    if (reply.rematch) goToRematch(reply.rematch);
  } catch (e) { s.message = { kind: 'error', text: e.message }; render(s); }
}

function goToRematch(grant) {
  seats.save(grant.game.id, grant.seat, grant.token);
  navigate('/play/' + grant.game.id);
}
