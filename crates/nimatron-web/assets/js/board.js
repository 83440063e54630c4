// The board of any game, drawn from the geometry the server sends
// (`game.geometry`: heaps, a ring, a grid, a graph, marks, a counter,
// words or text) and played through the elements that each legal move touches
// (`legal_moves[].touches`). The page never writes a move's notation and
// never guesses a game's shape: it sends the notation of the legal move
// that the player's selection stands for.
//
// How a selection becomes a move: a click or a drag gives a set of board
// elements (atoms). The candidates are the legal moves that touch every
// selected atom. One candidate is played at once; a finished gesture (a
// drag, a click that means "this and no more") plays the move that touches
// exactly the selection; otherwise the selection stays, and the moves it
// could still become are offered as buttons, to pick or to narrow by
// selecting more.

import { h } from './dom.js';
import { canMove, moveValue } from './play-state.js';
import { drawHeaps } from './heap-board.js';
import { drawRing } from './ring-board.js';
import { drawCounter, drawGraph, drawGrid, drawMarks, drawWords } from './shapes.js';

// The atoms of an element: an object run stands for each of its objects.
export function atomsOf(el) {
  switch (el.kind) {
    case 'objects': {
      const out = [];
      const end = el.start + Math.min(el.count, MAX_RUN);
      for (let k = el.start; k < end; k++) out.push(`o${el.heap}.${k}`);
      return out;
    }
    case 'gap': return [`g${el.heap}.${el.index}`];
    case 'heap': return [`h${el.heap}`];
    case 'letter': return [`l${el.word}.${el.index}`];
    case 'all_heaps': return ['all'];
    case 'place': return [`p${el.index}`];
    case 'cell': return [`c${el.at.join('.')}`];
    case 'vertex': return [`v${el.index}`];
    case 'edge': return [`e${el.index}`];
    case 'step': return [`s${el.amount}`];
    default: return [];
  }
}
const MAX_RUN = 4096;

// The legal moves by the atoms they touch, once per list of moves.
const indexes = new WeakMap();
export function moveIndex(moves) {
  let idx = indexes.get(moves);
  if (idx) return idx;
  // A move listed once may be made on several parts of the board (a run
  // and its mirror image): each of its element sets is an entry.
  const entries = moves.flatMap((m) => [m.touches || [], ...(m.also_touches || [])]
    .map((t) => ({ m, atoms: new Set(t.flatMap(atomsOf)) })));
  const byAtom = new Map();
  for (const e of entries) {
    for (const a of e.atoms) {
      if (!byAtom.has(a)) byAtom.set(a, []);
      byAtom.get(a).push(e);
    }
  }
  idx = { entries, byAtom };
  indexes.set(moves, idx);
  return idx;
}

// The moves that touch every atom of `set`, those touching exactly it first.
export function candidates(idx, set) {
  if (!set.size) return [];
  let smallest = null;
  for (const a of set) {
    const list = idx.byAtom.get(a);
    if (!list) return [];
    if (!smallest || list.length < smallest.length) smallest = list;
  }
  const out = smallest.filter((e) => [...set].every((a) => e.atoms.has(a)));
  return out.sort((x, y) => x.atoms.size - y.atoms.size);
}

function pick(s) {
  if (!s.pick || s.pick.ply !== s.game.ply) s.pick = { ply: s.game.ply, atoms: new Set(), choices: [] };
  return s.pick;
}

export function clearPick(s) {
  const p = pick(s);
  p.atoms = new Set();
  p.choices = [];
}

const same = (a, b) => a.size === b.size && [...a].every((x) => b.has(x));

// What a gesture selecting atoms `G` would do now, without doing it:
// { play: move } or { choices: [entries], atoms: Set } or { none: true }.
function resolve(s, G, opts) {
  const idx = moveIndex(s.game.legal_moves);
  const S = pick(s).atoms;
  let next = new Set(G);
  if (opts.merge && S.size && !G.every((a) => S.has(a))) {
    const U = new Set([...S].filter((a) => !(opts.group && a.startsWith(opts.group))));
    G.forEach((a) => U.add(a));
    if (candidates(idx, U).length) next = U;
  }
  let C = candidates(idx, next);
  // Heap suffixes (Nim's click) mean exactly those objects of each heap
  // selected, not more of it.
  if (opts.group) {
    const counts = new Map();
    for (const a of next) {
      if (a[0] !== 'o') continue;
      const g = a.slice(0, a.indexOf('.') + 1);
      counts.set(g, (counts.get(g) || 0) + 1);
    }
    C = C.filter((e) => [...counts].every(([g, n]) => [...e.atoms].filter((a) => a.startsWith(g)).length === n));
  }
  if (!C.length) return { none: true };
  const E = C.filter((e) => e.atoms.size === next.size);
  if (new Set(C.map((e) => e.m)).size === 1) return { play: C[0].m };
  if (opts.complete && E.length === 1) return { play: E[0].m };
  return { choices: opts.complete && E.length ? E : C, atoms: next };
}

// A click or drag that selects the atoms `G`. Options: `complete` (the
// gesture means exactly these atoms), `merge` (add to the selection when a
// move can touch both), `group` (a prefix of atoms the new ones replace),
// `toggle` (clicking a selected atom again confirms a lone selection, or
// drops it from a larger one) and `describe` (words for a refusal).
export function gesture(s, G, opts = {}) {
  if (!canMove(s)) return;
  const p = pick(s);
  s.message = null;
  if (opts.toggle && G.length === 1 && p.atoms.has(G[0])) {
    if (p.atoms.size === 1) {
      const exact = candidates(moveIndex(s.game.legal_moves), p.atoms).filter((e) => e.atoms.size === 1);
      if (exact.length === 1) { clearPick(s); s.submit(exact[0].m.notation); return; }
      clearPick(s);
    } else {
      p.atoms.delete(G[0]);
      p.choices = candidates(moveIndex(s.game.legal_moves), p.atoms);
    }
    s.render();
    return;
  }
  const r = resolve(s, G, opts);
  if (r.play) { clearPick(s); s.submit(r.play.notation); return; }
  if (r.none) {
    s.message = { kind: 'error', text: (opts.describe || 'That') + ' is not a legal move here.' };
    s.render();
    return;
  }
  p.atoms = r.atoms;
  p.choices = r.choices;
  s.render();
}

// The analysis colour of an element: the value of the move a click on it
// plays, or winning if some move through it wins, losing if all lose.
function hint(s, G, opts) {
  if (!s.analysisOn || !s.analysis) return null;
  const idx = moveIndex(s.game.legal_moves);
  const r = resolve(s, G, opts);
  if (r.play) return moveValue(s, r.play);
  const through = candidates(idx, new Set(G));
  if (!through.length) return null;
  const values = through.map((e) => moveValue(s, e.m));
  if (values.includes('winning')) return 'winning';
  return values.every((v) => v === 'losing') ? 'losing' : null;
}

// What the drawing functions get: the state, whether the board takes
// moves, and `element` to make each playable part of the board.
function context(s, geometry, marks) {
  const live = !marks.frozen && s.replay === null && canMove(s);
  const idx = moveIndex(live ? s.game.legal_moves : []);
  const S = live ? pick(s).atoms : new Set();
  return {
    s, geometry, live, idx,
    used: (atom) => live && idx.byAtom.has(atom),
    selected: (atom) => S.has(atom),
    // A button for a part of the board. `atoms` are what a click selects
    // (`opts` as for `gesture`); `nav` is [row, column] for the arrow keys.
    element(tag, { atoms, opts = {}, nav, label, cls = '', attrs = {}, key }, ...children) {
      const k = key || atoms[0];
      const usable = live && candidates(idx, new Set(atoms)).length > 0;
      const classes = [cls];
      if (atoms.some((a) => S.has(a))) classes.push('selected');
      if (atoms.some((a) => marks.last.has(a))) classes.push('last');
      if (atoms.some((a) => marks.leaving.has(a))) classes.push('leaving');
      if (usable) { const v = hint(s, atoms, opts); if (v) classes.push(v); }
      else if (live) classes.push('dead');
      const preview = usable ? resolve(s, atoms, opts) : null;
      const title = preview && preview.play ? preview.play.text : label;
      return h(tag, Object.assign({
        type: tag === 'button' ? 'button' : null,
        class: classes.filter(Boolean).join(' '),
        disabled: tag === 'button' && !usable,
        'aria-label': label + (preview && preview.play ? ': ' + preview.play.text : ''),
        'aria-pressed': atoms.some((a) => S.has(a)) ? 'true' : null,
        title,
        tabindex: '-1',
        dataset: Object.assign({ atom: k, r: nav ? nav[0] : 0, c: nav ? nav[1] : 0 }, attrs.dataset || {}),
        onclick: usable ? (e) => {
          if (s.suppressClick) { s.suppressClick = false; return; }
          e.preventDefault();
          gesture(s, atoms, Object.assign({ describe: label }, opts));
        } : null,
      }, Object.fromEntries(Object.entries(attrs).filter(([a]) => a !== 'dataset'))), ...children);
    },
  };
}

// The board for the state `s`: the live position, or a replayed one
// (`view` = { geometry, next_touches }), with the last move marked.
export function drawBoard(s, view) {
  const g = s.game;
  const geometry = view ? view.geometry : (s.leaving ? s.leaving.geometry : g.geometry);
  const marks = {
    frozen: !!view || !!s.leaving,
    last: new Set(view ? (view.next_touches || []).flatMap(atomsOf) : (s.leaving ? [] : (g.last_touches || []).flatMap(atomsOf))),
    leaving: new Set(s.leaving ? s.leaving.touches.flatMap(atomsOf) : []),
  };
  const ctx = context(s, geometry, marks);
  let inner;
  switch (geometry.kind) {
    case 'heaps': inner = drawHeaps(ctx); break;
    case 'ring': inner = drawRing(ctx); break;
    case 'grid': inner = drawGrid(ctx); break;
    case 'graph': inner = drawGraph(ctx); break;
    case 'marks': inner = drawMarks(ctx); break;
    case 'counter': inner = drawCounter(ctx); break;
    case 'words': inner = drawWords(ctx); break;
    default: inner = null;
  }
  const kind = inner ? geometry.kind : 'text';
  if (!inner) inner = h('pre', { id: 'board-text' }, geometry.text !== undefined ? geometry.text : (view ? view.board : g.board));
  const board = h('div', {
    class: `board ${kind}-board` + (ctx.live ? ' live' : '') + (geometry.rows_split ? ' split' : ''),
    id: 'board', role: 'group', 'aria-label': 'Board', dataset: { kind }, tabindex: '-1',
    onkeydown: (e) => boardKey(s, board, e),
  }, inner);
  rovingFocus(board, s);
  return board;
}

// The moves that the current selection can still become, as buttons.
export function choicesView(s) {
  if (!canMove(s) || s.replay !== null) return null;
  const p = pick(s);
  if (!p.atoms.size) return null;
  const shown = p.choices.slice(0, 12);
  return h('div', { class: 'choices', id: 'choices', role: 'group', 'aria-label': 'Moves that fit the selection' },
    h('p', { class: 'small' }, p.choices.length === 1 ? 'One move fits what you selected:' :
      `${p.choices.length} moves fit what you selected. Pick one, or select more to narrow them down:`),
    h('div', { class: 'move-list' }, shown.map((e) => {
      const v = moveValue(s, e.m);
      return h('button', { type: 'button', class: 'move choice ' + (v || ''), onclick: () => { clearPick(s); s.submit(e.m.notation); } }, e.m.text);
    })),
    p.choices.length > shown.length ? h('p', { class: 'muted small' }, `…and ${p.choices.length - shown.length} more.`) : null,
    h('button', { type: 'button', class: 'link', id: 'clear-selection', onclick: () => { clearPick(s); s.render(); } }, 'Clear the selection (Esc)'));
}

// One element of the board is in the Tab order: the last one focused, or
// the first that plays; the arrow keys move between them.
function rovingFocus(board, s) {
  queueMicrotask(() => {
    const all = [...board.querySelectorAll('[data-atom]')];
    if (!all.length) return;
    const target = all.find((b) => b.dataset.atom === s.focusAtom && !b.disabled) ||
      all.find((b) => !b.disabled) || all[0];
    target.tabIndex = 0;
  });
  board.addEventListener('focusin', (e) => {
    const el = e.target.closest('[data-atom]');
    if (!el) return;
    s.focusAtom = el.dataset.atom;
    board.querySelectorAll('[data-atom]').forEach((b) => { b.tabIndex = b === el ? 0 : -1; });
  });
}

function boardKey(s, board, e) {
  if (e.key === 'Escape') {
    if (pick(s).atoms.size) { clearPick(s); s.message = null; s.render(); e.preventDefault(); }
    return;
  }
  const dirs = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0], Home: [0, -Infinity], End: [0, Infinity] };
  const d = dirs[e.key];
  const from = e.target.closest('[data-atom]');
  if (!d || !from) return;
  const all = [...board.querySelectorAll('[data-atom]')].filter((b) => !b.disabled || b === from);
  const r = Number(from.dataset.r), c = Number(from.dataset.c);
  const pos = (b) => [Number(b.dataset.r), Number(b.dataset.c)];
  let best = null, bestCost = Infinity;
  for (const b of all) {
    if (b === from) continue;
    const [br, bc] = pos(b);
    let cost;
    if (d[0] === 0) {
      if (br !== r || Math.sign(bc - c) !== Math.sign(d[1])) continue;
      cost = Number.isFinite(d[1]) ? Math.abs(bc - c) : -Math.abs(bc - c);
    } else {
      if (Math.sign(br - r) !== d[0]) continue;
      cost = Math.abs(br - r) * 1000 + Math.abs(bc - c);
    }
    if (cost < bestCost) { best = b; bestCost = cost; }
  }
  if (best) { best.focus(); e.preventDefault(); }
}
