// What a screen reader hears: one live region, never redrawn, that says
// both players' moves; the focus placed on the game after "Start game";
// and a page title that names the game and whose turn it is.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { BASE, PHONE, openBrowser, apiGame, boardHeaps, boutonMove, tapOn, waitForMoves } = require('./helpers');

/** Collect every text the live region is given, and mark the region's node. */
async function listen(page) {
  await page.evaluate(() => {
    const region = document.getElementById('announce');
    region.dataset.marked = 'yes';
    window.heard = [];
    new MutationObserver(() => { if (region.textContent.trim()) window.heard.push(region.textContent.trim()); })
      .observe(region, { subtree: true, childList: true, characterData: true });
  });
}

test('by keyboard at a desk: focus on the game after Start game, both moves announced, and the title', async () => {
  const b = await openBrowser();
  try {
    const { page } = b;
    await page.goto(BASE + '/');
    await page.waitForSelector('#new-game');
    assert.match(await page.title(), /New game/);
    await page.fill('#spec', 'nim');
    await page.selectOption('#start', '3 4 5');
    await page.focus('#start-game');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/play\//);
    await page.waitForSelector('#board');
    // The focus is on the game, not dropped to the page's body.
    await page.waitForFunction(() => document.activeElement && document.activeElement !== document.body);
    const where = await page.evaluate(() => ({ board: !!document.activeElement.closest('#board'), tag: document.activeElement.tagName }));
    assert.ok(where.board, `the focus is on ${where.tag}`);
    // The live region is part of the page, outside what is redrawn; the
    // status line is not a second live region.
    assert.equal(await page.$eval('#announce', (e) => !!e.closest('#app')), false);
    assert.equal(await page.$eval('#announce', (e) => e.getAttribute('aria-live')), 'polite');
    assert.equal(await page.$eval('#status', (e) => e.getAttribute('role') || e.getAttribute('aria-live')), null);
    assert.match(await page.title(), /^Nim: your move/i);
    await listen(page);
    // Our winning move by keyboard: Enter on the focused match after moving there.
    const [heap, take] = boutonMove(await boardHeaps(page));
    for (let i = 0; i < heap; i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Home');
    const size = (await boardHeaps(page))[heap];
    for (let k = 0; k < size - take; k++) await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    await waitForMoves(page, 2);
    await page.waitForSelector('.status.your-turn');
    // "Nimatron to move." comes first; wait for Nimatron's move itself.
    await page.waitForFunction(() => window.heard.some((t) => /Nimatron: take/.test(t)));
    const heard = await page.evaluate(() => window.heard);
    assert.ok(heard.some((t) => /^You: take 2 from heap A/i.test(t)), heard.join(' | '));
    assert.ok(heard.some((t) => /Nimatron: take (all )?\d+ from heap [A-C]/i.test(t) && /your move/i.test(t)), heard.join(' | '));
    assert.equal(await page.$eval('#announce', (e) => e.dataset.marked), 'yes', 'the region was never replaced');
    // The keyboard is still on the board.
    assert.ok(await page.evaluate(() => !!document.activeElement.closest('#board')));
    assert.match(await page.title(), /^Nim: your move/i);
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});

test('on a phone: the title follows the turn, and the end is announced', async () => {
  const b = await openBrowser(PHONE);
  try {
    const { page } = b;
    await page.goto(BASE + '/');
    await page.waitForSelector('#new-game');
    await page.fill('#spec', 'nim');
    await page.selectOption('#start', 'custom');
    await page.fill('#custom-position', '2');
    await page.check('input[name=opponent][value=local]');
    await tapOn(page, '#start-game');
    await page.waitForSelector('#board');
    await page.waitForFunction(() => document.activeElement && document.activeElement !== document.body);
    assert.match(await page.title(), /^Nim: player 1 to move/i);
    await listen(page);
    await tapOn(page, '#board .stone[data-index="1"]');
    await page.waitForSelector('#confirm-move');
    await page.click('#play-preview');
    await waitForMoves(page, 1);
    assert.match(await page.title(), /^Nim: player 2 to move/i);
    await tapOn(page, '#board .stone[data-index="0"]');
    await page.waitForSelector('#confirm-move');
    await page.click('#play-preview');
    await waitForMoves(page, 2);
    await page.waitForSelector('.status.over');
    assert.match(await page.title(), /^Nim: player 2 wins/i);
    await page.waitForFunction(() => window.heard.some((t) => /wins/.test(t)));
    const heard = await page.evaluate(() => window.heard);
    assert.ok(heard.some((t) => /^Player 1: take 1 from heap A/i.test(t)), heard.join(' | '));
    assert.ok(heard.some((t) => /^Player 2: take all 1 from heap A.*Player 2 wins/i.test(t)), heard.join(' | '));
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});

test('with reduced motion, the computer answering at once: the player\'s own move is still said', async () => {
  const b = await openBrowser({ reducedMotion: 'reduce' });
  try {
    const { page } = b;
    await apiGame(page, { game: 'nim', position: '3 4 5', opponent: 'computer', level: 'perfect' });
    await page.waitForFunction(() => /your move/i.test(document.getElementById('announce').textContent));
    await listen(page);
    // Take 2 from A by keyboard (Bouton's move from 3 4 5).
    await page.focus('#board [tabindex="0"]');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    await waitForMoves(page, 2);
    await page.waitForFunction(() => window.heard.some((t) => /Nimatron:/.test(t)));
    await page.waitForTimeout(300);
    const heard = await page.evaluate(() => window.heard);
    // Whatever the region last holds, or held long enough to be read, says
    // both moves: ours before Nimatron's.
    const last = heard[heard.length - 1];
    assert.match(last, /You: take 2 from heap A.*Nimatron: take (all )?\d+ from heap [A-C].*Your move\./i, heard.join(' | '));
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});
