// The board of any game, drawn from the geometry the server sends
// (`game.geometry`: heaps, a ring, a grid, a graph, marks, a counter,
// words or text) and played through the elements that each legal move touches
// (`legal_moves[].touches`). The page never writes a move's notation and
// never guesses a game's shape: it sends the notation of the legal move
// that the player's selection stands for.
//
// How a selection becomes a move: a click, a tap or a drag gives a set of
// board elements (atoms). The candidates are the legal moves that touch
// every selected atom. One candidate is played at once; a finished gesture
// (a drag, a click that means "this and no more") plays the move that
// touches exactly the selection; otherwise the selection stays, and the
// moves it could still become are offered as buttons, to pick or to narrow
// by selecting more.
//
// What a move would take is shown before it is played: a pointer that
// hovers and the keyboard's focus preview it, and on a touch screen the
// first tap previews it and the second (or the Play button) plays it.
//
// The last move is drawn from its trace (`last_trace`), told on the board
// now: ghosts of the pieces it took away, where they stood, and a mark on
// the pieces it put down or changed. Each element of the board has a key,
// its own atom (`o0.3`, `v:7`, `e:1-2` …), by which it is marked.

import { h, reducedMotion } from './dom.js';
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
    case 'vertex': return [`v:${el.id}`];
    case 'edge': return [`e:${el.id}`];
    case 'step': return [`s${el.amount}`];
    default: return [];
  }
}
const MAX_RUN = 4096;

// The keys of the board now that a move takes away: the objects and
// letters it is made on (`atoms`, the set of elements the player chose:
// its touches, or their mirror image), and the places, cells, vertices and
// edges its trace says go (a vertex's neighbours, the edges that fall, a
// bite's squares).
export function removedKeys(m, atoms) {
  const chosen = atoms || new Set((m.touches || []).flatMap(atomsOf));
  const out = new Set([...chosen].filter((a) => a[0] === 'o' || a[0] === 'l'));
  for (const g of (m.trace && m.trace.removed) || []) {
    if (g.kind === 'cell') out.add(`c${g.at.join('.')}`);
    else if (g.kind === 'place') out.add(`p${g.index}`);
    else if (g.kind === 'vertex') out.add(`v:${g.id}`);
    else if (g.kind === 'edge') out.add(`e:${g.id}`);
  }
  return out;
}

// The keys a preview of the move marks: what it is made on and what it takes.
export function previewKeys(m, atoms) {
  const chosen = atoms || new Set((m.touches || []).flatMap(atomsOf));
  const out = removedKeys(m, chosen);
  for (const a of chosen) out.add(a);
  return out;
}

// The keys of the board after a move that it put down or changed.
function addedKeys(trace) {
  const out = new Set();
  for (const e of (trace && trace.added) || []) {
    // A counter's step is said beside its value, not on the step buttons,
    // which are the next move's.
    if (e.kind === 'step') continue;
    if (e.kind === 'heap') out.add(`row${e.heap}`);
    else for (const a of atomsOf(e)) out.add(a);
  }
  return out;
}

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
  if (!s.pick || s.pick.ply !== s.game.ply) s.pick = { ply: s.game.ply, atoms: new Set(), choices: [], preview: null, previewAtoms: null };
  return s.pick;
}

export function clearPick(s) {
  const p = pick(s);
  p.atoms = new Set();
  p.choices = [];
  p.preview = null;
  p.previewAtoms = null;
}

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
  if (new Set(C.map((e) => e.m)).size === 1) return { play: C[0].m, entry: C[0], atoms: next };
  if (opts.complete && E.length === 1) return { play: E[0].m, entry: E[0], atoms: next };
  return { choices: opts.complete && E.length ? E : C, atoms: next };
}

// Play a move (made on the elements `entry.atoms`) now, or, from a touch,
// show it first: the second tap (on any element that makes the same move)
// or the Play button plays it.
function playOrPreview(s, entry, touch) {
  const p = pick(s);
  const m = entry.m;
  if (touch && !(p.preview && p.preview.notation === m.notation)) {
    p.preview = m;
    p.previewAtoms = entry.atoms;
    p.atoms = new Set(entry.atoms);
    p.choices = [];
    s.render();
    return;
  }
  clearPick(s);
  s.submit(m, entry.atoms);
}

// A click or drag that selects the atoms `G`. Options: `complete` (the
// gesture means exactly these atoms), `merge` (add to the selection when a
// move can touch both), `group` (a prefix of atoms the new ones replace),
// `toggle` (clicking a selected atom again confirms a lone selection, or
// drops it from a larger one), `describe` (words for a refusal) and
// `touch` (a finger made it: a move is previewed before it is played).
export function gesture(s, G, opts = {}) {
  if (!canMove(s)) return;
  const p = pick(s);
  s.message = null;
  const r = resolve(s, G, opts);
  // A tap that makes the move previewed plays it.
  if (p.preview && r.play && r.play.notation === p.preview.notation) {
    playOrPreview(s, { m: p.preview, atoms: p.previewAtoms }, false);
    return;
  }
  if (opts.toggle && G.length === 1 && p.atoms.has(G[0]) && !p.preview) {
    if (p.atoms.size === 1) {
      const exact = candidates(moveIndex(s.game.legal_moves), p.atoms).filter((e) => e.atoms.size === 1);
      if (exact.length === 1) { playOrPreview(s, exact[0], opts.touch); return; }
      clearPick(s);
    } else {
      p.atoms.delete(G[0]);
      p.choices = candidates(moveIndex(s.game.legal_moves), p.atoms);
    }
    s.render();
    return;
  }
  if (r.play) { playOrPreview(s, r.entry, opts.touch); return; }
  if (r.none) {
    s.message = { kind: 'error', text: (opts.describe || 'That') + ' is not a legal move here.' };
    s.render();
    return;
  }
  p.preview = null;
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

// The atoms and options of each playable element, for its preview.
const gestures = new WeakMap();

// What the drawing functions get: the state, whether the board takes
// moves, the last move's trace, and `element` to make each playable part
// of the board.
function context(s, geometry, marks) {
  const live = !marks.frozen && s.replay === null && canMove(s);
  const idx = moveIndex(live ? s.game.legal_moves : []);
  const p = live ? pick(s) : null;
  const S = p ? p.atoms : new Set();
  const previewed = p && p.preview ? previewKeys(p.preview, p.previewAtoms) : new Set();
  const added = addedKeys(marks.trace);
  // Classes every element gets from its key.
  const stateOf = (key) => [
    S.has(key) && !previewed.size ? 'selected' : '',
    previewed.has(key) ? 'preview' : '',
    marks.taking.has(key) ? 'taking' : '',
    added.has(key) ? 'new' : '',
  ].filter(Boolean);
  return {
    s, geometry, live, idx,
    trace: marks.trace,
    by: marks.by,
    // Ghosts fade in the first moments after the move, then stay faint.
    ghostClass: (base) => `ghost ${base}` + (marks.fresh ? ' fresh' : ''),
    ghostStyle: marks.fresh ? `animation-delay: -${marks.age}ms` : null,
    used: (atom) => live && idx.byAtom.has(atom),
    selected: (atom) => S.has(atom),
    isNew: (key) => added.has(key),
    stateOf,
    // A button for a part of the board. `atoms` are what a click selects
    // (`opts` as for `gesture`); `key` names the element itself (its first
    // atom unless given); `nav` is [row, column] for the arrow keys.
    element(tag, { atoms, opts = {}, nav, label, cls = '', attrs = {}, key }, ...children) {
      const k = key || atoms[0];
      const usable = live && candidates(idx, new Set(atoms)).length > 0;
      const classes = [cls, ...stateOf(k)];
      if (usable) { const v = hint(s, atoms, opts); if (v) classes.push(v); }
      else if (live) classes.push('dead');
      const preview = usable ? resolve(s, atoms, opts) : null;
      const newWords = added.has(k) ? ` (${marks.by || 'the last move'})` : '';
      const el = h(tag, Object.assign({
        type: tag === 'button' ? 'button' : null,
        class: classes.filter(Boolean).join(' '),
        disabled: tag === 'button' && !usable,
        'aria-label': label + newWords + (preview && preview.play ? ': ' + preview.play.text : ''),
        'aria-pressed': tag === 'button' && S.has(k) ? 'true' : null,
        title: preview && preview.play ? preview.play.text : label,
        tabindex: '-1',
        dataset: Object.assign({ atom: k, r: nav ? nav[0] : 0, c: nav ? nav[1] : 0 }, attrs.dataset || {}),
        onclick: usable ? (e) => {
          if (s.suppressClick) { s.suppressClick = false; return; }
          e.preventDefault();
          const touch = s.pointer === 'touch';
          s.pointer = null;
          gesture(s, atoms, Object.assign({ describe: label, touch }, opts));
        } : null,
      }, Object.fromEntries(Object.entries(attrs).filter(([a]) => a !== 'dataset'))), ...children);
      if (usable) gestures.set(el, { atoms, opts });
      return el;
    },
  };
}

// The board for the state `s`: the live position, or a replayed one
// (`view` = { geometry, trace }), with the last move's trace drawn.
export function drawBoard(s, view) {
  const g = s.game;
  const geometry = view ? view.geometry : g.geometry;
  const age = Date.now() - (s.movedAt || 0);
  const marks = {
    frozen: !!view,
    trace: view ? view.trace : g.last_trace,
    fresh: !view && age < 900 && !reducedMotion(),
    age,
    by: view ? null : lastMover(s),
    taking: s.taking ? removedKeys(s.taking.m, s.taking.atoms) : new Set(),
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
  // Which pointer pressed last: a finger's tap previews before it plays.
  board.addEventListener('pointerdown', (e) => { s.pointer = e.pointerType; s.keyboard = false; }, true);
  if (ctx.live) hoverPreview(s, board);
  rovingFocus(board, s);
  return board;
}

// Whose the last move was, for the words of its marks.
function lastMover(s) {
  const last = s.game.moves[s.game.moves.length - 1];
  if (!last || !s.names) return null;
  const who = s.names[last.seat];
  return who === 'You' ? 'your last move' : `${who}'s last move`;
}

// A pointer that hovers, or the keyboard's focus, on an element that plays
// a move marks what that move would take, before it is played.
function hoverPreview(s, board) {
  const show = (target) => {
    clear();
    const el = target && target.closest('[data-atom]');
    const gesture = el && gestures.get(el);
    if (!gesture || el.disabled || pick(s).preview) return;
    const r = resolve(s, gesture.atoms, gesture.opts);
    if (!r.play) return;
    markPreview(board, previewKeys(r.play, r.entry.atoms));
  };
  const clear = () => board.querySelectorAll('.preview').forEach((x) => { if (!pick(s).preview) x.classList.remove('preview'); });
  board.addEventListener('pointerover', (e) => { if (e.pointerType === 'mouse') show(e.target); });
  board.addEventListener('pointerleave', (e) => { if (e.pointerType === 'mouse') clear(); });
  // The keyboard's focus only: not a focus given by a tap or by the page.
  board.addEventListener('focusin', (e) => { if (s.keyboard) show(e.target); });
  board.addEventListener('focusout', clear);
}

// Mark the board elements of `keys` as what a move would take (and no
// others).
function markPreview(board, keys) {
  if (!board) return;
  board.querySelectorAll('.preview').forEach((x) => x.classList.remove('preview'));
  for (const key of keys) {
    const k = CSS.escape(key);
    board.querySelectorAll(`[data-atom="${k}"], [data-key="${k}"]`).forEach((x) => x.classList.add('preview'));
    if (key.startsWith('e:')) board.querySelectorAll(`path.edge-line[data-id="${CSS.escape(key.slice(2))}"]`).forEach((x) => x.classList.add('preview'));
  }
}

// Where on the board a choice is made, when another choice reads the same
// (a run and another of the same length in one row): " (objects 3 to 5
// of A)".
function runWords(s, e, all) {
  if (all.filter((x) => x.m.text === e.m.text).length < 2) return '';
  const labels = (s.game.geometry && s.game.geometry.labels) || [];
  const byHeap = new Map();
  for (const a of e.atoms) {
    const m = /^o(\d+)\.(\d+)$/.exec(a);
    if (!m) continue;
    const heap = Number(m[1]);
    if (!byHeap.has(heap)) byHeap.set(heap, []);
    byHeap.get(heap).push(Number(m[2]) + 1);
  }
  const parts = [...byHeap].map(([heap, ks]) => {
    const lo = Math.min(...ks), hi = Math.max(...ks);
    const name = labels[heap] || String(heap + 1);
    return lo === hi ? `object ${lo} of ${name}` : `objects ${lo} to ${hi} of ${name}`;
  });
  return parts.length ? ` (${parts.join(', ')})` : '';
}

// The move previewed (after a tap), or the moves that the current
// selection can still become, as buttons.
export function choicesView(s) {
  if (!canMove(s) || s.replay !== null) return null;
  const p = pick(s);
  if (p.preview) {
    const m = p.preview;
    const v = moveValue(s, m);
    return h('div', { class: 'choices confirm-move' + (v ? ' ' + v : ''), id: 'confirm-move', role: 'group', 'aria-label': 'The move you chose' },
      h('p', { class: 'preview-text' }, m.text + (v ? ` (${v === 'winning' ? 'a winning move' : 'a losing move'})` : '')),
      h('div', { class: 'row' },
        h('button', { type: 'button', class: 'primary', id: 'play-preview', onclick: () => { const atoms = p.previewAtoms; clearPick(s); s.submit(m, atoms); } }, 'Play'),
        h('button', { type: 'button', id: 'cancel-preview', onclick: () => { clearPick(s); s.render(); } }, 'Cancel')),
      h('p', { class: 'muted small' }, 'Tap it again, or Play, to make the move.'));
  }
  if (!p.atoms.size) return null;
  const shown = p.choices.slice(0, 12);
  return h('div', { class: 'choices', id: 'choices', role: 'group', 'aria-label': 'Moves that fit the selection' },
    h('p', { class: 'small' }, p.choices.length === 1 ? 'One move fits what you selected:' :
      `${p.choices.length} moves fit what you selected. Pick one, or select more to narrow them down:`),
    h('div', { class: 'move-list' }, shown.map((e) => {
      const v = moveValue(s, e.m);
      // Pointing at a choice, or the keyboard on it, marks on the board
      // what it takes; a finger's tap shows it first (Play then plays it).
      const mark = () => markPreview(document.getElementById('board'), previewKeys(e.m, e.atoms));
      const unmark = () => { if (!pick(s).preview) markPreview(document.getElementById('board'), new Set()); };
      return h('button', {
        type: 'button', class: 'move choice ' + (v || ''),
        onpointerdown: (ev) => { s.pointer = ev.pointerType; },
        onpointerenter: (ev) => { if (ev.pointerType === 'mouse') mark(); },
        onpointerleave: (ev) => { if (ev.pointerType === 'mouse') unmark(); },
        onfocus: () => { if (s.keyboard) mark(); },
        onblur: unmark,
        onclick: () => {
          const touch = s.pointer === 'touch';
          s.pointer = null;
          if (touch) { playOrPreview(s, e, true); return; }
          clearPick(s);
          s.submit(e.m, e.atoms);
        },
      }, e.m.text + runWords(s, e, p.choices));
    })),
    p.choices.length > shown.length ? h('p', { class: 'muted small' }, `…and ${p.choices.length - shown.length} more.`) : null,
    h('button', { type: 'button', class: 'link', id: 'clear-selection', onclick: () => { clearPick(s); s.render(); } }, 'Clear the selection'));
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
    // A long row scrolls to show the focused element.
    el.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  });
}

function boardKey(s, board, e) {
  // Keys are no finger: Enter plays what has the focus at once, and the
  // focus shows what it would take.
  s.pointer = null;
  s.keyboard = true;
  if (e.key === 'Escape') {
    const p = pick(s);
    if (p.atoms.size || p.preview) { clearPick(s); s.message = null; s.render(); e.preventDefault(); }
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
