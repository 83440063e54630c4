// History: a visitor's own games (the seats this browser holds), by name,
// with their own score, and no stranger's games; readable on a phone.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { BASE, PHONE, openBrowser, apiGame } = require('./helpers');

/** Play a whole game against the computer through the API in this browser: we resign, so Nimatron wins. */
async function lostGame(page, body) {
  const grant = await apiGame(page, Object.assign({ opponent: 'computer' }, body));
  await page.evaluate(async (g) => {
    await fetch(`/api/games/${g.game.id}/resign`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer ' + g.token }, body: '{}' });
  }, grant);
  return grant;
}

test('History lists this browser\'s games by name, with its score, and no stranger\'s', async () => {
  const mine = await openBrowser(PHONE);
  const stranger = await openBrowser();
  try {
    const { page } = mine;
    const kayles = await lostGame(page, { game: 'kayles', position: '5' });
    const nim = await lostGame(page, { game: 'nim', position: '3 4 5' });
    const online = await apiGame(page, { game: 'chomp:3x4', opponent: 'online' });
    // A stranger's games, finished and online, in another browser.
    const theirs = await lostGame(stranger.page, { game: 'wythoff', position: '3 5' });
    const theirOnline = await apiGame(stranger.page, { game: 'nim', position: '1 2', opponent: 'online' });

    await page.goto(BASE + '/history');
    await page.waitForSelector('#games');
    const rows = await page.$$eval('#games [data-game]', (rs) => rs.map((r) => ({ id: r.dataset.game, text: r.textContent })));
    assert.deepEqual(rows.map((r) => r.id).sort(), [kayles.game.id, nim.game.id, online.game.id].sort());
    for (const id of [theirs.game.id, theirOnline.game.id]) assert.ok(!rows.some((r) => r.id === id), 'a stranger\'s game is listed');
    const text = (id) => rows.find((r) => r.id === id).text;
    assert.match(text(kayles.game.id), /Kayles/);
    assert.match(text(nim.game.id), /\bNim\b/);
    assert.match(text(online.game.id), /Chomp/);
    assert.doesNotMatch(text(online.game.id), /chomp:3x4/);
    assert.match(text(kayles.game.id), /Nimatron won/);
    assert.match(await page.textContent('#history-score'), /you won 0, Nimatron won 2/i);
    // On a phone the moves and the result of each game are on the screen,
    // nothing scrolled out of sight.
    const out = await page.$$eval('#games [data-game] *', (els) => els.filter((e) => {
      const r = e.getBoundingClientRect();
      return r.width && (r.right > window.innerWidth + 0.5 || r.left < -0.5);
    }).map((e) => e.textContent));
    assert.deepEqual(out, []);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 390);

    // The home page's recent games are this browser's too.
    await page.goto(BASE + '/');
    await page.waitForSelector('.recent [data-game]');
    const recent = await page.$$eval('.recent [data-game]', (rs) => rs.map((r) => r.dataset.game));
    assert.ok(!recent.includes(theirs.game.id) && !recent.includes(theirOnline.game.id), recent.join(' '));
    assert.ok(recent.includes(nim.game.id));

    // The stranger's history is theirs alone.
    await stranger.page.goto(BASE + '/history');
    await stranger.page.waitForSelector('#games');
    const theirRows = await stranger.page.$$eval('#games [data-game]', (rs) => rs.map((r) => r.dataset.game).sort());
    assert.deepEqual(theirRows, [theirs.game.id, theirOnline.game.id].sort());
    // By keyboard: Tab reaches a game's name, and Enter opens it.
    let link = null;
    for (let i = 0; i < 20 && !link; i++) {
      await stranger.page.keyboard.press('Tab');
      link = await stranger.page.evaluate(() => (document.activeElement.closest('#games [data-game]') ? document.activeElement.closest('[data-game]').dataset.game : null));
    }
    assert.ok(link, 'a game of the list is reached by Tab');
    await stranger.page.keyboard.press('Enter');
    await stranger.page.waitForURL(new RegExp('/play/' + link + '$'));
    await stranger.page.waitForSelector('#board');
    assert.deepEqual(mine.errors, []);
    assert.deepEqual(stranger.errors, []);
  } finally {
    await Promise.all([mine.close(), stranger.close()]);
  }
});
