// Take-backs, resigning and rematches against the computer; and, between
// two browsers, analysis only when both online players agree and a
// rematch offered by one and accepted by the other.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const { openBrowser, boardHeaps, clickTake, newGame, waitForMoves } = require('./helpers');

const statusText = (page) => page.textContent('#status');
const nimSum = (heaps) => heaps.reduce((a, b) => a ^ b, 0);

test('against the computer: take back a move, resign, and play the rematch', async () => {
  const { page, errors, close } = await openBrowser();
  try {
    await newGame(page, { start: '3 4 5' });
    assert.equal(await page.locator('#undo').count(), 0, 'nothing to take back yet');
    await clickTake(page, 2, 1);
    await waitForMoves(page, 2);
    await page.waitForSelector('#undo');
    await page.click('#undo');
    await page.waitForFunction(() => document.querySelectorAll('#move-history li').length === 0);
    assert.deepEqual(await boardHeaps(page), [3, 4, 5], 'the start again');
    assert.match(await statusText(page), /Your move/);

    // Resign asks first; "No" keeps the game.
    await page.click('#resign');
    await page.click('#resign-no');
    assert.match(await statusText(page), /Your move/);
    await page.click('#resign');
    await page.click('#resign-yes');
    await page.waitForFunction(() => /resigned/.test((document.querySelector('#status')?.textContent || '')));
    assert.match(await statusText(page), /You resigned\. Nimatron wins!/);
    assert.equal(await page.locator('#undo').count(), 0, 'a resignation stands');

    // The rematch: the same start, Nimatron first, and it has moved.
    const oldUrl = page.url();
    await page.click('#rematch');
    await page.waitForURL((u) => u.href !== oldUrl && /\/play\/[0-9a-f]{16}$/.test(u.href));
    await waitForMoves(page, 1);
    const heaps = await boardHeaps(page);
    assert.ok(heaps.reduce((a, b) => a + b, 0) < 12, `one move from 3 4 5: ${heaps}`);
    assert.equal(nimSum(heaps), 0, 'perfect play leaves a nim-sum of 0');
    assert.match(await statusText(page), /Your move/);
    await page.screenshot({ path: 'target/browser/rematch.png' });
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('online: the analysis shows only when both agree, and a rematch reaches the friend', async () => {
  const a = await openBrowser();
  const b = await openBrowser({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  try {
    await newGame(a.page, { start: '3 4 5', opponent: 'online' });
    const link = await a.page.inputValue('#invite-link');
    await b.page.goto(link);
    await b.page.waitForSelector('#board');
    await a.page.waitForFunction(() => /Your move/.test((document.querySelector('#status')?.textContent || '')));

    // A turns the analysis on: nothing is shown until B agrees.
    await a.page.click('label.switch');
    await a.page.waitForFunction(() => /when your friend turns it on too/.test(document.querySelector('#analysis-note')?.textContent || ''));
    await b.page.waitForFunction(() => /Your friend has turned the analysis on/.test(document.querySelector('#analysis-note')?.textContent || ''));
    assert.equal(await a.page.locator('#verdict').count(), 0, 'no verdict before both agree');
    await b.page.tap('label.switch');
    await a.page.waitForSelector('#verdict');
    await b.page.waitForSelector('#verdict');
    // B withdraws: A's analysis goes away.
    await b.page.tap('label.switch');
    await a.page.waitForFunction(() => !document.querySelector('#verdict'));

    // A resigns; B sees why the game ended and offers a rematch.
    await a.page.click('#resign');
    await a.page.click('#resign-yes');
    await b.page.waitForFunction(() => /Your friend resigned\. You win!/.test((document.querySelector('#status')?.textContent || '')));
    assert.equal(await b.page.textContent('#rematch'), 'Offer a rematch');
    await b.page.tap('#rematch');
    await b.page.waitForFunction(() => /Waiting for your friend to accept/.test(document.querySelector('#rematch-note')?.textContent || ''));
    await a.page.waitForFunction(() => /Your friend offers a rematch/.test(document.querySelector('#rematch-note')?.textContent || ''));
    assert.equal(await a.page.textContent('#rematch'), 'Accept the rematch');
    const oldUrl = a.page.url();
    await a.page.click('#rematch');
    // Both go to the same new game; the friend (seat 1) moves first now.
    await a.page.waitForURL((u) => u.href !== oldUrl);
    await b.page.waitForURL((u) => u.href !== oldUrl);
    assert.equal(new URL(a.page.url()).pathname, new URL(b.page.url()).pathname);
    await b.page.waitForFunction(() => /Your move/.test((document.querySelector('#status')?.textContent || '')));
    await a.page.waitForFunction(() => /Waiting for your friend to move/.test((document.querySelector('#status')?.textContent || '')));
    assert.deepEqual(await boardHeaps(b.page), [3, 4, 5]);
    fs.mkdirSync('target/browser', { recursive: true });
    await b.page.screenshot({ path: 'target/browser/online-rematch-phone.png' });
    assert.deepEqual(a.errors, []);
    assert.deepEqual(b.errors, []);
  } finally {
    await a.close();
    await b.close();
  }
});

test('a take-back is reached and pressed by keyboard alone', async () => {
  const { page, close } = await openBrowser();
  try {
    await newGame(page, { start: '3 4 5' });
    await clickTake(page, 0, 1);
    await waitForMoves(page, 2);
    await page.waitForSelector('#undo');
    // Tab from the top of the page until the take-back button has focus.
    await page.evaluate(() => document.activeElement && document.activeElement.blur());
    let found = false;
    for (let i = 0; i < 80 && !found; i++) {
      await page.keyboard.press('Tab');
      found = await page.evaluate(() => document.activeElement && document.activeElement.id === 'undo');
    }
    assert.ok(found, 'Tab reaches the take-back button');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelectorAll('#move-history li').length === 0);
    assert.deepEqual(await boardHeaps(page), [3, 4, 5]);
  } finally {
    await close();
  }
});


test('the value history draws every position, and a point replays it', async () => {
  const { page, errors, close } = await openBrowser();
  try {
    await newGame(page, { start: '3 4 5' });
    await clickTake(page, 2, 1);
    await waitForMoves(page, 2);
    await page.click('label.switch');
    await page.waitForSelector('#value-history');
    const points = await page.$$eval('#value-history .vh-point', (els) => els.map((e) => ({
      ply: Number(e.dataset.ply), seat: e.classList.contains('seat0') ? 0 : 1, flipped: e.classList.contains('flipped'),
    })));
    // 3 4 5 is a win for the first player; taking 1 from C threw it away,
    // and Nimatron's perfect reply keeps the win it was handed.
    assert.deepEqual(points, [
      { ply: 0, seat: 0, flipped: false },
      { ply: 1, seat: 1, flipped: true },
      { ply: 2, seat: 1, flipped: false },
    ]);
    // The blunder's row names the winning move there was.
    assert.match(await page.textContent('#history-1'), /better: take 2 from heap A \(3 → 1\)/i);
    await page.click('#value-history .vh-point[data-ply="0"]');
    await page.waitForFunction(() => document.querySelector('#replay-at')?.textContent === 'start');
    // The label can change a frame before the board is drawn again.
    await page.waitForFunction(() => document.querySelectorAll('#board .heap .heap-size').length > 0);
    assert.deepEqual(await boardHeaps(page), [3, 4, 5]);
    // Replaying the start: what it was worth, the winning move, and what
    // was played instead.
    assert.match(await page.textContent('#replay-verdict'), /At the start, you were to move and winning, with \d+ moves to the end/);
    assert.match(await page.textContent('#replay-best'), /take 2 from heap A \(3 → 1\)/i);
    assert.match(await page.textContent('#replay-better'), /You played .take 1 from heap C \(5 → 4\). instead, which threw the win away/);
    await page.screenshot({ path: 'target/browser/value-history.png' });
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});
