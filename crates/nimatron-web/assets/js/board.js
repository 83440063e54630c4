// The board of any game, drawn from the geometry the server sends
// (`game.geometry`: heaps, a ring, a grid, a graph, marks, a counter,
// words or text) and played through the elements that each legal move touches
// (`legal_moves[].touches`). The page never writes a move's notation and
// never guesses a game's shape: it sends the notation of the legal move
// that the player's selection stands for.
//
// How a selection becomes a move is selection.js's: this module draws.
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
import { addedKeys, candidates, clearPick, gesture, hint, moveIndex, pick, playOrPreview, previewKeys, removedKeys, resolve } from './selection.js';
import { drawHeaps } from './heap-board.js';
import { drawRing } from './ring-board.js';
import { drawCounter, drawGraph, drawGrid, drawMarks, drawWords } from './shapes.js';

/** @typedef {import('./selection.js').GestureOptions} GestureOptions */

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
  // Once per move shown (and per replayed position), a long row scrolls to
  // show the last move's marks; not for the keyboard, whose focus shows
  // where it is.
  const shownKey = `${s.replay}|${s.game.ply}`;
  const fresh = s.revealed !== shownKey;
  return {
    s, geometry, live, idx,
    reveal: () => { if (!fresh || s.keyboard) return false; s.revealed = shownKey; return true; },
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
    /**
     * @param {string} tag
     * @param {{ atoms: string[], opts?: GestureOptions, nav?: number[], label: string, cls?: string,
     *   attrs?: Record<string, any>, key?: string }} spec
     * @param {...any} children
     * @returns {HTMLElement}
     */
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
