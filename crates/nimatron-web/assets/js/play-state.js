// The game page's state, read: the players' names, whether this browser may
// move now, the position shown (live or replayed), and a move's value when
// the analysis is on.

export function names(s) {
  const g = s.game;
  const me = s.mine ? s.mine.seat : null;
  if (g.mode === 'computer') return me === null ? ['Player', 'Nimatron'] : ['You', 'Nimatron'];
  if (g.mode === 'local') return ['Player 1', 'Player 2'];
  if (me === null) return ['Player 1', 'Player 2'];
  return me === 0 ? ['You', 'Your friend'] : ['Your friend', 'You'];
}

export function canMove(s) {
  const g = s.game;
  if (!g || g.status !== 'playing' || s.replay !== null || s.busy || !s.mine) return false;
  return g.mode === 'local' || s.mine.seat === g.to_move;
}

export function moveValue(s, mv) {
  if (!s.analysisOn || !s.analysis || !s.analysis.current || !mv) return null;
  const a = s.analysis.current.moves.find((m) => m.notation === mv.notation);
  return a ? a.value : null;
}

export function replayPosition(s) {
  const g = s.game;
  const i = s.replay;
  if (i === null) return g.position;
  return i === 0 ? g.start : g.moves[i - 1].after;
}
