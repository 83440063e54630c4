// The game page's side: the analysis of the position (the verdict, the
// winning moves, Nim's binary table and why), and the moves made, judged.

import { h, touchScreen } from './dom.js';
import { names } from './play-state.js';

// A name inside a sentence: "you", "your friend"; others as they are.
const lowerName = (name) => (name === 'You' || name === 'Your friend' ? name.toLowerCase() : name);

function nimTableView(t) {
  const lead = t.nim_sum ? t.bits - 1 - Math.floor(Math.log2(t.nim_sum)) : -1;
  const cols = [];
  for (let b = t.bits - 1; b >= 0; b--) cols.push(2 ** b);
  const cells = (bin) => bin.split('').map((c, i) => h('td', { class: 'bit' + (c === '1' ? ' one' : '') + (i === lead ? ' lead' : '') }, c));
  return h('table', { class: 'nim-table', id: 'nim-table' },
    h('thead', {}, h('tr', {}, h('th', {}, 'heap'), h('th', {}, 'size'), cols.map((c, i) => h('th', { class: i === lead ? 'lead' : '' }, c + 's')))),
    h('tbody', {}, t.rows.map((r) => h('tr', {}, h('th', {}, r.name), h('td', { class: 'num' }, r.size), cells(r.binary)))),
    h('tfoot', {}, h('tr', {}, h('th', {}, 'nim-sum'), h('td', { class: 'num' }, t.nim_sum), cells(t.nim_sum_binary))));
}

export function analysisView(s) {
  const g = s.game;
  // Online, during play, the analysis shows only while both players agree.
  const online = g.mode === 'online' && g.status !== 'over';
  const me = s.mine ? s.mine.seat : null;
  const friendAgrees = online && me !== null && g.analysis.agreed[1 - me];
  if (!s.analysisOn) {
    const why = online
      ? (friendAgrees
        ? 'Your friend has turned the analysis on. It shows to both of you when you turn it on too.'
        : 'Off. In an online game it shows only when both players turn it on, so that neither sees the winning move alone.')
      : 'Off, so as not to spoil the game. Turn it on to colour every move winning or losing and to see why.';
    return h('section', { class: 'card analysis off', id: 'analysis' }, h('h2', {}, 'Analysis'), h('p', { class: 'muted', id: 'analysis-note' }, why));
  }
  if (!g.analysis.shown) {
    return h('section', { class: 'card analysis off', id: 'analysis' }, h('h2', {}, 'Analysis'),
      h('p', { class: 'muted', id: 'analysis-note', role: 'status' }, me === null
        ? 'The players have not both agreed to show the analysis during this game. It shows once the game is over.'
        : 'You have turned the analysis on. It shows when your friend turns it on too.'));
  }
  const box = h('section', { class: 'card analysis', id: 'analysis' }, h('h2', {}, 'Analysis'));
  if (s.analysisError) { box.append(h('p', { class: 'error' }, s.analysisError)); return box; }
  if (!s.analysis) { box.append(h('p', { class: 'muted' }, 'Solving…')); return box; }
  const a = s.analysis.current;
  const n = names(s);
  if (a && s.replay === null) {
    const mover = n[s.game.to_move];
    const verdict = a.outcome === 'N'
      ? `${mover} ${mover === 'You' ? 'are' : 'is'} winning: a winning move exists.`
      : `${mover} ${mover === 'You' ? 'are' : 'is'} losing against perfect play: every move leaves a win for the other side.`;
    box.append(h('p', { class: 'verdict ' + (a.outcome === 'N' ? 'winning' : 'losing'), id: 'verdict' }, verdict));
    if (a.winning_moves.length) {
      box.append(h('p', { id: 'best-move' }, 'Winning move' + (a.winning_moves.length > 1 ? 's' : '') + ': ',
        a.winning_moves.map((m, i) => [i ? ', ' : '', h('b', { class: 'win-text' }, m.text), m.value_text ? ` (${m.value_text})` : ''])));
    }
    if (a.remoteness) {
      const r = a.remoteness;
      box.append(h('p', { id: 'remoteness', class: 'small' },
        `With perfect play the game lasts ${r.exact ? '' : 'at most '}${r.moves} more move${r.moves === 1 ? '' : 's'}: the winner hurries, the loser delays.`));
    }
    if (a.moves && a.moves.length) {
      const sorted = a.moves.slice().sort((x, y) => (x.value === y.value ? 0 : x.value === 'winning' ? -1 : 1) ||
        ((x.remoteness ? x.remoteness.moves : 0) - (y.remoteness ? y.remoteness.moves : 0)) * (x.value === 'winning' ? 1 : -1));
      box.append(h('details', { class: 'valued', id: 'valued-moves' }, h('summary', {}, `Every move, valued (${a.moves.length})`),
        // The list scrolls: it takes the keyboard's focus, so that the
        // arrow keys scroll it too.
        h('ul', { class: 'valued-list', tabindex: '0', 'aria-label': 'Every move, valued' }, sorted.slice(0, 60).map((m) => h('li', { class: m.value || '' },
          h('span', {}, m.text), ' ', h('b', { class: 'value-text' }, m.value_text || m.value || ''))))));
    }
    box.append(h('p', { class: 'legend' }, h('span', { class: 'swatch winning' }), ' winning move ', h('span', { class: 'swatch losing' }), ' losing move'));
    if (a.nim_table) box.append(nimTableView(a.nim_table));
    else if (a.grundy !== null && a.grundy !== undefined) box.append(h('p', {}, 'Sprague–Grundy value: ', h('b', {}, a.grundy)));
    box.append(h('details', { open: true, class: 'explanation' }, h('summary', {}, 'Why'), h('pre', { id: 'explanation' }, a.explanation)),
      h('p', { class: 'muted small' }, a.method));
  } else {
    // A replayed position, or the last one of a finished game: what it was
    // worth, and what the winning move there was.
    const values = s.analysis.values || [];
    const k = s.replay === null ? values.length - 1 : s.replay;
    const v = values[k];
    if (v) {
      const who = lowerName(n[v.to_move]);
      const are = who === 'you' ? 'were' : 'was';
      const left = v.remoteness ? `, with ${v.remoteness.exact ? '' : 'at most '}${v.remoteness.moves} move${v.remoteness.moves === 1 ? '' : 's'} to the end` : '';
      const text = v.remoteness && v.remoteness.moves === 0
        ? `${k === 0 ? 'At the start' : 'After move ' + k} the game was over.`
        : `${k === 0 ? 'At the start' : 'After move ' + k}, ${who} ${are} to move and ${v.outcome === 'N' ? 'winning' : 'losing against perfect play'}${left}.`;
      box.append(h('p', { class: 'verdict ' + (v.outcome === 'N' ? 'winning' : 'losing'), id: 'replay-verdict' }, text));
      if (v.winning_move) box.append(h('p', { id: 'replay-best' }, 'The winning move there: ', h('b', {}, v.winning_move)));
      const made = s.analysis.history[k];
      if (made && made.better) box.append(h('p', { id: 'replay-better' }, `${n[made.seat]} played “${made.text}” instead, which threw the win away.`));
    }
  }
  const chart = valueHistoryView(s, n);
  if (chart) box.append(chart);
  return box;
}

const SVG = 'http://www.w3.org/2000/svg';
function svg(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) el.setAttribute(k, v);
  for (const c of children.flat()) if (c) el.append(c);
  return el;
}

// The value history: one point per position of the game, above the line
// when the first player wins it, below when the second does, and the
// nearer the edge the fewer moves remain (the edge is the end). A move that
// crosses the line threw a win away. Clicking a point replays it.
export function valueHistoryView(s, n) {
  const values = s.analysis && s.analysis.values;
  if (!values || values.length < 2) return null;
  const W = 320; const H = 172; const pad = 26; const mid = (H - 18) / 2; const half = mid - 14;
  const maxR = Math.max(1, ...values.map((v) => (v.remoteness ? v.remoteness.moves : 0)));
  const last = values.length - 1;
  const x = (k) => pad + (k * (W - 2 * pad)) / last;
  const dist = (v) => (v.remoteness ? (maxR + 1 - v.remoteness.moves) / (maxR + 1) : 0.5) * half;
  const y = (v) => (v.winner === 0 ? mid - dist(v) : mid + dist(v));
  const path = values.map((v, k) => `${k ? 'L' : 'M'}${x(k).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  const shown = s.replay === null ? last : s.replay;
  const points = values.map((v, k) => {
    const flipped = k > 0 && values[k - 1].winner !== v.winner;
    const r = v.remoteness ? `${v.remoteness.exact ? '' : 'at most '}${v.remoteness.moves} move${v.remoteness.moves === 1 ? '' : 's'} left` : 'moves left unknown';
    const label = `${k === 0 ? 'Start' : 'After move ' + k}: ${n[v.winner]} ${n[v.winner] === 'You' ? 'win' : 'wins'}, ${r}${flipped ? '; the move threw a win away' : ''}`;
    return svg('circle', {
      cx: x(k).toFixed(1), cy: y(v).toFixed(1), r: k === shown ? 6 : 4,
      class: 'vh-point seat' + v.winner + (flipped ? ' flipped' : '') + (k === shown ? ' shown' : ''),
      'data-ply': k,
    }, svg('title', {}, document.createTextNode(label)));
  });
  const plot = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'value-history', role: 'img', id: 'value-history',
    'aria-label': `Value history of ${values.length} positions: above the line ${n[0]} ${n[0] === 'You' ? 'win' : 'wins'}, below it ${n[1]} ${n[1] === 'You' ? 'win' : 'wins'}; the nearer the edge, the fewer moves remain.` },
  svg('line', { x1: pad, x2: W - pad, y1: mid, y2: mid, class: 'vh-axis' }),
  svg('text', { x: 2, y: 12, class: 'vh-label' }, document.createTextNode(`${n[0]} ${n[0] === 'You' ? 'win' : 'wins'}`)),
  svg('text', { x: 2, y: H - 16, class: 'vh-label' }, document.createTextNode(`${n[1]} ${n[1] === 'You' ? 'win' : 'wins'}`)),
  svg('path', { d: path, class: 'vh-line' }),
  // Move numbers along the bottom (every one, or every few in a long game).
  values.map((_, k) => (k % Math.max(1, Math.ceil(last / 12)) === 0 || k === last
    ? svg('text', { x: x(k).toFixed(1), y: H - 4, class: 'vh-tick', 'text-anchor': 'middle' }, document.createTextNode(String(k))) : null)),
  points);
  plot.addEventListener('click', (e) => {
    const ply = e.target.dataset && e.target.dataset.ply;
    if (ply === undefined) return;
    const k = Number(ply);
    s.replay = k === last && s.game.status !== 'over' ? null : k;
    s.render();
  });
  return h('figure', { class: 'value-history-box' }, plot,
    h('figcaption', { class: 'muted small' }, `Value history, by move number: above the line the first player is winning, below it the second; the nearer the edge, the nearer the end. A crossing is a win thrown away. ${touchScreen() ? 'Tap' : 'Click'} a point to see that position.`));
}

export function movesView(s, n) {
  const g = s.game;
  const review = s.analysisOn && s.analysis ? s.analysis.history : null;
  const items = g.moves.map((m, i) => {
    const r = review && review[i];
    const mark = r ? { winning: ['✓', 'kept the win'], blunder: ['✗', 'threw away a win'], lost: ['·', 'already lost'] }[r.value] : null;
    const last = i + 1 === g.moves.length;
    return h('li', { class: (r ? r.value : '') + (s.replay === i + 1 ? ' current' : '') + (last ? ' last' : '') },
      h('button', {
        type: 'button', class: 'move-row', id: 'history-' + (i + 1), 'aria-current': s.replay === i + 1 ? 'step' : null,
        onclick: () => { s.replay = last && g.status !== 'over' ? null : i + 1; s.render(); },
      },
      h('span', { class: 'ply' }, m.ply + '.'),
      h('span', { class: 'who' }, n[m.seat]),
      h('span', { class: 'what' }, m.text),
      mark ? h('span', { class: 'mark', title: mark[1] }, mark[0], h('span', { class: 'mark-text' }, ' ' + mark[1])) : null,
      r && r.better ? h('span', { class: 'better' }, 'better: ' + r.better) : null));
  });
  return h('section', { class: 'card moves' }, h('h2', {}, 'Moves'),
    g.moves.length ? h('ol', { id: 'move-history' }, items) : h('p', { class: 'muted' }, 'No moves yet. Start: ' + g.start),
    g.moves.length ? h('p', { class: 'muted small' }, `${touchScreen() ? 'Tap' : 'Click'} a move to see the position after it.`) : null);
}
