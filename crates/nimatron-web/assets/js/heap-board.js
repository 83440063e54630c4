// Heaps of objects, one row per heap (`geometry.kind` "heaps"), each named
// by the label the server gives it (`geometry.labels`, the names its move
// texts use). A click on an object selects it and every object to its right
// (Nim's move), or, in rows that split, that object alone, with runs
// dragged by a mouse and gaps to click; Wythoff's move from every heap is a
// button of its own. Where stones are still to be placed
// (`geometry.supply`, Building Nim), each heap has a button that places one
// on it. The last move's objects stand as ghosts where they were taken, and
// a row it split off is marked.
//
// On a phone a row that splits stays on one line and scrolls sideways
// (which objects are neighbours is the game), each object a whole target;
// a swipe scrolls it, and only taps select. Each edge of a row that goes on
// out of sight says how many objects lie beyond it ("34 ›"); a tap on it
// scrolls the row on.

import { h, scrollCues } from './dom.js';
import { clearPick, gesture } from './selection.js';

// Rows longer than this are drawn as a number, played by typing or from
// the list of moves.
const MAX_DRAWN = 120;

export function drawHeaps(ctx) {
  const { geometry, idx, live, s } = ctx;
  const split = geometry.rows_split;
  // Moves that take from two heaps at once without the every-heap element
  // (Moore's Nim): a click adds a heap to the selection instead of playing.
  const multi = live && !split && idx.entries.some((e) => !e.atoms.has('all') &&
    new Set([...e.atoms].filter((a) => a[0] === 'o').map((a) => a.slice(1, a.indexOf('.')))).size > 1);
  const labels = geometry.labels || [];
  const supply = geometry.supply;
  const ghosts = ((ctx.trace && ctx.trace.removed) || []).filter((g) => g.kind === 'objects');
  const ghostRun = (g) => Array.from({ length: Math.min(g.count, MAX_DRAWN) }, () =>
    h('span', { class: ctx.ghostClass('stone-ghost'), style: ctx.ghostStyle, 'aria-hidden': 'true' }));
  const rows = geometry.heaps.map((n, i) => {
    const name = labels[i] || String(i + 1);
    const parts = [];
    const here = ghosts.filter((g) => g.heap === i);
    if (n > MAX_DRAWN) {
      parts.push(h('span', { class: 'empty' }, `${n} objects: too many to draw; type a move or use the list of moves`));
    }
    for (let k = 0; k < n && n <= MAX_DRAWN; k++) {
      const gap = `g${i}.${k}`;
      if (k > 0 && ctx.used(gap)) {
        parts.push(ctx.element('button', {
          atoms: [gap], opts: { complete: true }, nav: [i, 2 * k - 1], cls: 'gap',
          label: `Heap ${name}: split between objects ${k} and ${k + 1}`, attrs: { dataset: { heap: i, at: k } },
        }));
      }
      for (const g of here.filter((x) => x.at === k)) parts.push(...ghostRun(g));
      const atoms = [];
      if (split) atoms.push(`o${i}.${k}`);
      else for (let j = k; j < n; j++) atoms.push(`o${i}.${j}`);
      const take = split ? 1 : n - k;
      parts.push(ctx.element('button', {
        atoms, key: `o${i}.${k}`, nav: [i, 2 * k], cls: 'stone',
        opts: split ? { toggle: true, merge: true }
          : { complete: !multi, merge: true, group: `o${i}.` },
        label: split ? `Heap ${name}, object ${k + 1} of ${n}` : `Take ${take} from heap ${name} (${n} → ${n - take})`,
        attrs: { dataset: { heap: i, index: k } },
      }));
    }
    if (n <= MAX_DRAWN) for (const g of here.filter((x) => x.at >= n)) parts.push(...ghostRun(g));
    const gaps = parts.some((p) => p.classList && p.classList.contains('gap'));
    const place = supply ? ctx.element('button', {
      atoms: [`h${i}`], opts: { complete: true }, nav: [i, 2 * Math.min(n, MAX_DRAWN) + 1], cls: 'place-stone',
      label: `Place a stone on heap ${name} (${n} → ${n + 1})`, attrs: { dataset: { heap: i } },
    }, '+') : null;
    const newRow = ctx.isNew(`row${i}`);
    return h('div', { class: 'heap' + (newRow ? ' new-row' : ''), dataset: { heap: i } },
      h('span', { class: 'heap-name' }, name),
      h('span', { class: 'heap-size' }, n),
      newRow ? h('span', { class: 'sr-only' }, ' (split off by the last move)') : null,
      split && n > 1 ? scrollCues(h('div', { class: 'stones' + (gaps ? ' with-gaps' : '') }, parts, place), '.stone', { key: `${s.id}:heap:${i}`, reveal: ctx.reveal })
        : h('div', { class: 'stones' + (gaps ? ' with-gaps' : '') }, n || here.length ? parts : h('span', { class: 'empty' }, 'empty'), place));
  });
  const out = [];
  if (supply !== null && supply !== undefined) {
    out.push(h('p', { class: 'supply', id: 'supply' }, supply ?
      `${supply} stone${supply === 1 ? '' : 's'} still to place: press + on a heap to place one there.` :
      'Every stone is placed: now take from one heap, as in Nim.'));
  }
  const heapsEl = h('div', { class: 'heaps' + (split && live ? ' draggable' : '') }, rows);
  out.push(heapsEl);
  if (geometry.all_heaps_move && ctx.used('all')) {
    out.push(h('div', { class: 'row all-heaps' }, ctx.element('button', {
      atoms: ['all'], opts: { toggle: true }, nav: [geometry.heaps.length, 0], cls: 'all-heaps-button',
      label: 'Take the same number from every heap',
    }, 'Take the same number from every heap'),
    ctx.selected('all') ? h('span', { class: 'muted small' }, 'then choose how many, on any heap') : null));
  }
  if (split && live) enableDrag(s, heapsEl, labels);
  return out;
}

// Dragging a mouse across a run of objects in one row: the run is the
// selection, and the move that takes exactly it is played. A finger's
// swipe scrolls the row instead: on a touch screen runs are tapped.
function enableDrag(s, el, labels) {
  /** @type {(x: number, y: number) => HTMLElement | null} */
  const stoneAt = (x, y) => {
    const t = document.elementFromPoint(x, y);
    return t && t.closest ? t.closest('.stone:not(:disabled)') : null;
  };
  el.addEventListener('pointerdown', (e) => {
    const st = e.target.closest('.stone:not(:disabled)');
    if (!st || e.button > 0 || e.pointerType !== 'mouse') return;
    s.drag = { heap: st.dataset.heap, from: Number(st.dataset.index), to: Number(st.dataset.index) };
  });
  el.addEventListener('pointermove', (e) => {
    if (!s.drag) return;
    const st = stoneAt(e.clientX, e.clientY);
    if (!st || st.dataset.heap !== s.drag.heap) return;
    s.drag.to = Number(st.dataset.index);
    paint(el, s.drag);
  });
  const end = () => {
    const d = s.drag;
    s.drag = null;
    if (!d || d.from === d.to) return;
    // A run of two or more: play it; the click that follows is not a click.
    s.suppressClick = true;
    setTimeout(() => { s.suppressClick = false; }, 0);
    const a = Math.min(d.from, d.to), b = Math.max(d.from, d.to);
    const atoms = [];
    for (let k = a; k <= b; k++) atoms.push(`o${d.heap}.${k}`);
    clearPick(s);
    gesture(s, atoms, { complete: true, describe: `Taking objects ${a + 1} to ${b + 1} of heap ${labels[Number(d.heap)] || Number(d.heap) + 1}` });
  };
  el.addEventListener('pointerup', end);
  el.addEventListener('pointercancel', () => { s.drag = null; paint(el, null); });
}

function paint(el, d) {
  el.querySelectorAll('.stone').forEach((b) => {
    const on = !!d && b.dataset.heap === d.heap &&
      Number(b.dataset.index) >= Math.min(d.from, d.to) && Number(b.dataset.index) <= Math.max(d.from, d.to);
    b.classList.toggle('dragged', on);
  });
}
