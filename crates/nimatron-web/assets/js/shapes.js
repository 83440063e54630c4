// The other boards, drawn from the server's geometry: grids of cells
// (Chomp, n-dimensional Nim), Notakto's boards of marks, graphs (Node
// Kayles, Nim on graphs, Green Hackenbush), counters (the 21 and 100
// games, Fibonacci Nim) and words (Wordnim). Every playable part is an
// element of the board (board.js), so each is played by click, by touch
// and by keyboard; the last move's pieces stand as ghosts where they were,
// and what it put down is marked.

import { h, scrollCues } from './dom.js';
import { clearPick, gesture } from './selection.js';

const removed = (ctx, kind) => ((ctx.trace && ctx.trace.removed) || []).filter((g) => g.kind === kind);

// A grid: one table per 2-D slice (rows, then columns; 1-D grids are one
// row). Chomp's poisoned corner is drawn bottom left, as the game is told.
export function drawGrid(ctx) {
  const { dims, cells, poisoned } = ctx.geometry;
  const d = dims.length === 1 ? [1, dims[0]] : dims;
  const rows = d[d.length - 2], cols = d[d.length - 1];
  const slices = d.slice(0, -2).reduce((a, b) => a * b, 1);
  const flipped = !!poisoned && poisoned[poisoned.length - 2] === 0;
  const gone = new Set(removed(ctx, 'cell').map((g) => g.at.join(',')));
  const coords = (flat) => {
    const at = [];
    let rest = flat;
    for (let j = dims.length - 1; j >= 0; j--) { at.unshift(rest % dims[j]); rest = Math.floor(rest / dims[j]); }
    return at;
  };
  const tables = [];
  for (let sl = 0; sl < slices; sl++) {
    const trs = [];
    for (let rr = 0; rr < rows; rr++) {
      const r = flipped ? rows - 1 - rr : rr;
      const tds = [];
      for (let c = 0; c < cols; c++) {
        const flat = (sl * rows + r) * cols + c;
        const at = coords(flat);
        const name = at.map((x) => x + 1).join(',');
        const poison = poisoned && poisoned.join() === at.join();
        if (!cells[flat]) {
          tds.push(h('td', { class: 'gone' }, gone.has(at.join(','))
            ? h('span', { class: ctx.ghostClass('cell-ghost'), style: ctx.ghostStyle, 'aria-hidden': 'true', dataset: { at: at.join(',') } }) : null));
          continue;
        }
        tds.push(h('td', {}, ctx.element('button', {
          atoms: [`c${at.join('.')}`], nav: [sl * (rows + 1) + rr, c], cls: 'cell' + (poison ? ' poisoned' : ''),
          opts: { toggle: true, merge: true },
          label: dims.length === 1 ? `Cell ${c + 1}` : `Cell ${name}` + (poison ? ' (poisoned)' : ''),
          attrs: { dataset: { at: at.join(',') } },
        }, poison ? h('span', { class: 'skull', 'aria-hidden': 'true' }, '\u2620\uFE0E') : '')));
      }
      trs.push(h('tr', {}, tds));
    }
    tables.push(h('table', { class: 'grid' }, slices > 1 ? h('caption', {}, `Layer ${sl + 1}`) : null, h('tbody', {}, trs)));
  }
  const out = h('div', { class: 'grids' }, tables);
  // A line of cells is dragged across by a mouse, where a move takes more
  // than one cell (n-dimensional Nim); Chomp's bite is one square.
  const lines = ctx.idx.entries.some((e) => e.atoms.size > 1);
  if (ctx.live && lines && cells.length <= 400) enableCellDrag(ctx.s, out);
  return out;
}

// Dragging a mouse across cells selects them all (a line of pieces in one move).
function enableCellDrag(s, el) {
  el.addEventListener('pointerdown', (e) => {
    const b = e.target.closest('.cell:not(:disabled)');
    if (!b || e.button > 0 || e.pointerType !== 'mouse') return;
    s.drag = { atoms: [b.dataset.atom] };
  });
  el.addEventListener('pointermove', (e) => {
    if (!s.drag) return;
    const t = document.elementFromPoint(e.clientX, e.clientY);
    /** @type {HTMLElement | null} */
    const b = t && t.closest ? t.closest('.cell:not(:disabled)') : null;
    if (b && !s.drag.atoms.includes(b.dataset.atom)) {
      s.drag.atoms.push(b.dataset.atom);
      b.classList.add('dragged');
    }
  });
  el.addEventListener('pointerup', () => {
    const d = s.drag;
    s.drag = null;
    if (!d || d.atoms.length < 2) return;
    s.suppressClick = true;
    setTimeout(() => { s.suppressClick = false; }, 0);
    clearPick(s);
    gesture(s, d.atoms, { complete: true, describe: 'Taking those cells' });
  });
  el.addEventListener('pointercancel', () => { s.drag = null; });
}

// Notakto: boards of cells to mark with an X; a dead board (a line of
// three) takes no more marks. The last X is marked, with whose it is.
export function drawMarks(ctx) {
  const { side, boards, dead } = ctx.geometry;
  const cols = 'abcdefghijklmnopqrstuvwxyz';
  return h('div', { class: 'marks' }, boards.map((cells, b) => h('table', { class: 'grid marks-board' + (dead[b] ? ' dead-board' : '') },
    h('caption', {}, `Board ${b + 1}` + (dead[b] ? ' (dead)' : '')),
    h('tbody', {}, Array.from({ length: side }, (_, r) => h('tr', {}, Array.from({ length: side }, (_, c) => {
      const marked = cells[r * side + c];
      const name = `${cols[c]}${r + 1}`;
      const key = `c${b}.${r}.${c}`;
      if (marked) {
        const last = ctx.isNew(key);
        return h('td', {}, h('span', {
          class: 'cell marked' + (last ? ' new' : ''), role: 'img',
          'aria-label': `Board ${b + 1}, ${name}: X` + (last ? ` (${ctx.by || 'the last move'})` : ''),
        }, '✕'));
      }
      return h('td', {}, ctx.element('button', {
        atoms: [key], opts: { complete: true }, nav: [r, b * (side + 1) + c], cls: 'cell',
        label: `Board ${b + 1}, ${name}`,
      }));
    })))))));
}

// Where each vertex stands, by id: laid out once from the game's first
// board (`ctx.s.frame`, else this one), so that vertices keep their places
// as others go, and the ghosts of the last move stand where they stood.
function framePositions(ctx, width, height) {
  const frame = ctx.s.frame && ctx.s.frame.kind === 'graph' ? ctx.s.frame : ctx.geometry;
  const { vertices, edges, ground } = frame;
  const at = layout(vertices, edges, ground, width, height);
  const byId = new Map(vertices.map((v, i) => [v.id, at[i]]));
  // A vertex the first board did not have (none in the catalogue's games)
  // is laid out with this board.
  const here = layout(ctx.geometry.vertices, ctx.geometry.edges, ctx.geometry.ground, width, height);
  ctx.geometry.vertices.forEach((v, i) => { if (!byId.has(v.id)) byId.set(v.id, here[i]); });
  return byId;
}

// A graph laid out in the browser: in layers above the ground where there
// is one (Hackenbush), else on a circle. Vertices and edges that moves
// touch are buttons (an edge also by its line); edges show their weights.
export function drawGraph(ctx) {
  const { vertices, edges, token, ground } = ctx.geometry;
  const hasGround = ground !== null && ground !== undefined;
  const width = Math.min(520, Math.max(260, window.innerWidth - 64));
  // On the ground, a storey per level of the first picture, 100 px high.
  const height = hasGround ? Math.max(300, 60 + 100 * groundDepth(ctx.s.frame && ctx.s.frame.kind === 'graph' ? ctx.s.frame : ctx.geometry)) : width;
  const pos = framePositions(ctx, width, height);
  const groundY = height - 18;
  const svgEdges = [];
  const buttons = [];
  const edgeCount = new Map();
  const groundId = hasGround ? vertices[ground].id : null;
  // The curve of an edge between vertices `a` and `b` (ids): an edge to the
  // ground stands on the ground line below its other end, as Hackenbush is
  // drawn; parallel edges bow apart; a loop is a small circle above its
  // vertex. Returns the path and its middle.
  const curve = (a, b) => {
    const key = [a, b].sort().join('-');
    const k = edgeCount.get(key) || 0;
    edgeCount.set(key, k + 1);
    const foot = (v, other) => (v === groundId && other !== groundId ? [pos.get(other)[0], groundY] : pos.get(v));
    const [x1, y1] = foot(a, b), [x2, y2] = foot(b, a);
    let mx = (x1 + x2) / 2, my = (y1 + y2) / 2;
    if (a === b) return { path: `M${x1},${y1} c-30,-50 30,-50 0,0`, mx, my: y1 - 38 };
    const bow = k === 0 ? 0 : (k % 2 ? 1 : -1) * 22 * Math.ceil(k / 2);
    const len = Math.hypot(x2 - x1, y2 - y1) || 1;
    const cx = mx - (y2 - y1) / len * bow * 2, cy = my + (x2 - x1) / len * bow * 2;
    mx = (mx + cx) / 2; my = (my + cy) / 2;
    return { path: `M${x1.toFixed(1)},${y1.toFixed(1)} Q${cx.toFixed(1)},${cy.toFixed(1)} ${x2.toFixed(1)},${y2.toFixed(1)}`, mx, my };
  };
  const hits = [];
  edges.forEach((e, i) => {
    if (!vertices[e.from].present || !vertices[e.to].present) return;
    const { path, mx, my } = curve(vertices[e.from].id, vertices[e.to].id);
    const key = `e:${e.id}`;
    const marks = ctx.stateOf(key).join(' ');
    svgEdges.push(`<path d="${path}" class="edge-line ${marks}" data-id="${escapeAttr(e.id)}"/>`);
    const label = `Edge ${vertices[e.from].label}–${vertices[e.to].label}` + (e.weight !== null && e.weight !== undefined ? `, weight ${e.weight}` : '');
    if (ctx.used(key) || e.weight !== null) {
      buttons.push(ctx.element('button', {
        atoms: [key], nav: [1, i], cls: 'edge-handle',
        label, attrs: { style: `left:${mx.toFixed(1)}px;top:${my.toFixed(1)}px`, dataset: { edge: i, id: e.id } },
      }, e.weight !== null && e.weight !== undefined ? String(e.weight) : ''));
      if (ctx.used(key)) hits.push(`<path d="${path}" class="edge-hit" data-id="${escapeAttr(e.id)}"/>`);
    }
  });
  // The ghosts of the last move: the edges that went, then the vertices.
  const ghostEdges = removed(ctx, 'edge').filter((g) => pos.has(g.from) && pos.has(g.to)).map((g) => {
    const { path } = curve(g.from, g.to);
    return `<path d="${path}" class="edge-line ${ctx.ghostClass('')}" data-id="${escapeAttr(g.id)}"/>`;
  });
  const ghosts = removed(ctx, 'vertex').filter((g) => pos.has(g.id)).map((g) => {
    const [x, y] = pos.get(g.id);
    return h('span', {
      class: ctx.ghostClass('vertex-ghost'), 'aria-hidden': 'true', dataset: { id: g.id },
      style: `left:${x.toFixed(1)}px;top:${y.toFixed(1)}px` + (ctx.ghostStyle ? ';' + ctx.ghostStyle : ''),
    }, g.label);
  });
  vertices.forEach((v, i) => {
    if (!v.present) return;
    const [x, y] = pos.get(v.id);
    const style = `left:${x.toFixed(1)}px;top:${y.toFixed(1)}px`;
    const cls = 'vertex' + (i === token ? ' token' : '') + (i === ground ? ' ground' : '');
    const label = i === ground ? 'The ground' : `Vertex ${v.label}` + (i === token ? ' (the token is here)' : '');
    const key = `v:${v.id}`;
    if (ctx.used(key)) {
      buttons.push(ctx.element('button', {
        atoms: [key], nav: [0, i], cls, label, attrs: { style, dataset: { vertex: i, id: v.id } },
      }, v.label));
    } else {
      // A vertex no move chooses is part of the picture, not a control.
      const last = ctx.isNew(key);
      buttons.push(h('span', {
        class: [cls, 'still', ...ctx.stateOf(key)].join(' '), style, role: 'img', dataset: { vertex: i, id: v.id, key },
        'aria-label': label + (last ? ` (${ctx.by || 'the last move'})` : ''),
      }, i === ground ? '' : v.label));
    }
  });
  const svg = `<svg class="graph-lines" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" aria-hidden="true">` +
    (hasGround ? `<line x1="0" y1="${groundY}" x2="${width}" y2="${groundY}" class="ground-line"/>` : '') +
    ghostEdges.join('') + svgEdges.join('') + hits.join('') + '</svg>';
  const box = h('div', { class: 'graph' + (hasGround ? ' grounded' : ''), style: `width:${width}px;height:${height}px` });
  box.innerHTML = svg;
  box.append(...ghosts, ...buttons);
  // A tap or click on an edge's line plays it as its handle does.
  box.querySelector('svg').addEventListener('click', (e) => {
    const hit = e.target.closest('.edge-hit');
    if (!hit) return;
    const handle = box.querySelector(`.edge-handle[data-id="${CSS.escape(hit.dataset.id)}"]`);
    if (handle && !handle.disabled) handle.click();
  });
  if (!vertices.some((v) => v.present)) box.append(h('p', { class: 'muted' }, 'No vertices left.'));
  return box;
}

// How many edges the farthest vertex stands from the ground.
function groundDepth({ vertices, edges, ground }) {
  const depth = vertices.map(() => -1);
  depth[ground] = 0;
  const queue = [ground];
  for (let q = 0; q < queue.length; q++) {
    for (const e of edges) {
      for (const [a, b] of [[e.from, e.to], [e.to, e.from]]) {
        if (a === queue[q] && depth[b] < 0) { depth[b] = depth[a] + 1; queue.push(b); }
      }
    }
  }
  return Math.max(1, ...depth);
}

const escapeAttr = (t) => String(t).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

function layout(vertices, edges, ground, width, height) {
  const n = vertices.length;
  const at = new Array(n);
  if (ground === null || ground === undefined) {
    const r = Math.min(width, height) / 2 - 34;
    vertices.forEach((_, i) => {
      const a = -Math.PI / 2 + (2 * Math.PI * i) / Math.max(1, n);
      at[i] = [width / 2 + r * Math.cos(a), height / 2 + r * Math.sin(a)];
    });
    return at;
  }
  // Layers by distance from the ground, children spread under their parent's
  // slot so that trees (the usual Hackenbush pictures) do not cross.
  const adj = vertices.map(() => []);
  edges.forEach((e) => { adj[e.from].push(e.to); adj[e.to].push(e.from); });
  const depth = new Array(n).fill(-1);
  const parent = new Array(n).fill(-1);
  depth[ground] = 0;
  const order = [ground];
  for (let q = 0; q < order.length; q++) {
    for (const w of adj[order[q]]) if (depth[w] < 0) { depth[w] = depth[order[q]] + 1; parent[w] = order[q]; order.push(w); }
  }
  vertices.forEach((_, i) => { if (depth[i] < 0) { depth[i] = 1; parent[i] = ground; order.push(i); } });
  const leaves = new Array(n).fill(0);
  for (let q = order.length - 1; q >= 0; q--) {
    const v = order[q];
    if (leaves[v] === 0) leaves[v] = 1;
    if (parent[v] >= 0 && v !== ground) leaves[parent[v]] += leaves[v];
  }
  const maxDepth = Math.max(1, ...depth);
  const step = (height - 50) / maxDepth;
  const span = new Array(n);
  span[ground] = [20, width - 20];
  at[ground] = [width / 2, height - 18];
  for (const v of order) {
    const kids = order.filter((w) => parent[w] === v && w !== ground);
    let [lo] = span[v];
    const hi = span[v][1];
    // Each leaf below v has an equal share of v's span.
    const unit = (hi - lo) / (kids.reduce((a, w) => a + leaves[w], 0) || 1);
    for (const w of kids) {
      const part = unit * leaves[w];
      span[w] = [lo, lo + part];
      at[w] = [lo + part / 2, height - 18 - depth[w] * step];
      lo += part;
    }
  }
  return at;
}

// A counter: the running total (or the heap) and a button per step. The
// last move's step is said beside it.
export function drawCounter(ctx) {
  const { value, target, min_step: lo, max_step: hi, adds } = ctx.geometry;
  const steps = [];
  for (let k = lo; k <= hi && steps.length < 200; k++) {
    steps.push(ctx.element('button', {
      atoms: [`s${k}`], opts: { complete: true }, nav: [0, k], cls: 'step',
      label: adds ? `Add ${k}` : `Take ${k}`,
    }, (adds ? '+' : '−') + k));
  }
  const last = ((ctx.trace && ctx.trace.added) || []).find((e) => e.kind === 'step');
  const what = adds ? `the total is ${value}; whoever reaches ${target} wins` : `${value} left`;
  return h('div', { class: 'counter' },
    h('div', { class: 'counter-value', role: 'img', 'aria-label': what },
      h('b', {}, value), h('span', { class: 'muted' }, adds ? ` of ${target}` : ' left'),
      last ? h('span', { class: 'last-step new' }, (adds ? ' +' : ' −') + last.amount) : null),
    adds ? h('div', { class: 'track', 'aria-hidden': 'true' }, h('div', { class: 'fill', style: `width:${Math.min(100, 100 * value / Math.max(1, target)).toFixed(1)}%` })) : null,
    hi >= lo ? h('p', { class: 'muted small' }, adds ? `This turn: add ${lo} to ${hi}.` : `This turn: take ${lo} to ${hi}.`) : null,
    h('div', { class: 'steps' }, steps));
}

// Words as rows of letter tiles (Wordnim). A click selects a letter, or
// drops it again; the move is played once the selection fits one move,
// and the moves it could still become are offered meanwhile. The word the
// last move left is marked, and the letters it took stand beside it.
export function drawWords(ctx) {
  const { words } = ctx.geometry;
  const taken = removed(ctx, 'letters');
  return h('div', { class: 'words' },
    words.map((word, w) => scrollCues(h('div', { class: 'word', dataset: { word: w } },
      h('span', { class: 'word-name muted small' }, `${w + 1}.`),
      [...word].map((c, k) => ctx.element('button', {
        atoms: [`l${w}.${k}`], opts: { toggle: true, merge: true }, nav: [w, k], cls: 'letter',
        label: `Word ${w + 1} (${word}), letter ${k + 1}: ${c.toUpperCase()}`,
        attrs: { dataset: { word: w, index: k } },
      }, c.toUpperCase())),
      taken.filter((g) => g.word === w).flatMap((g) => [...g.letters].map((c) =>
        h('span', { class: ctx.ghostClass('letter-ghost'), style: ctx.ghostStyle, 'aria-hidden': 'true' }, c.toUpperCase())))), '.letter', { key: `${ctx.s.id}:word:${w}`, reveal: ctx.reveal })));
}
