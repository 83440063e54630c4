// The game page: loading and watching a game, the status line, the board,
// moves by click, tap, drag, keyboard or typing, the computer's reply
// (asked for on its own, so that the player's move shows at once and a
// slow reply can be cancelled), replay, the invite link, take-backs,
// resigning, agreeing to the analysis online, and rematches. The boards
// and the side panels draw from the state `s` and call back through
// `s.submit(move)` and `s.render()`. Moves are said to screen readers
// through the page's live region, and the page's title names the game and
// whose turn it is.

import { h, app, announce, reducedMotion, setTitle, showError, touchScreen } from './dom.js';
import { api, invites, loadCatalogue, seats, titleOf, watchGame } from './api.js';
import { navigate, onLeave, reachedInApp } from './router.js';
import { canMove, moveValue, names, replayPosition } from './play-state.js';
import { choicesView, drawBoard } from './board.js';
import { analysisView, movesView } from './analysis.js';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// How long the player's own move stays on the board before the computer's
// reply replaces it, when the reply comes at once (none with reduced motion).
const HOLD_MS = 220;
// How long the server may take before the page says the computer thinks.
const THINKING_AFTER_MS = 150;
// Moves said within this time of each other are said together.
const SAY_TOGETHER_MS = 1500;

export function playPage(id) {
  const root = app();
  const params = new URLSearchParams(location.search);
  const s = {
    id, game: null, mine: seats.load(id), analysisOn: false, analysis: null, analysisPly: -1,
    replay: null, busy: false, thinking: null, taking: null, drag: null, message: null, pending: null,
    positions: new Map(), movedAt: 0, frame: null, announced: -1, first: reachedInApp(),
  };
  root.replaceChildren(h('p', { class: 'muted' }, 'Loading…'));
  setTitle('Game');

  const invite = params.get('invite');
  const start = async () => {
    if (invite && !(s.mine && s.mine.token)) {
      try {
        const grant = await api('POST', `/games/${id}/join`, { invite });
        seats.save(id, grant.seat, grant.token);
        s.mine = { seat: grant.seat, token: grant.token };
      } catch (e) {
        s.message = { kind: 'error', text: 'Could not join: ' + sentence(e.message) + ' You can still watch.' };
      }
      history.replaceState(null, '', '/play/' + id);
    }
    let g;
    try {
      [g, s.catalogue] = await Promise.all([api('GET', '/games/' + id), loadCatalogue().catch(() => null)]);
      // A graph keeps the places of its first board, so that vertices stay
      // put as others go.
      if (g.geometry.kind === 'graph') {
        if (g.ply === 0) s.frame = g.geometry;
        else {
          const first = await api('GET', `/games/${id}/positions/0`);
          s.positions.set(0, first);
          s.frame = first.geometry;
        }
      }
    } catch (e) { return showError(root, e); }
    setGame(g);
    onLeave(watchGame(id, (next) => {
      if (s.busy || s.thinking) { s.pending = next; return; }
      if (newer(next, s.game)) setGame(next);
    }));
  };

  // Whether the keyboard was used last (its focus previews moves).
  const keyHandler = (e) => { s.keyboard = true; onKey(s, e); };
  document.addEventListener('keydown', keyHandler);
  onLeave(() => {
    document.removeEventListener('keydown', keyHandler);
    if (s.thinking) s.thinking.ctl.abort();
  });

  // A new state of the game: drawn, its new moves said, and the computer
  // asked to move if it is its turn.
  function setGame(g) {
    const old = s.game;
    // A take-back rewrites the record from its ply on: forget what was
    // drawn or solved from the old one.
    if (old && g.ply <= old.ply && g.updated_at !== old.updated_at) {
      for (const k of [...s.positions.keys()]) if (k > 0) s.positions.delete(k);
      s.analysis = null;
      s.analysisPly = -1;
      if (s.replay !== null && s.replay > g.moves.length) s.replay = null;
      s.announced = Math.min(s.announced, g.ply);
    }
    // The rematch has just been made: a player goes to it (with the seat
    // and token the server confirms); a watcher is offered a link.
    if (old && !old.rematch.game && g.rematch.game && s.mine && !s.followed) {
      s.followed = true;
      followRematch(s);
    }
    if (old && g.ply > old.ply) s.movedAt = Date.now();
    s.game = g;
    allMoves(s, g);
    s.names = names(s);
    // Online, the switch is this seat's answer as the server holds it, and
    // nothing solved stays on screen once the analysis may not be shown.
    if (needsConsent(s)) s.analysisOn = g.analysis.agreed[s.mine.seat];
    if (!g.analysis.shown) { s.analysis = null; s.analysisPly = -1; }
    render(s);
    say(s);
    if (s.analysisOn && g.analysis.shown) refreshAnalysis(s);
    if (computersTurn(s)) askComputer(s);
  }
  s.setGame = setGame;
  s.render = () => render(s);
  s.submit = (mv, atoms) => submitMove(s, mv, atoms);
  start();
}

// The most legal moves the page fetches for one position: the server's own
// bound on a playable position's moves (`--max-moves`, 100 000 unless set)
// is far below it; the cap only keeps a misconfigured server from filling
// the page's memory.
const MAX_FETCHED_MOVES = 200000;
// The most legal moves listed as buttons (the board and the typed move
// reach every one).
const MAX_MOVE_BUTTONS = 1000;

// A position with more legal moves than one game view lists
// (`legal_moves_truncated`): the rest are fetched a page at a time from
// `GET …/legal-moves`, so that every move can be made on the board. Until
// they are in, the board offers those listed and a typed move reaches all.
function allMoves(s, g) {
  const key = `${g.ply}|${g.position}`;
  const kept = s.moreMoves;
  if (kept && kept.key === key && kept.moves) {
    g.legal_moves = kept.moves;
    g.legal_moves_truncated = false;
    return;
  }
  if (!g.legal_moves_truncated || g.status !== 'playing' || (kept && kept.key === key)) return;
  const job = { key, moves: null, loaded: g.legal_moves.length, total: g.legal_moves_total, error: null };
  s.moreMoves = job;
  (async () => {
    const moves = g.legal_moves.slice();
    try {
      while (moves.length < Math.min(job.total, MAX_FETCHED_MOVES)) {
        const page = await api('GET', `/games/${s.id}/legal-moves?offset=${moves.length}`);
        if (s.moreMoves !== job) return;
        if (!page.moves.length) break;
        moves.push(...page.moves);
        job.loaded = moves.length;
        const note = document.getElementById('moves-loading');
        if (note) note.textContent = loadingWords(job);
        if (!page.more) break;
      }
    } catch (e) {
      if (s.moreMoves !== job) return;
      job.error = e.message;
      render(s);
      return;
    }
    job.moves = moves;
    const now = s.game;
    if (now && `${now.ply}|${now.position}` === key) {
      now.legal_moves = moves;
      now.legal_moves_truncated = false;
      render(s);
    }
  })();
}

const loadingWords = (job) => `Loading the position's ${job.total} moves (${job.loaded} so far); the board offers those loaded.`;

// Whether `a` is a later state of the game than `b`.
const newer = (a, b) => !b || a.updated_at > b.updated_at || a.ply > b.ply || a.status !== b.status;

// A message as a sentence: with its full stop.
const sentence = (t) => (/[.!?]$/.test(t) ? t : t + '.');

// A move's words inside a sentence: a capital that starts a word in
// lower case goes ("Take 2" → "take 2"); "X on a1" keeps its X.
const inSentence = (text) => text.replace(/^[A-Z](?=[a-z])/, (c) => c.toLowerCase());

// A name inside a sentence: "your friend", "you"; others as they are.
const lowerName = (name) => (name === 'You' || name === 'Your friend' ? name.toLowerCase() : name);

// Whether this browser should ask the computer to move now.
function computersTurn(s) {
  const g = s.game;
  return g.mode === 'computer' && g.status === 'playing' && !!s.mine && g.to_move !== s.mine.seat &&
    !s.busy && !s.thinking && s.replay === null;
}

// Say the moves not yet said, and what now: "Nimatron: take 2 from heap
// A. Your move." The first state of a page says the game and whose turn.
function say(s) {
  const g = s.game;
  const n = s.names;
  if (s.announced < 0) {
    s.announced = g.ply;
    announce(`${titleOf(g.game, s.catalogue)}${g.mode === 'computer' ? ' against Nimatron' : ''}. ${turnWords(s)}`);
    return;
  }
  if (g.ply <= s.announced) return;
  // A reply that follows the move said last within a moment (the
  // computer's or the friend's) would cut it off before it is read: the
  // two are said together, so that the player's own move is heard too. At
  // one screen each move is the player's own tap, said alone.
  const now = performance.now();
  const from = g.mode !== 'local' && s.said && now - s.said.at < SAY_TOGETHER_MS ? Math.min(s.said.from, s.announced) : s.announced;
  // By ply: a long game's view lists only its last moves.
  const said = g.moves.filter((m) => m.ply > from).map((m) => `${n[m.seat]}: ${inSentence(m.text)}.`);
  s.said = { at: now, from };
  s.announced = g.ply;
  announce(`${said.join(' ')} ${turnWords(s)}`);
}

// Whose turn it is, or how the game ended, as a sentence.
function turnWords(s) {
  const g = s.game;
  const n = s.names;
  if (g.status === 'waiting') return 'Waiting for your friend to open the invite link.';
  if (g.status === 'over') return resultWords(s);
  const who = n[g.to_move];
  if (who === 'You') return 'Your move.';
  return `${who} to move.`;
}

function resultWords(s) {
  const g = s.game;
  const n = s.names;
  const last = g.moves[g.moves.length - 1];
  const winner = n[g.winner];
  const won = winner === 'You' ? 'You win!' : winner + (winner === 'Your friend' ? ' wins.' : ' wins!');
  if (g.resigned !== null && g.resigned !== undefined) return `${n[g.resigned]} resigned. ${won}`;
  if (!last) return won;
  const mover = n[last.seat];
  const why = g.convention === 'misere'
    ? `${mover} made the last move; in misère play that loses.`
    : `${mover} made the last move; in normal play that wins.`;
  return `${won} ${why}`;
}

// The title: the game, then whose turn it is or how it ended.
function titleWords(s) {
  const g = s.game;
  const n = s.names;
  const name = titleOf(g.game, s.catalogue);
  let what;
  if (g.status === 'waiting') what = 'waiting for your friend';
  else if (g.status === 'over') {
    const w = n[g.winner];
    what = w === 'You' ? 'you won' : `${lowerName(w).replace(/^Player/, 'player')} ${w === 'Nimatron' ? 'won' : 'wins'}`;
  } else if (s.thinking && s.thinking.shown) what = 'Nimatron is thinking';
  else {
    const who = n[g.to_move];
    what = who === 'You' ? 'your move' : `${lowerName(who).replace(/^Player/, 'player')} to move`;
  }
  return `${name}: ${what}`;
}

function statusLine(s) {
  const g = s.game;
  const n = s.names;
  if (g.status === 'waiting') return 'Waiting for your friend to open the invite link…';
  if (g.status === 'over') return resultWords(s);
  if (s.taking) return `${n[g.to_move]}: ${inSentence(s.taking.m.text)}…`;
  if (s.busy) return 'Moving…';
  const last = g.moves[g.moves.length - 1];
  const lastText = last ? `${n[last.seat]}: ${inSentence(last.text)}.` : '';
  const who = n[g.to_move];
  let now;
  if (s.thinking && s.thinking.shown) {
    // Only while the server has not answered: how long, and a way out.
    now = h('span', { id: 'thinking' }, 'Nimatron is thinking… ', h('span', { id: 'thinking-time', class: 'muted' }, thinkingTime(s)), ' ',
      h('button', { type: 'button', id: 'cancel-thinking', onclick: () => cancelThinking(s) }, 'Cancel and take back your move'));
  } else if (!s.mine) now = who + ' to move. You are watching.';
  else if (g.mode === 'local') now = who + ' to move.';
  else if (who === 'You') now = 'Your move.';
  else if (who === 'Nimatron') now = 'Nimatron to move.';
  else now = 'Waiting for your friend to move…';
  return lastText ? [h('span', { class: 'last-move', id: 'last-move' }, lastText + ' '), now] : now;
}

function thinkingTime(s) {
  const seconds = s.thinking ? Math.floor((performance.now() - s.thinking.since) / 1000) : 0;
  return seconds >= 1 ? `${seconds} s` : '';
}

// Play a move (a legal move, or typed notation). The pieces it takes are
// marked at once; against the computer the move is sent alone, shown, and
// the computer's reply asked for next.
async function submitMove(s, mv, atoms) {
  if (!canMove(s)) return;
  const g = s.game;
  const notation = typeof mv === 'string' ? mv : mv.notation;
  s.busy = true;
  s.taking = typeof mv === 'string' ? null : { m: mv, atoms };
  s.message = null;
  s.pointer = null;
  render(s);
  try {
    const body = { move: notation, ply: g.ply };
    if (g.mode === 'computer') body.reply = false;
    const reply = await api('POST', `/games/${s.id}/moves`, body, s.mine.token);
    s.busy = false;
    s.taking = null;
    let next = reply.game;
    if (s.pending && newer(s.pending, next)) next = s.pending;
    s.pending = null;
    s.setGame(next);
  } catch (e) {
    s.busy = false;
    s.taking = null;
    s.message = { kind: 'error', text: e.message };
    if (e.code === 'stale_ply' || e.code === 'not_your_turn') {
      try { s.setGame(await api('GET', '/games/' + s.id)); return; } catch (_) { /* keep */ }
    }
    render(s);
  }
}

// Ask the server for the computer's move. "Thinking" shows only if the
// server takes a while, with the time and a way to cancel; an answer that
// comes at once waits a moment so that the player's own move is seen
// (not with reduced motion).
async function askComputer(s) {
  const g = s.game;
  const t = { since: performance.now(), ctl: new AbortController(), ply: g.ply, shown: false };
  s.thinking = t;
  const shownAt = s.movedAt;
  t.timer = setTimeout(() => { if (s.thinking === t) { t.shown = true; render(s); } }, THINKING_AFTER_MS);
  t.ticker = setInterval(() => {
    const el = document.getElementById('thinking-time');
    if (el) el.textContent = thinkingTime(s);
  }, 500);
  const done = () => { clearTimeout(t.timer); clearInterval(t.ticker); };
  try {
    const reply = await api('POST', `/games/${s.id}/computer-move`, { ply: t.ply }, s.mine.token, t.ctl.signal);
    done();
    if (s.thinking !== t) return;
    t.shown = false;
    const wait = reducedMotion() ? 0 : HOLD_MS - (Date.now() - shownAt);
    if (wait > 0) {
      render(s);
      await sleep(wait);
      if (s.thinking !== t) return;
    }
    s.thinking = null;
    let next = reply.game;
    if (s.pending && newer(s.pending, next)) next = s.pending;
    s.pending = null;
    s.setGame(next);
  } catch (e) {
    done();
    if (s.thinking !== t) return;
    s.thinking = null;
    if (e.name === 'AbortError') return;
    s.message = { kind: 'error', text: e.message };
    try { s.setGame(await api('GET', '/games/' + s.id)); } catch (_) { render(s); }
  }
}

// Cancel a slow computer move: stop waiting, and take back the player's
// move, which the server does at once (the computer's move, when it comes,
// is then refused).
async function cancelThinking(s) {
  const t = s.thinking;
  if (!t) return;
  s.thinking = null;
  t.ctl.abort();
  s.busy = true;
  render(s);
  try {
    const reply = await api('POST', `/games/${s.id}/undo`, { ply: t.ply }, s.mine.token);
    s.busy = false;
    s.pending = null;
    s.message = { kind: 'info', text: 'Your move was taken back: Nimatron did not move. It is your move again.' };
    s.setGame(reply.game);
    // The keyboard goes back to the board, to move again.
    setTimeout(() => { const el = /** @type {HTMLElement | null} */ (document.querySelector('#board [tabindex="0"]:not(:disabled)')); if (el) el.focus({ preventScroll: true }); }, 0);
  } catch (e) {
    s.busy = false;
    s.message = { kind: 'error', text: e.message };
    try { s.setGame(await api('GET', '/games/' + s.id)); } catch (_) { render(s); }
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
      s.setGame(await api('POST', `/games/${s.id}/analysis-consent`, { agree: on }, s.mine.token));
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
  if (!s.game || e.target.closest('input, textarea, select, #board, #choices, #confirm-move')) return;
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
  if (computersTurn(s)) askComputer(s);
}

function render(s) {
  const g = s.game;
  const root = app();
  if (!g) return;
  s.names = names(s);
  // Keep the keyboard where it was: the same board element or control. A
  // board redrawn while a move plays has no element to hold it, so the
  // board remembers that it had the focus until it can take it back.
  const active = /** @type {HTMLElement | null} */ (document.activeElement);
  let focusKey = null;
  if (active && root.contains(active) && active !== root) {
    s.boardFocus = !!active.closest('#board');
    focusKey = active.dataset && active.dataset.atom ? { atom: active.dataset.atom }
      : (active.id === 'board' ? { atom: s.focusAtom || '' } : (active.id ? { id: active.id } : null));
  } else if ((!active || active === document.body) && s.boardFocus) {
    focusKey = { atom: s.focusAtom || '' };
  }
  const n = s.names;
  const convention = g.convention === 'misere' ? 'misère play: whoever moves last loses' : 'normal play: whoever moves last wins';
  const headerBits = [convention];
  if (g.mode === 'computer') headerBits.push('Nimatron (' + g.level + ')');
  const header = h('div', { class: 'game-head' },
    h('div', {}, h('h1', { id: 'game-title', tabindex: '-1' }, titleOf(g.game, s.catalogue)), h('p', { class: 'muted' }, headerBits.join(' · '))),
    h('label', { class: 'switch' }, h('input', {
      type: 'checkbox', id: 'analysis-toggle', checked: s.analysisOn,
      onchange: (e) => toggleAnalysis(s, e.target.checked),
    }), h('span', { class: 'slider', 'aria-hidden': 'true' }), h('span', {}, 'Analysis')));

  const over = g.status === 'over';
  // The status line is read on screen; screen readers hear the moves from
  // the page's live region (say), so it is no live region itself.
  const status = h('div', { class: 'status ' + (over ? 'over' : '') + (canMove(s) ? ' your-turn' : ''), id: 'status' }, statusLine(s));
  const message = s.message ? h('div', { class: 'notice ' + s.message.kind, id: 'message', role: s.message.kind === 'error' ? 'alert' : 'status' }, s.message.text) : null;

  const inviteBox = inviteView(s);
  const board = boardView(s);
  const controls = controlsView(s);
  const side = h('aside', { class: 'side' }, analysisView(s), movesView(s, n));
  root.replaceChildren(h('div', { class: 'play' },
    h('section', { class: 'card table' }, header, status, message, inviteBox, board, choicesView(s), controls), side));
  setTitle(titleWords(s));
  const history = document.getElementById('move-history');
  if (history && s.replay === null) history.scrollTop = history.scrollHeight;
  // The first drawing of a game reached from another page of the app (the
  // new-game form, a link, a rematch) puts the keyboard on the game, since
  // what had it is gone: on the board when the player can move, else on
  // its title.
  if (s.first) {
    s.first = false;
    if (!active || active === document.body || !document.contains(active)) {
      setTimeout(() => {
        if (document.activeElement && document.activeElement !== document.body) return;
        /** @type {HTMLElement | null} */
        const target = canMove(s) ? root.querySelector('#board [tabindex="0"]:not(:disabled)') : null;
        (target || document.getElementById('game-title')).focus({ preventScroll: true });
      }, 0);
    }
  }
  if (focusKey) {
    queueMicrotask(() => {
      /** @type {HTMLElement | null} */
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
  const input = h('input', { id: 'invite-link', readonly: true, value: full, 'aria-label': 'Invite link', onfocus: (e) => e.target.select() });
  return h('div', { class: 'invite' },
    h('p', {}, h('label', { for: 'invite-link' }, 'Send this link to your friend. It hands out the second seat, once:')),
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

// What the board takes, in a line, by the kind of board and the pieces
// the moves touch, in the words of the screen in hand.
function boardHelp(g) {
  const touch = touchScreen();
  const click = touch ? 'Tap' : 'Click';
  const kind = g.geometry.kind;
  const moves = g.legal_moves;
  const touched = new Set(moves.flatMap((m) => (m.touches || []).map((t) => t.kind)));
  // Whether a move takes more than the one piece it is made on (a bite,
  // a vertex's neighbours, what falls).
  const takesMore = moves.some((m) => (m.touches || []).length === 1 && ((m.trace && m.trace.removed) || []).length > 1);
  const shown = touch ? ' The move is shown first: tap again, or Play, to make it.' : ' Pointing at it shows what the move takes.';
  let text;
  switch (kind) {
    case 'heaps':
      if (touched.has('heap')) text = `${touch ? 'Tap' : 'Press'} the + beside a heap to place a stone on it.`;
      else if (g.geometry.rows_split) {
        const parts = [];
        if (touched.has('objects')) {
          parts.push(touch
            ? 'Tap an object, then a neighbour, to select a run of adjacent objects to take; tap an object twice to take it alone. Swipe a long row to scroll it.'
            : 'Click an object, then a neighbour, or drag across a run of adjacent objects to take it; click an object twice to take it alone.');
        }
        if (touched.has('gap')) parts.push(`${click} the gap between two objects to split the row there without taking any.`);
        text = parts.join(' ');
      } else {
        text = `${click} an object to take it and every object to its right.` +
          (touched.has('all_heaps') ? ' Or take the same number from every heap with the button below the heaps.' : '');
      }
      break;
    case 'ring': text = `${click} adjacent objects to choose a run (it may wrap past the last place), then pick the move.`; break;
    case 'grid':
      text = moves.some((m) => (m.touches || []).length > 1)
        ? `${click} the cells of a line to take them together${touch ? '' : ', or drag across them'}.`
        : `${click} a square to take it${takesMore ? ', and the squares that go with it' : ''}.`;
      break;
    case 'marks': text = `${click} an empty cell to put an X there.`; break;
    case 'graph':
      if (g.geometry.token !== null && g.geometry.token !== undefined) text = `${click} a vertex next to the token, or the edge to it, to move the token there.`;
      else if (touched.has('edge') && !touched.has('vertex')) text = `${click} an edge to cut it.`;
      else text = `${click} a vertex to take it${takesMore ? ', with every vertex joined to it' : ''}.`;
      break;
    case 'counter': text = `${click} a step.`; break;
    case 'words': text = `${click} the letters to take from a word: they must spell a word, and so must the letters left.`; break;
    default: text = 'Pick a move from the list, or type one.';
  }
  if (kind === 'text') return text;
  return text + shown + (touch ? '' : ' Keyboard: Tab to the board, arrow keys to move, Enter to play, Esc to clear.');
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
      h('button', { type: 'button', onclick: () => { s.replay = g.status === 'over' ? total : null; render(s); if (computersTurn(s)) askComputer(s); }, 'aria-label': 'Last position' }, '▶|'),
      h('span', { class: 'muted', id: 'replay-at' }, at === 0 ? 'start' : `after move ${at} of ${total}`)));
  } else if (g.moves.length) {
    parts.push(h('button', { type: 'button', class: 'link', id: 'step-back', onclick: () => { s.replay = g.moves.length - 1; render(s); } }, '◀ Step back through the game'));
  }
  if (canMove(s)) {
    const input = h('input', { id: 'move-input', placeholder: 'Type a move, e.g. ' + (g.legal_moves[0] ? g.legal_moves[0].notation : 'A 1'), autocomplete: 'off', 'aria-label': 'Move' });
    parts.push(h('form', {
      class: 'row type-move',
      onsubmit: (e) => { e.preventDefault(); if (input.value.trim()) submitMove(s, input.value.trim()); },
    }, input, h('button', { type: 'submit' }, 'Move')));
    parts.push(h('p', { class: 'help', id: 'board-help' }, boardHelp(g)));
    const listed = g.legal_moves.slice(0, MAX_MOVE_BUTTONS);
    const list = h('div', { class: 'move-list', id: 'legal-moves' }, listed.map((m) => {
      const v = moveValue(s, m);
      return h('button', { type: 'button', class: 'move ' + (v || ''), onclick: () => submitMove(s, m), title: m.text }, m.notation);
    }));
    const total = g.legal_moves_total || g.legal_moves.length;
    const more = total > listed.length
      ? h('p', { class: 'muted small', id: 'more-moves' }, `The first ${listed.length} of ${total} moves are listed here; type any move above, or make it on the board.`)
      : null;
    parts.push(h('details', { open: g.geometry.kind === 'text' }, h('summary', {}, `All legal moves (${total})`), list, more));
    const job = s.moreMoves;
    if (g.legal_moves_truncated && job && job.key === `${g.ply}|${g.position}`) {
      parts.push(h('p', { class: 'muted small', id: 'moves-loading' }, job.error
        ? `Only ${g.legal_moves.length} of the ${total} moves could be loaded (${sentence(job.error)}) Type any other move above.`
        : loadingWords(job)));
    }
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
  if (g.can_undo && !s.busy && !s.thinking && s.replay === null) {
    buttons.push(h('button', { type: 'button', id: 'undo', onclick: () => act(s, 'undo'), title: g.mode === 'computer' ? 'Take back your last move and Nimatron\'s reply' : 'Take back the last move' }, 'Take back'));
  }
  if (g.status === 'playing' && !s.busy && !s.thinking) {
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
      s.setGame(reply.game);
    } else if (what === 'resign') {
      s.setGame(reply);
    } else if (reply.rematch) {
      goToRematch(reply.rematch);
    } else {
      s.setGame(reply.game);
    }
  } catch (e) {
    s.message = { kind: 'error', text: e.message };
    try { s.setGame(await api('GET', '/games/' + s.id)); } catch (_) { render(s); }
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
