// The list of past games: the History page, and the short list on the home
// page. Both list this browser's own games (those whose seats it holds),
// by the games' names, and History counts this browser's score against
// Nimatron.

import { h, app, setTitle, showError, when } from './dom.js';
import { loadCatalogue, myGames, seats, titleOf } from './api.js';

// A game's result, from the seat this browser holds.
function resultText(g) {
  if (g.status === 'waiting') return 'waiting for your friend';
  if (g.status !== 'over') return 'in progress';
  if (g.mode === 'computer') return g.winner === g.computer_seat ? 'Nimatron won' : 'You won';
  if (g.mode === 'online') {
    const mine = seats.load(g.id);
    if (mine && mine.seat !== null && mine.seat !== undefined) return mine.seat === g.winner ? 'You won' : 'Your friend won';
  }
  return 'Player ' + (g.winner + 1) + ' won';
}

const modeName = (g) => ({
  computer: 'against Nimatron' + (g.level ? ` (${g.level})` : ''),
  local: 'two players, one screen',
  online: 'online, with a friend',
}[g.mode]);

// The games as a list, newest first: each with its name, how it was
// played, when, its moves and its result, on one card that fits a phone.
export function gamesList(games, catalogue, compact) {
  return h('ol', { class: 'game-list' + (compact ? ' compact' : ''), id: compact ? null : 'games' }, games.map((g) => {
    const name = titleOf(g.game, catalogue) + (g.convention === 'misere' ? ' (misère)' : '');
    return h('li', { dataset: { game: g.id } },
      h('a', { href: '/play/' + g.id, 'data-link': true, class: 'game-name' }, name), ' ',
      h('span', { class: 'result ' + (/^You won/.test(resultText(g)) ? 'won' : '') }, resultText(g)), ' ',
      h('span', { class: 'muted small game-how' }, `${modeName(g)} · ${when(g.created_at)} · ${g.ply} move${g.ply === 1 ? '' : 's'}` +
        (compact ? '' : ` · from ${g.start}`)));
  }));
}

export async function historyPage() {
  const root = app();
  setTitle('History');
  root.replaceChildren(h('p', { class: 'muted' }, 'Loading…'));
  try {
    const [games, catalogue] = await Promise.all([myGames(), loadCatalogue().catch(() => null)]);
    const wins = { you: 0, computer: 0 };
    for (const g of games) {
      if (g.mode === 'computer' && g.status === 'over') wins[g.winner === g.computer_seat ? 'computer' : 'you']++;
    }
    root.replaceChildren(h('section', { class: 'card' },
      h('h1', {}, 'Your games'),
      h('p', { class: 'muted', id: 'history-score' },
        `${games.length} game${games.length === 1 ? '' : 's'} played in this browser. Against Nimatron: you won ${wins.you}, Nimatron won ${wins.computer}. Open a game to replay it move by move.`),
      games.length ? gamesList(games, catalogue, false) : h('p', { id: 'games' }, 'No games yet in this browser — ', h('a', { href: '/', 'data-link': true }, 'start one'), '.'),
      h('p', { class: 'muted small' }, 'The games listed are those this browser holds a seat in; other people\'s games on this server are theirs to see.')));
  } catch (e) { showError(root, e); }
}
