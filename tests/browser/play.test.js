// Playing in the browser: against the computer by clicking, with the
// analysis on, by keyboard, and an invite-link game in two browsers.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { BASE, openBrowser, boardHeaps, boutonMove, clickTake, newGame, waitForMoves } = require('./helpers');

test('a whole game against the perfect computer, played by clicking matches', async () => {
  const b = await openBrowser();
  try {
    const { page } = b;
    await newGame(page, { start: '3 4 5', first: 'you', level: 'perfect' });
    assert.deepEqual(await boardHeaps(page), [3, 4, 5]);
    assert.match(await page.textContent('#status'), /Your move/);
    let moves = 0;
    for (;;) {
      const heaps = await boardHeaps(page);
      const mv = boutonMove(heaps);
      assert.ok(mv, `we should always have a winning move, at ${heaps}`);
      await clickTake(page, mv[0], mv[1]);
      moves += 1;
      // Our move and, unless we just took the last match, the computer's.
      const left = heaps.reduce((a, h) => a + h, 0) - mv[1];
      if (left === 0) break;
      await waitForMoves(page, 2 * moves);
      await page.waitForSelector('.status.your-turn');
    }
    await page.waitForSelector('.status.over');
    assert.match((await page.textContent('#status')).trim(), /^You win! You made the last move/);
    assert.deepEqual(await boardHeaps(page), [0, 0, 0]);

    // Replay: step back to the start and forward again.
    await page.waitForSelector('#replay');
    for (let i = 0; i < 2 * moves; i++) await page.click('#replay-back');
    assert.equal((await page.textContent('#replay-at')).trim(), 'start');
    await page.waitForSelector('#board[data-kind="heaps"]');
    assert.deepEqual(await boardHeaps(page), [3, 4, 5]);
    await page.click('#replay-forward');
    assert.match(await page.textContent('#replay-at'), /after move 1 of/);

    // The game is in the history.
    await page.click('nav a[href="/history"]');
    await page.waitForSelector('#games');
    assert.match(await page.textContent('#games li:first-child'), /You won/);
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});

test('analysis: off by default, then shows the winning move, the nim-sum table and a thrown-away win', async () => {
  const b = await openBrowser();
  try {
    const { page } = b;
    await newGame(page, { start: '3 4 5', first: 'you', level: 'perfect' });
    assert.equal(await page.isChecked('#analysis-toggle'), false);
    assert.equal(await page.$('#best-move'), null, 'nothing is spoiled before analysis is asked for');
    assert.equal(await page.$$eval('#board .stone.winning', (e) => e.length), 0);

    await page.check('#analysis-toggle', { force: true });
    await page.waitForSelector('#best-move');
    // Wikipedia's worked example: 3 4 5 has nim-sum 2; take 2 from heap A.
    assert.match(await page.textContent('#best-move'), /Take 2 from heap A \(3 → 1\)/);
    assert.match(await page.textContent('#verdict'), /winning/);
    const winning = await page.$$eval('#board .stone.winning', (els) => els.map((e) => [e.dataset.heap, e.dataset.index]));
    assert.deepEqual(winning, [['0', '1']], 'exactly one match is the winning move');
    const losing = await page.$$eval('#board .stone.losing', (e) => e.length);
    assert.equal(losing, 3 + 4 + 5 - 1);
    const sumRow = await page.$$eval('#nim-table tfoot td', (els) => els.map((e) => e.textContent));
    assert.deepEqual(sumRow, ['2', '0', '1', '0']);
    assert.match(await page.textContent('#explanation'), /nim-sum is 2/);

    fs.mkdirSync(path.join('target', 'browser'), { recursive: true });
    await page.screenshot({ path: path.join('target', 'browser', 'play-with-analysis.png'), fullPage: true });

    // Throw the win away: take 1 from heap C (5 -> 4) leaves nim-sum 3.
    await clickTake(page, 2, 1);
    await waitForMoves(page, 2);
    await page.waitForSelector('#move-history li.blunder');
    assert.match(await page.textContent('#move-history li.blunder'), /threw away a win/);
    assert.match(await page.textContent('#move-history li:nth-child(2)'), /kept the win/);
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});

test('keyboard play and a refused move that leaves the board as it was', async () => {
  const b = await openBrowser();
  try {
    const { page } = b;
    await newGame(page, { start: '1 3 5 7', first: 'you', opponent: 'local' });
    // Tab into the board: one element of it is in the Tab order.
    let inBoard = false;
    for (let i = 0; i < 40 && !inBoard; i++) {
      await page.keyboard.press('Tab');
      inBoard = await page.evaluate(() => !!document.activeElement.closest('#board'));
    }
    assert.ok(inBoard, 'the board is reachable by Tab');
    const focused = () => page.evaluate(() => document.activeElement.getAttribute('aria-label'));
    assert.match(await focused(), /^Take 1 from heap A \(1 → 0\)/);
    // ↓ to heap B, → to its second match: the match that takes 2. Enter
    // plays exactly that match's move.
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowRight');
    assert.match(await focused(), /^Take 2 from heap B \(3 → 1\)/);
    // The keyboard's cursor shows what the move takes, as a pointer's hover
    // does: the focused match and the one after it lift, the first stays,
    // and the focused one has a solid ring.
    await page.waitForTimeout(300);
    const looks = await page.$$eval('#board .heap[data-heap="1"] .stone', (els) =>
      els.map((e) => {
        const s = getComputedStyle(e);
        return { lifted: s.transform !== 'none', ring: s.outlineStyle === 'solid' && parseFloat(s.outlineWidth) >= 2 };
      }));
    assert.deepEqual(looks.map((l) => l.lifted), [false, true, true]);
    assert.deepEqual(looks.map((l) => l.ring), [false, true, false]);
    await page.keyboard.press('Enter');
    await waitForMoves(page, 1);
    assert.deepEqual(await boardHeaps(page), [1, 1, 5, 7]);
    // The keyboard stays on the board.
    await page.waitForFunction(() => !!document.activeElement.closest('#board'));
    assert.match(await page.textContent('#status'), /Player 2 to move/);
    // A typed illegal move is refused with the server's reason.
    await page.fill('#move-input', 'A 4');
    await page.press('#move-input', 'Enter');
    await page.waitForSelector('#message');
    assert.match(await page.textContent('#message'), /only 1 object/);
    assert.deepEqual(await boardHeaps(page), [1, 1, 5, 7]);
    await page.fill('#move-input', 'd 7');
    await page.press('#move-input', 'Enter');
    await waitForMoves(page, 2);
    assert.deepEqual(await boardHeaps(page), [1, 1, 5, 0]);
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});

test('an invite-link game between two browsers, with a watcher', async () => {
  const host = await openBrowser();
  const guest = await openBrowser();
  const watcher = await openBrowser();
  try {
    await newGame(host.page, { start: '3 4 5', first: 'you', opponent: 'online' });
    assert.match(await host.page.textContent('#status'), /Waiting for your friend/);
    const invite = await host.page.inputValue('#invite-link');
    assert.match(invite, /\/play\/[0-9a-f]{16}\?invite=[0-9a-f]{32}$/);
    const gameUrl = invite.replace(/\?.*$/, '');

    await guest.page.goto(invite);
    await guest.page.waitForSelector('#status');
    await guest.page.waitForURL(gameUrl); // the code is spent and dropped from the address
    assert.match(await guest.page.textContent('#status'), /Waiting for your friend to move/);
    // The host sees the guest arrive, live.
    await host.page.waitForSelector('.status.your-turn');
    assert.equal(await host.page.$('#invite-link'), null);

    await watcher.page.goto(gameUrl);
    await watcher.page.waitForSelector('#status');
    assert.match(await watcher.page.textContent('#status'), /watching/);
    assert.equal(await watcher.page.$('#move-input'), null);

    // Host takes 2 from A; the guest sees it live and may move; the host may not.
    await clickTake(host.page, 0, 2);
    await guest.page.waitForSelector('.status.your-turn');
    assert.deepEqual(await boardHeaps(guest.page), [1, 4, 5]);
    assert.equal(await host.page.$$eval('#board .stone:not([disabled])', (e) => e.length), 0);
    await waitForMoves(watcher.page, 1);

    await clickTake(guest.page, 2, 5);
    await host.page.waitForSelector('.status.your-turn');
    assert.deepEqual(await boardHeaps(host.page), [1, 4, 0]);
    await waitForMoves(watcher.page, 2);
    assert.deepEqual(await boardHeaps(watcher.page), [1, 4, 0]);
    for (const b of [host, guest, watcher]) assert.deepEqual(b.errors, []);
  } finally {
    await Promise.all([host.close(), guest.close(), watcher.close()]);
  }
});

test('explore: Grundy values, plot and P-positions of Nim', async () => {
  const b = await openBrowser();
  try {
    const { page } = b;
    await page.goto(BASE + '/explore?game=nim&to=20&heaps=2&max=6');
    await page.waitForSelector('#period');
    const values = await page.$$eval('#grundy-values .value b', (els) => els.map((e) => Number(e.textContent)));
    assert.deepEqual(values, Array.from({ length: 21 }, (_, n) => n), 'g(n) = n in Nim');
    assert.equal(await page.$$eval('svg.plot rect.bar', (e) => e.length), 21);
    assert.match(await page.textContent('#period'), /No period/);
    // Two heaps: P exactly on the diagonal.
    const cells = await page.$$eval('#p-positions td.p', (els) => els.map((e) => e.title.split(':')[0]));
    assert.deepEqual(cells, Array.from({ length: 7 }, (_, a) => `${a} ${a}`));
    // Kayles: the sequence engine proves period 12 from preperiod 71 (Guy and Smith 1956).
    await page.goto(BASE + '/explore?game=kayles&to=64&heaps=2&max=6');
    await page.waitForSelector('#period');
    assert.match(await page.textContent('#period'), /^Period 12, preperiod 71: .*Proven by the periodicity theorem/);
    assert.match(await page.textContent('#values-source'), /Grundy-sequence engine/);
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});
