// Reading a game's JSON for the boards: heap names, the heaps a move leads
// to, and which legal move a run, a gap or the end of a heap stands for.

// The heaps a move leads to, for heap games (the analysis JSON writes a
// heap position as an array and any other position as text).
const toHeaps = (m) => (Array.isArray(m.to) ? m.to : null);

export const heapName = (i) => {
  let n = i + 1, s = '';
  while (n > 0) { const r = (n - 1) % 26; s = String.fromCharCode(65 + r) + s; n = Math.floor((n - 1) / 26); }
  return s;
};

export function parseHeapsText(text) {
  if (!/^[\d\s]+$/.test(text.trim())) return null;
  return text.trim().split(/\s+/).map(Number);
}

function sameMultiset(a, b) {
  const norm = (x) => x.filter((v) => v > 0).sort((p, q) => p - q).join(',');
  return norm(a) === norm(b);
}

export function splitting(g) {
  // Games whose moves can break a row in two (Kayles, octal games, Grundy's
  // game): select a run of adjacent objects (or a gap) instead of a suffix.
  // The server says so for the game (`rows_split`); the legal moves are a
  // fallback for a server without the field.
  return !!g.heaps && (!!g.rows_split || g.legal_moves.some((m) => toHeaps(m) && toHeaps(m).length > g.heaps.length));
}

const runKey = (heap, take, parts) => heap + '|' + take + '|' + parts.filter((x) => x > 0).sort((a, b) => a - b).join(',');

const moveIndexes = new WeakMap();
function moveIndex(g) {
  // The legal moves that act on one heap in place, by heap, objects taken
  // and the parts left of that heap: a move on heap i leaves the heaps
  // before i, its parts, then the heaps after i (docs/api.md).
  let idx = moveIndexes.get(g.legal_moves);
  if (idx) return idx;
  idx = new Map();
  const heaps = g.heaps || [];
  for (const m of g.legal_moves) {
    if (m.heap === null || m.heap === undefined || m.take === null || m.take === undefined || !toHeaps(m)) continue;
    const i = m.heap;
    const tail = heaps.length - i - 1;
    const end = toHeaps(m).length - tail;
    if (end <= i) continue;
    if (toHeaps(m).slice(0, i).join() !== heaps.slice(0, i).join()) continue;
    if (toHeaps(m).slice(end).join() !== heaps.slice(i + 1).join()) continue;
    const key = runKey(i, m.take, toHeaps(m).slice(i, end));
    if (!idx.has(key)) idx.set(key, m);
  }
  moveIndexes.set(g.legal_moves, idx);
  return idx;
}

export function findMove(g, heap, from, to) {
  // The legal move that removes objects from..to (inclusive) of a heap,
  // leaving the objects on either side as the heap's parts.
  const n = g.heaps[heap];
  if (from < 0 || to >= n || from > to) return null;
  const direct = moveIndex(g).get(runKey(heap, to - from + 1, [from, n - 1 - to]));
  if (direct) return direct;
  if (to === n - 1) {
    const exact = g.legal_moves.find((m) => m.heap === heap && m.take === n - from);
    if (exact) return exact;
  }
  const target = g.heaps.slice();
  target.splice(heap, 1, from, n - 1 - to);
  const candidates = g.legal_moves.filter((m) => toHeaps(m) && sameMultiset(toHeaps(m), target));
  return candidates.find((m) => m.heap === heap) || candidates[0] || null;
}

export function findSplit(g, heap, at) {
  // The legal move that splits a heap between objects at-1 and at without
  // taking any (Grundy's game).
  const n = g.heaps[heap];
  if (at <= 0 || at >= n) return null;
  return moveIndex(g).get(runKey(heap, 0, [at, n - at])) || null;
}

export function runNotation(g, heap, from, to) {
  // How to write taking objects from..to of a heap, legal or not, so that
  // the server can say why it is refused.
  const n = g.heaps[heap];
  const parts = [from, n - 1 - to].filter((x) => x > 0);
  const name = heapName(heap);
  if (parts.length === 2) return `${name} ${to - from + 1} ${parts[0]}+${parts[1]}`;
  return `${name} ${to - from + 1}` + (parts.length ? ' ' + parts[0] : '');
}
