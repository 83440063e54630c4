// The list of past games: the History page, and the short list on the home
// page.

import { h, app, showError, when } from './dom.js';
import { api } from './api.js';

function resultText(g) {
  if (g.status === 'waiting') return 'waiting for a player';
  if (g.status !== 'over') return 'in progress';
  if (g.mode === 'computer') return g.winner === g.computer_seat ? 'Nimatron won' : 'You won';
  return 'Player ' + (g.winner + 1) + ' won';
}

export function gamesTable(games, compact) {
  const modeName = { computer: 'vs computer', local: 'same screen', online: 'online' };
  return h('table', { class: 'games' },
    h('thead', {}, h('tr', {}, h('th', {}, 'When'), h('th', {}, 'Game'), compact ? null : h('th', {}, 'Start'),
      h('th', {}, 'Moves'), h('th', {}, 'Result'))),
    h('tbody', {}, games.map((g) => h('tr', {},
      h('td', {}, h('a', { href: '/play/' + g.id, 'data-link': true }, when(g.created_at))),
      h('td', {}, g.game + (g.convention === 'misere' ? ' (misère)' : ''), h('span', { class: 'muted small' }, ' ' + modeName[g.mode] + (g.level ? ', ' + g.level : ''))),
      compact ? null : h('td', { class: 'mono' }, g.start),
      h('td', { class: 'num' }, g.ply),
      h('td', {}, resultText(g))))));
}

export async function historyPage() {
  const root = app();
  root.replaceChildren(h('p', { class: 'muted' }, 'Loading…'));
  try {
    const list = await api('GET', '/games?limit=200');
    const wins = { you: 0, computer: 0 };
    for (const g of list.games) {
      if (g.mode === 'computer' && g.status === 'over') wins[g.winner === g.computer_seat ? 'computer' : 'you']++;
    }
    root.replaceChildren(h('section', { class: 'card' },
      h('h1', {}, 'Past games'),
      h('p', { class: 'muted' }, `${list.total} game${list.total === 1 ? '' : 's'} stored. Against the computer: you won ${wins.you}, Nimatron won ${wins.computer}. Open a game to replay it move by move.`),
      list.games.length ? gamesTable(list.games, false) : h('p', {}, 'No games yet — ', h('a', { href: '/', 'data-link': true }, 'start one'), '.')));
  } catch (e) { showError(root, e); }
}
