// The board of circular Nim: a ring of places, where a run of adjacent
// objects (wrapping across the join) is selected and then taken.

import { h } from './dom.js';
import { canMove, moveValue } from './play-state.js';

export function ringOf(g, position) {
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

export function ringView(s, ring) {
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
        s.render();
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
      s.submit(legal ? legal.notation : notation);
    };
    parts.push(h('div', { class: 'row ring-actions' },
      h('button', { type: 'button', class: 'primary', id: 'take-selected', disabled: !notation, onclick: take },
        notation ? `Take ${notation.replace(/^take /, '')}` : 'Select objects to take'),
      h('button', { type: 'button', id: 'clear-selection', disabled: !notation, onclick: () => { selected.clear(); s.render(); } }, 'Clear')));
  }
  return h('div', { class: 'board ring-board' + (live ? ' live' : ''), id: 'board' }, parts);
}

