// The game page: loading and watching a game, the status line, the board,
// moves by click, drag, keyboard or typing, replay, the invite link and a
// rematch. The boards and the side panels draw from the state `s` and call
// back through `s.submit(notation)` and `s.render()`.

import { h, app, showError } from './dom.js';
import { api, createGame, invites, seats, watchGame } from './api.js';
import { navigate, onLeave } from './router.js';
import { findMove, heapName, parseHeapsText } from './moves.js';
import { canMove, moveValue, names, replayPosition } from './play-state.js';
import { boardHelp, heapBoard } from './heap-board.js';
import { ringOf, ringView } from './ring-board.js';
import { analysisView, movesView } from './analysis.js';

export function playPage(id) {
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
    onLeave(watchGame(id, (g) => {
      if (s.busy) { s.pending = g; return; }
      if (!s.game || g.ply > s.game.ply || g.status !== s.game.status) setGame(g);
    }));
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
  s.render = () => render(s);
  s.submit = (notation) => submitMove(s, notation);
  start();
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

function boardView(s) {
  const g = s.game;
  const position = replayPosition(s);
  const ring = ringOf(g, position);
  if (ring) return ringView(s, ring);
  const heaps = s.replay === null ? g.heaps : (g.heaps ? parseHeapsText(position) : null);
  if (!heaps) {
    return h('div', { class: 'board text-board' }, h('pre', { id: 'board-text' }, s.replay === null ? g.board : position));
  }
  return heapBoard(s, heaps);
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
    const grant = await createGame(body);
    navigate('/play/' + grant.game.id);
  } catch (e) { s.message = { kind: 'error', text: e.message }; render(s); }
}
