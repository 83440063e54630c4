// The board of a heap game: rows of objects to click (a match and all to
// its right) or, in games that split rows, runs to drag across and gaps to
// click; and the help line that says which.

import { h } from './dom.js';
import { findMove, findSplit, heapName, runNotation, splitting } from './moves.js';
import { canMove, moveValue } from './play-state.js';

// The rows of `heaps` (the live position, or one replayed).
export function heapBoard(s, heaps) {
  const g = s.game;
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
          onclick: mv ? () => s.submit(mv.notation) : null,
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
        onclick: live && !split ? () => mv && s.submit(mv.notation) : null,
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
      s.submit(mv ? mv.notation : runNotation(g, heap, a, b));
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

export function boardHelp(g) {
  if (!splitting(g)) return 'Click a match to take it and every match to its right. Keyboard: ↑ ↓ heap, ← → how many, Enter.';
  const runs = g.legal_moves.some((m) => m.take > 0);
  const gaps = g.legal_moves.some((m) => m.take === 0);
  const text = [];
  if (runs) text.push('Drag across a run of adjacent objects to take them, or click one to take it alone; what is left on each side becomes a row of its own.');
  if (gaps) text.push('Click the gap between two objects to split the row there without taking any.');
  if (runs) text.push('Keyboard: ↑ ↓ heap, ← → how many from the right, Enter.');
  return text.join(' ');
}
