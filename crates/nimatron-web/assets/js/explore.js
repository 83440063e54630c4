// The Explore page: a heap game's Grundy values plotted with their period,
// and its P-positions of a few heaps.

import { h, app, setTitle, showError } from './dom.js';
import { api, loadCatalogue } from './api.js';

export async function explorePage() {
  const root = app();
  setTitle('Explore');
  const params = new URLSearchParams(location.search);
  const form = h('form', { class: 'card explore-form', id: 'explore-form' },
    h('h1', {}, 'Explore a heap game'),
    h('div', { class: 'row wrap' },
      h('label', {}, 'Game ', h('select', { id: 'explore-game', 'aria-label': 'Game from the catalogue' }, h('option', { value: '' }, 'Loading the games…'))),
      h('label', {}, 'spec ', h('input', { name: 'game', id: 'explore-spec', value: params.get('game') || 'nim', spellcheck: 'false', 'aria-label': 'Game spec' })),
      h('label', {}, 'Grundy values up to N = ', h('input', { name: 'to', type: 'number', min: 1, max: 1000, value: params.get('to') || 64 })),
      h('label', {}, 'P-positions of ', h('select', { name: 'heaps' }, [1, 2, 3].map((k) => h('option', { value: k, selected: String(k) === (params.get('heaps') || '2') }, k))), ' heaps'),
      h('label', {}, 'up to ', h('input', { name: 'max', type: 'number', min: 1, max: 20, value: params.get('max') || 10 })),
      h('label', {}, h('select', { name: 'convention', 'aria-label': 'Convention' }, h('option', { value: 'normal' }, 'normal play'), h('option', { value: 'misere', selected: params.get('convention') === 'misere' }, 'misère play'))),
      h('button', { type: 'submit', class: 'primary' }, 'Compute')));
  const out = h('div', { id: 'explore-out' });
  root.replaceChildren(form, out);
  // The list of the games Explore takes, by name; choosing one fills in its
  // spec (which may then be edited: subtraction:1,3,4, octal:0.137 …).
  const picker = form.querySelector('#explore-game');
  const spec = form.querySelector('#explore-spec');
  loadCatalogue().then((c) => {
    const games = (c.games || c).filter((g) => g.explore && g.spec);
    const known = (text) => games.find((g) => g.spec === text);
    picker.replaceChildren(...games.map((g) => h('option', { value: g.spec, selected: g.spec === spec.value }, g.title)),
      h('option', { value: '', selected: !known(spec.value) }, 'Other (type a spec)'));
    picker.addEventListener('change', () => {
      if (picker.value) { spec.value = picker.value; form.requestSubmit(); } else spec.focus();
    });
    spec.addEventListener('input', () => { picker.value = known(spec.value) ? spec.value : ''; });
  }).catch(() => picker.replaceChildren(h('option', { value: '' }, 'Type a spec')));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const q = new URLSearchParams(formFields(form));
    history.replaceState(null, '', '/explore?' + q);
    run(q);
  });
  async function run(q) {
    out.replaceChildren(h('p', { class: 'muted' }, 'Computing…'));
    try {
      const e = await api('GET', '/explore?' + q);
      out.replaceChildren(exploreView(e, out.clientWidth));
    } catch (err) { showError(out, err); }
  }
  run(new URLSearchParams(formFields(form)));
}

// The plot is drawn at the width it is shown at (up to 720 px), so that its
// labels are as large on a phone as at a desk.
function exploreView(e, shownWidth) {
  const v = e.values;
  const maxV = Math.max(1, ...v);
  const W = Math.max(280, Math.min(720, Math.round((shownWidth || 720) - 32))), H = W < 500 ? 180 : 220, pad = 28;
  const bw = (W - pad) / Math.max(1, v.length);
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', `0 0 ${W} ${H + 20}`);
  svg.setAttribute('class', 'plot');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', `Grundy values of ${e.game} for heaps 0 to ${v.length - 1}`);
  const add = (tag, attrs, text) => {
    const el = document.createElementNS('http://www.w3.org/2000/svg', tag);
    for (const [k, val] of Object.entries(attrs)) el.setAttribute(k, val);
    if (text !== undefined) el.textContent = text;
    svg.append(el);
    return el;
  };
  add('line', { x1: pad, y1: H, x2: W, y2: H, class: 'axis' });
  add('text', { x: 2, y: 12, class: 'tick' }, maxV);
  add('text', { x: 2, y: H, class: 'tick' }, 0);
  const shaded = !!e.period && e.preperiod < v.length;
  if (shaded) {
    const x0 = pad + e.preperiod * bw;
    add('rect', { x: x0, y: 0, width: Math.min(W - x0, e.period * bw), height: H, class: 'period-band' });
  }
  v.forEach((g, n) => {
    const hgt = g === 0 ? 3 : (g / maxV) * (H - 16);
    const r = add('rect', { x: pad + n * bw + bw * 0.1, y: H - hgt, width: Math.max(1, bw * 0.8), height: hgt, class: g === 0 ? 'bar zero' : 'bar' });
    const t = document.createElementNS('http://www.w3.org/2000/svg', 'title');
    t.textContent = `g(${n}) = ${g}`;
    r.append(t);
  });
  // A label every few bars, at least 36 px apart.
  const step = Math.max(1, Math.ceil(v.length / Math.max(2, Math.floor((W - pad) / 36))));
  for (let n = 0; n < v.length; n += step) add('text', { x: pad + n * bw + bw / 2, y: H + 14, class: 'tick', 'text-anchor': 'middle' }, n);

  const note = e.period_note[0].toUpperCase() + e.period_note.slice(1) + '.';
  const periodText = e.period
    ? `Period ${e.period}, preperiod ${e.preperiod}: g(n + ${e.period}) = g(n) for every n ≥ ${e.preperiod}${e.proven ? '' : ' up to ' + e.computed_to}. ${note}`
    : note;
  const source = e.source === 'sequence'
    ? `Values and period from the Grundy-sequence engine, which computed g(0) … g(${e.computed_to}); the first ${v.length} are shown.`
    : 'Values from the game\'s own solver, one heap at a time.';
  const valuesTable = h('div', { class: 'values', id: 'grundy-values' }, v.map((g, n) => h('span', { class: 'value' + (g === 0 ? ' zero' : '') }, h('i', {}, n), h('b', {}, g))));
  const section = h('div', { class: 'explore' },
    h('section', { class: 'card' }, h('h2', {}, `Grundy values of ${e.game}: g(0) … g(${v.length - 1})`),
      svg, h('p', { id: 'period', class: e.proven ? 'proven' : '' }, periodText),
      h('p', { class: 'muted small', id: 'values-source' }, source),
      e.values_error ? h('p', { class: 'error' }, e.values_error) : null,
      h('p', { class: 'muted small' }, (shaded ? 'Shaded: one period. ' : e.period ? `The period starts at heap ${e.preperiod}, beyond the values shown. ` : '') +
        'Flat marks: g(n) = 0, heaps that are P-positions on their own.'),
      valuesTable),
    h('section', { class: 'card' }, h('h2', {}, `P-positions of ${e.heaps} heap${e.heaps > 1 ? 's' : ''} up to ${e.max} (${e.convention === 'misere' ? 'misère' : 'normal'} play)`),
      h('p', { class: 'muted' }, 'The player to move loses from these: whoever moves into one can keep winning.'),
      e.p_positions_error ? h('p', { class: 'error' }, e.p_positions_error) : null,
      e.heaps === 2 ? pGrid(e) : h('p', { class: 'mono p-list', id: 'p-positions' }, e.p_positions.map((p) => '(' + p.join(', ') + ')').join('  '))));
  return section;
}

function pGrid(e) {
  const set = new Set(e.p_positions.map((p) => p.join(',')));
  const header = h('tr', {}, h('th', { scope: 'col' }, h('span', { class: 'sr-only' }, 'First heap, then second'), h('span', { 'aria-hidden': 'true' }, 'a\\b')), Array.from({ length: e.max + 1 }, (_, b) => h('th', {}, b)));
  const rows = Array.from({ length: e.max + 1 }, (_, a) => h('tr', {}, h('th', {}, a),
    Array.from({ length: e.max + 1 }, (_, b) => {
      const p = set.has([Math.min(a, b), Math.max(a, b)].join(','));
      return h('td', { class: p ? 'p' : '', title: `${a} ${b}: ${p ? 'P (loss for the player to move)' : 'N'}` }, p ? 'P' : '');
    })));
  return h('table', { class: 'p-grid', id: 'p-positions' }, h('thead', {}, header), h('tbody', {}, rows));
}

/**
 * A form's fields as name–value pairs (all of its fields are text).
 * @param {HTMLFormElement} form
 * @returns {string[][]}
 */
function formFields(form) {
  return [...new FormData(form)].map(([k, v]) => [k, String(v)]);
}
