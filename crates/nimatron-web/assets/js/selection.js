// What a player's selection on the board stands for: the atoms of each
// board element, the legal moves by the atoms they touch, and a gesture
// (a click, a tap, a drag) resolved into a move to play, a move to preview,
// or the moves it could still become. It knows nothing of drawing: the
// board (board.js) and its shapes (heap-board.js, shapes.js, ring-board.js)
// call it, and it calls none of them.
//
// How a selection becomes a move: a click, a tap or a drag gives a set of
// board elements (atoms). The candidates are the legal moves that touch
// every selected atom. One candidate is played at once; a finished gesture
// (a drag, a click that means "this and no more") plays the move that
// touches exactly the selection; otherwise the selection stays, and the
// moves it could still become are offered as buttons, to pick or to narrow
// by selecting more. From a touch, a move is previewed first.

import { canMove, moveValue } from './play-state.js';

// The shapes of what the server sends (see docs/api.md), as far as a
// selection reads them; `tsc --checkJs` checks the modules against them.
/**
 * An element of the board, as a move's `touches` and a trace name it.
 * @typedef {{ kind: string, heap?: number, start?: number, count?: number, index?: number, word?: number,
 *   at?: number[], id?: string, amount?: number }} BoardElement
 */
/**
 * What a move did: the elements it took away (of the board before it) and
 * put down or changed (of the board after it).
 * @typedef {{ removed?: BoardElement[], added?: BoardElement[] }} Trace
 */
/**
 * A legal move: its notation (sent to play it), its words, the elements it
 * is made on (and, for a move that can be made on several parts of the
 * board, the others), and what it would do.
 * @typedef {{ notation: string, text: string, touches?: BoardElement[], also_touches?: BoardElement[][],
 *   trace?: Trace }} LegalMove
 */
/** A move made on one set of atoms. @typedef {{ m: LegalMove, atoms: Set<string> }} Entry */
/** @typedef {{ entries: Entry[], byAtom: Map<string, Entry[]> }} MoveIndex */
/**
 * The player's selection at one ply: the atoms selected, the moves they
 * could become, and the move previewed (after a tap) with its atoms.
 * @typedef {{ ply: number, atoms: Set<string>, choices: Entry[], preview: LegalMove | null,
 *   previewAtoms: Set<string> | null }} Pick
 */
/**
 * How a gesture is read (see `gesture`).
 * @typedef {{ complete?: boolean, merge?: boolean, group?: string, toggle?: boolean, describe?: string,
 *   touch?: boolean }} GestureOptions
 */
/**
 * What a gesture would do.
 * @typedef {{ play?: LegalMove, entry?: Entry, choices?: Entry[], atoms?: Set<string>, none?: boolean }} Resolved
 */
/**
 * The game page's state, as far as a selection uses it.
 * @typedef {{ game: { ply: number, legal_moves: LegalMove[] }, pick?: Pick, message?: { kind: string, text: string } | null,
 *   analysisOn?: boolean, analysis?: object | null, render: () => void,
 *   submit: (m: LegalMove, atoms: Set<string>) => void }} SelectionState
 */

// The atoms of an element: an object run stands for each of its objects.
/** @param {BoardElement} el @returns {string[]} */
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
/** @param {LegalMove} m @param {Set<string> | null} [atoms] @returns {Set<string>} */
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
/** @param {LegalMove} m @param {Set<string> | null} [atoms] @returns {Set<string>} */
export function previewKeys(m, atoms) {
  const chosen = atoms || new Set((m.touches || []).flatMap(atomsOf));
  const out = removedKeys(m, chosen);
  for (const a of chosen) out.add(a);
  return out;
}

// The keys of the board after a move that it put down or changed.
/** @param {Trace | null | undefined} trace @returns {Set<string>} */
export function addedKeys(trace) {
  /** @type {Set<string>} */
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
/** @type {WeakMap<LegalMove[], MoveIndex>} */
const indexes = new WeakMap();
/** @param {LegalMove[]} moves @returns {MoveIndex} */
export function moveIndex(moves) {
  let idx = indexes.get(moves);
  if (idx) return idx;
  // A move listed once may be made on several parts of the board (a run
  // and its mirror image): each of its element sets is an entry.
  const entries = moves.flatMap((m) => [m.touches || [], ...(m.also_touches || [])]
    .map((t) => ({ m, atoms: new Set(t.flatMap(atomsOf)) })));
  /** @type {Map<string, Entry[]>} */
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
/** @param {MoveIndex} idx @param {Set<string>} set @returns {Entry[]} */
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

// The selection of the ply shown, new at each ply.
/** @param {SelectionState} s @returns {Pick} */
export function pick(s) {
  if (!s.pick || s.pick.ply !== s.game.ply) s.pick = { ply: s.game.ply, atoms: new Set(), choices: [], preview: null, previewAtoms: null };
  return s.pick;
}

/** @param {SelectionState} s */
export function clearPick(s) {
  const p = pick(s);
  p.atoms = new Set();
  p.choices = [];
  p.preview = null;
  p.previewAtoms = null;
}

// What a gesture selecting atoms `G` would do now, without doing it:
// { play: move } or { choices: [entries], atoms: Set } or { none: true }.
/** @param {SelectionState} s @param {string[]} G @param {GestureOptions} opts @returns {Resolved} */
export function resolve(s, G, opts) {
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
/** @param {SelectionState} s @param {Entry} entry @param {boolean} [touch] */
export function playOrPreview(s, entry, touch) {
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
/** @param {SelectionState} s @param {string[]} G @param {GestureOptions} [opts] */
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
/** @param {SelectionState} s @param {string[]} G @param {GestureOptions} opts @returns {string | null} */
export function hint(s, G, opts) {
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
