// Circular Nim's ring (`geometry.kind` "ring"): places around a circle,
// an object or a gap at each. Clicking objects selects a run (it may wrap
// from the last place to the first); the moves it fits are offered. The
// last move's objects stand as ghosts at their places.

import { h } from './dom.js';

// Each place is a target of this size; the ring grows to give every place
// room (and the board scrolls if it is wider than the screen).
const PLACE = 44;

export function drawRing(ctx) {
  const cells = ctx.geometry.objects;
  const n = cells.length;
  const gone = new Set(((ctx.trace && ctx.trace.removed) || []).filter((g) => g.kind === 'place').map((g) => g.index));
  // A radius at which neighbouring places are a target and 4 px apart.
  const r = Math.max(90, ((PLACE + 4) * n) / (2 * Math.PI));
  const size = Math.ceil(2 * r + PLACE + 8);
  const items = cells.map((obj, i) => {
    const angle = -Math.PI / 2 + (2 * Math.PI * i) / n;
    const x = size / 2 + r * Math.cos(angle), y = size / 2 + r * Math.sin(angle);
    const style = `left:${x.toFixed(1)}px;top:${y.toFixed(1)}px`;
    const lx = size / 2 + (r - 36) * Math.cos(angle), ly = size / 2 + (r - 36) * Math.sin(angle);
    const number = h('span', { class: 'place-number', style: `left:${lx.toFixed(1)}px;top:${ly.toFixed(1)}px`, 'aria-hidden': 'true' }, i + 1);
    if (!obj) {
      const ghost = gone.has(i);
      return [h('span', {
        class: 'place gap' + (ghost ? ' ' + ctx.ghostClass('place-ghost') : ''), style: style + (ghost && ctx.ghostStyle ? ';' + ctx.ghostStyle : ''),
        title: `place ${i + 1}: empty` + (ghost ? ' (taken by the last move)' : ''), dataset: { place: i + 1 },
      }), number];
    }
    return [ctx.element('button', {
      atoms: [`p${i}`], opts: { toggle: true, merge: true }, nav: [0, i], cls: 'place object',
      label: `Place ${i + 1}`, attrs: { style, dataset: { place: i + 1 } },
    }), number];
  });
  const objects = cells.filter((c) => c).length;
  const centre = h('div', { class: 'ring-centre' },
    h('b', {}, objects), h('span', {}, objects === 1 ? 'object' : 'objects'));
  return h('div', { class: 'ring-scroll' }, h('div', { class: 'ring', style: `width:${size}px;height:${size}px` }, items, centre));
}
