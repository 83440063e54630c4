// A game whose board is text (Wordnim) is played from the list of legal
// moves, and replayed as text.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { openBrowser, newGame, waitForMoves } = require('./helpers');

test('wordnim against the computer, played from the legal-move list', async () => {
  const b = await openBrowser();
  try {
    const { page } = b;
    await newGame(page, { game: 'wordnim', start: 'start', first: 'you', level: 'easy' });
    assert.equal(await page.$('#board .heap'), null, 'Wordnim is not drawn as heaps');
    assert.match(await page.textContent('#board-text'), /\S/);
    assert.equal(await page.isVisible('#legal-moves'), true, 'the move list is open for text boards');
    const start = await page.textContent('#board-text');
    let moves = 0;
    for (;;) {
      const status = await page.getAttribute('#status', 'class');
      if (/over/.test(status)) break;
      const buttons = await page.$$('#legal-moves button.move');
      assert.ok(buttons.length > 0, 'a playing game lists its legal moves');
      const notation = (await buttons[0].textContent()).trim();
      await buttons[0].click();
      moves += 1;
      await waitForMoves(page, 2 * moves - 1);
      const mine = await page.textContent(`#move-history li:nth-child(${2 * moves - 1}) .what`);
      assert.ok(mine.length > 0, notation);
      await page.waitForFunction(() => {
        const s = document.querySelector('#status');
        return s && (/over/.test(s.className) || /your-turn/.test(s.className));
      });
      assert.ok(moves < 20, 'a Wordnim game of 16 letters is over within 20 moves');
    }
    const total = await page.$$eval('#move-history li', (e) => e.length);
    assert.ok(total >= 2, `${total} moves`);
    // Replay from the start shows the start position as text, not heaps.
    await page.waitForSelector('#replay');
    for (let i = 0; i < total; i++) await page.click('#replay-back');
    assert.equal((await page.textContent('#replay-at')).trim(), 'start');
    assert.equal(await page.$('#board .heap'), null);
    await page.waitForFunction(() => /heart/.test((document.querySelector('#board-text') || {}).textContent || ''));
    assert.match(await page.textContent('#board-text'), /heart\s.*5 letters/);
    assert.notEqual(start, '');
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});
