// axe-core on every page in every state a player meets: playing, analysis
// on, a selection offered, finished, replaying, waiting for a friend, a
// watcher; the home page, History and Explore; at 390 px by touch and at
// 1280 px. No serious or critical violation.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { BASE, PHONE, openBrowser, apiGame, axeViolations, waitForMoves } = require('./helpers');

for (const [name, options] of [['1280 px', {}], ['a 390 px phone', PHONE]]) {
  test(`axe-core: no serious or critical violation in any state, at ${name}`, async () => {
    const b = await openBrowser(options);
    try {
      const { page } = b;
      const found = [];
      const check = async (state) => {
        await page.waitForTimeout(150);
        for (const v of await axeViolations(page)) found.push(`${state}: ${v}`);
      };
      for (const p of ['/', '/history', '/explore?game=kayles&to=40', '/explore?game=nim&to=20&heaps=2&max=6']) {
        await page.goto(BASE + p);
        await page.waitForSelector(p.startsWith('/explore') ? '#period' : 'main h1');
        await check(p);
      }
      for (const game of ['nim', 'kayles', 'chomp:3x4', 'graph-nim', 'hackenbush', 'notakto:3', 'twenty-one', 'circular:3', 'wordnim', 'node-kayles']) {
        await apiGame(page, { game, opponent: 'computer', convention: /^notakto/.test(game) ? 'misere' : 'normal' });
        await check(`${game} playing`);
        await page.click('label.switch');
        await page.waitForSelector('#analysis #verdict');
        const details = await page.$('#valued-moves summary');
        if (details) await details.click();
        await check(`${game} with the analysis`);
      }
      // A selection offered as choices, then a finished game and its replay.
      await apiGame(page, { game: 'kayles', position: '6', opponent: 'local' });
      await page.click('#board .stone[data-index="2"]');
      await page.waitForSelector('#choices');
      await check('kayles choices');
      await apiGame(page, { game: 'nim', position: '1 1 1', opponent: 'local' });
      for (const heap of [0, 1, 2]) {
        await page.click(`#board .heap[data-heap="${heap}"] .stone`);
        await waitForMoves(page, heap + 1);
      }
      await page.waitForSelector('.status.over');
      await page.click('label.switch');
      await page.waitForSelector('#value-history');
      await check('finished, with the analysis');
      await page.click('#replay-back');
      await page.waitForSelector('#replay-verdict');
      await check('replaying');
      // Online: waiting for a friend, and a watcher.
      const grant = await apiGame(page, { game: 'nim', opponent: 'online' });
      await page.evaluate((g) => localStorage.setItem('nimatron.invite.' + g.game.id, g.invite_url), grant);
      await page.reload();
      await page.waitForSelector('#invite-link');
      await check('waiting for a friend');
      await page.evaluate((id) => localStorage.removeItem('nimatron.seat.' + id), grant.game.id);
      await page.reload();
      await page.waitForSelector('#board');
      await check('watching');
      assert.deepEqual(found, []);
      assert.deepEqual(b.errors, []);
    } finally {
      await b.close();
    }
  });
}
