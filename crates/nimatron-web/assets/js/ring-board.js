// Circular Nim's ring (`geometry.kind` "ring"): places around a circle,
// an object or a gap at each. Clicking objects selects a run (it may wrap
// from the last place to the first); the moves it fits are offered.

import { h } from './dom.js';

export function drawRing(ctx) {
  const cells = ctx.geometry.objects;
  const n = cells.length;
  const size = Math.min(460, Math.max(240, n * 26), Math.max(200, window.innerWidth - 64));
  const r = size / 2 - 26;
  const items = cells.map((obj, i) => {
    const angle = -Math.PI / 2 + (2 * Math.PI * i) / n;
    const x = size / 2 + r * Math.cos(angle), y = size / 2 + r * Math.sin(angle);
    const style = `left:${x.toFixed(1)}px;top:${y.toFixed(1)}px`;
    const lx = size / 2 + (r - 30) * Math.cos(angle), ly = size / 2 + (r - 30) * Math.sin(angle);
    const number = h('span', { class: 'place-number', style: `left:${lx.toFixed(1)}px;top:${ly.toFixed(1)}px`, 'aria-hidden': 'true' }, i + 1);
    if (!obj) return [h('span', { class: 'place gap', style, title: `place ${i + 1}: empty`, dataset: { place: i + 1 } }), number];
    return [ctx.element('button', {
      atoms: [`p${i}`], opts: { toggle: true, merge: true }, nav: [0, i], cls: 'place object',
      label: `Place ${i + 1}`, attrs: { style, dataset: { place: i + 1 } },
    }), number];
  });
  const objects = cells.filter((c) => c).length;
  const centre = h('div', { class: 'ring-centre' },
    h('b', {}, objects), h('span', {}, objects === 1 ? 'object' : 'objects'));
  return h('div', { class: 'ring', style: `width:${size}px;height:${size}px;max-width:100%` }, items, centre);
}
