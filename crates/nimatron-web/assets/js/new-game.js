// The home page: the form that starts a new game, how to play, and the
// latest games.

import { h, app, setTitle, showError, touchScreen } from './dom.js';
import { createGame, loadCatalogue, myGames } from './api.js';
import { navigate } from './router.js';
import { gamesList } from './history.js';

export async function homePage() {
  const root = app();
  setTitle('New game');
  root.replaceChildren(h('p', { class: 'muted' }, 'Loading…'));
  let games;
  try { games = await loadCatalogue(); } catch (e) { return showError(root, e); }

  const specInput = h('input', { id: 'spec', name: 'spec', value: 'nim', 'aria-label': 'Game spec, as in nimatron games', autocomplete: 'off', spellcheck: 'false', 'aria-describedby': 'spec-help' });
  const gameSelect = h('select', { id: 'game-select', 'aria-label': 'Game' },
    games.map((g) => h('option', { value: g.spec || g.syntax, disabled: !g.playable },
      g.title + (g.spec && g.spec !== g.title.toLowerCase() ? ` (${g.spec})` : '') + (g.playable ? '' : ' (not in this build)'))));
  const specHelp = h('p', { id: 'spec-help', class: 'help' });
  const startSelect = h('select', { id: 'start', name: 'start' });
  const customPos = h('input', { id: 'custom-position', name: 'position', placeholder: 'e.g. 2 5 6', autocomplete: 'off', hidden: true });
  const levelSelect = h('select', { id: 'level', name: 'level' },
    ['perfect', 'hard', 'medium', 'easy'].map((l) => h('option', { value: l }, l[0].toUpperCase() + l.slice(1))));
  const radio = (name, value, label, checked) =>
    h('label', { class: 'choice' }, h('input', { type: 'radio', name, value, checked }), h('span', {}, label));

  const entryFor = (spec) => games.find((g) => g.spec === spec) || games.find((g) => spec.split(':')[0] === (g.spec || '').split(':')[0]);
  function refreshStarts() {
    const entry = entryFor(specInput.value.trim());
    const heaps = entry ? entry.heaps : true;
    const opts = [];
    if (heaps) {
      if (entry && entry.start && entry.start !== '3 4 5' && entry.start !== '1 3 5 7') opts.push(['start', 'Usual start (' + entry.start + ')']);
      opts.push(['3 4 5', 'Classic 3-4-5'], ['1 3 5 7', 'Classic 1-3-5-7 (Marienbad)'], ['random', 'Random heaps']);
    } else if (entry && entry.start) {
      opts.push(['start', 'Usual start (' + entry.start + ')']);
    }
    opts.push(['custom', 'Custom…']);
    const before = startSelect.value;
    startSelect.replaceChildren(...opts.map(([v, l]) => h('option', { value: v }, l)));
    if (opts.some(([v]) => v === before)) startSelect.value = before;
    customPos.hidden = startSelect.value !== 'custom';
    customPos.placeholder = entry && entry.position_syntax ? entry.position_syntax : 'e.g. 2 5 6';
    specHelp.textContent = entry ? (entry.rules || entry.summary) : 'A game spec as in `nimatron games`, e.g. nim or moore:2.';
    // A game with one convention only (Chomp is normal play, Notakto
    // misère by its rules) has the other turned off, and its own chosen.
    if (entry && entry.conventions.length) {
      const radios = ['normal', 'misere'].map((c) => form.querySelector(`input[value=${c}]`));
      radios.forEach((r) => { r.disabled = !entry.conventions.includes(r.value); });
      if (radios.some((r) => r.checked && r.disabled)) {
        radios.find((r) => !r.disabled).checked = true;
      }
    } else {
      form.querySelectorAll('input[name=convention]').forEach((r) => { r.disabled = false; });
    }
  }
  // A game chosen from the list starts from its own usual position.
  gameSelect.addEventListener('change', () => {
    specInput.value = gameSelect.value.replace(/\[.*$/, '');
    refreshStarts();
    if ([...startSelect.options].some((o) => o.value === 'start')) startSelect.value = 'start';
    customPos.hidden = startSelect.value !== 'custom';
  });
  specInput.addEventListener('input', refreshStarts);
  startSelect.addEventListener('change', () => { customPos.hidden = startSelect.value !== 'custom'; if (!customPos.hidden) customPos.focus(); });

  const errorBox = h('div', { class: 'form-error', role: 'alert' });
  const levelRow = h('div', { class: 'sub' }, h('label', { for: 'level' }, 'Level '), levelSelect);
  const form = h('form', { class: 'card new-game', id: 'new-game' },
    h('h1', {}, 'New game'),
    h('div', { class: 'field' }, h('label', { for: 'game-select' }, 'Game'),
      h('div', { class: 'row' }, gameSelect, specInput), specHelp),
    h('fieldset', { class: 'field' }, h('legend', {}, 'Rules'),
      radio('convention', 'normal', 'Normal — last move wins', true),
      radio('convention', 'misere', 'Misère — last move loses')),
    h('div', { class: 'field' }, h('label', { for: 'start' }, 'Start position'),
      h('div', { class: 'row' }, startSelect, customPos)),
    h('fieldset', { class: 'field' }, h('legend', {}, 'Who starts'),
      radio('first', 'you', 'You', true), radio('first', 'opponent', 'Opponent'), radio('first', 'random', 'Toss a coin')),
    h('fieldset', { class: 'field' }, h('legend', {}, 'Opponent'),
      radio('opponent', 'computer', 'The computer', true), levelRow,
      radio('opponent', 'local', 'A friend on this screen'),
      radio('opponent', 'online', 'A friend, by invite link')),
    errorBox,
    h('button', { type: 'submit', class: 'primary', id: 'start-game' }, 'Start game'));
  form.addEventListener('change', () => {
    levelRow.hidden = form.opponent.value !== 'computer';
  });
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    errorBox.textContent = '';
    const body = {
      game: specInput.value.trim() || 'nim',
      convention: form.convention.value,
      first: form.first.value,
      opponent: form.opponent.value,
    };
    if (body.opponent === 'computer') body.level = levelSelect.value;
    const start = startSelect.value;
    if (start === 'random') body.random = true;
    else if (start === 'custom') body.position = customPos.value;
    else if (start !== 'start') body.position = start;
    try {
      const grant = await createGame(body);
      navigate('/play/' + grant.game.id);
    } catch (err) {
      errorBox.textContent = err.message;
    }
  });
  refreshStarts();

  const recent = h('section', { class: 'card recent' }, h('h2', {}, 'Your recent games'), h('p', { class: 'muted' }, 'Loading…'));
  root.replaceChildren(h('div', { class: 'home' }, form, h('div', { class: 'side' }, intro(), recent)));
  try {
    const list = await myGames(6);
    recent.replaceChildren(h('h2', {}, 'Your recent games'),
      list.length ? gamesList(list, games, true) : h('p', { class: 'muted' }, 'No games yet in this browser.'),
      h('p', {}, h('a', { href: '/history', 'data-link': true }, 'All your games →')));
  } catch (err) { recent.replaceChildren(h('h2', {}, 'Your recent games'), h('p', { class: 'error' }, err.message)); }
}

// How to play, in the words of the screen in hand: taps on a phone,
// clicks and keys at a desk.
function intro() {
  if (touchScreen()) {
    return h('section', { class: 'card intro' },
      h('h2', {}, 'How to play'),
      h('p', {}, 'Take turns removing objects. In Nim you take any number from one heap: tap a match to see it lift with every match to its right, then tap it again (or Play) to take them.'),
      h('p', {}, 'Every game is played on its own board: rows that break (Kayles: tap a pin, then its neighbour; swipe a long row to scroll it), a ring, a grid of squares, a graph of vertices and edges, a counter. Tap what a move should take: it is shown before it is played, and when a selection fits several moves, they are offered to pick from.'),
      h('p', {}, 'Turn on ', h('b', {}, 'analysis'), ' during a game to see which moves win and why — Bouton\'s nim-sum in binary.'));
  }
  return h('section', { class: 'card intro' },
    h('h2', {}, 'How to play'),
    h('p', {}, 'Take turns removing objects. In Nim you take any number from one heap: click a match and it goes, with every match to its right (pointing at it shows which).'),
    h('p', {}, 'Every game is played on its own board: rows that break (Kayles: drag across a run, or click a pin twice), a ring, a grid of squares, a graph of vertices and edges, a counter. Click what a move should take; when a selection fits several moves, they are offered to pick from.'),
    h('p', {}, 'Keyboard: Tab to the board, the arrow keys to move between objects, Enter to play, Esc to clear. Or type a move like ', h('kbd', {}, 'A 2'), '.'),
    h('p', {}, 'Turn on ', h('b', {}, 'analysis'), ' during a game to see which moves win and why — Bouton\'s nim-sum in binary.'));
}
