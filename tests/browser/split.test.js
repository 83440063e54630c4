// Games that break rows: Kayles played by selecting runs of pins against
// the perfect computer, and Grundy's game split by clicking gaps.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { openBrowser, boardHeaps, dragRun, newGame, waitForMoves } = require('./helpers');

/** Kayles values by a plain mex over every move (knock down 1 or 2 adjacent pins). */
function kaylesValues(max) {
  const g = [];
  for (let n = 0; n <= max; n++) {
    const seen = new Set();
    for (const t of [1, 2]) {
      for (let left = 0; left + t <= n; left++) seen.add(g[left] ^ g[n - t - left]);
    }
    let m = 0;
    while (seen.has(m)) m++;
    g.push(m);
  }
  return g;
}

/** A winning Kayles move on these rows, as [row, first pin, last pin]; runs of two inside a row first. */
function kaylesWin(heaps, g) {
  const x = heaps.reduce((a, n) => a ^ g[n], 0);
  const wins = [];
  heaps.forEach((n, i) => {
    for (const t of [2, 1]) {
      for (let from = 0; from + t <= n; from++) {
        if ((x ^ g[n] ^ g[from] ^ g[n - from - t]) === 0) wins.push([i, from, from + t - 1]);
      }
    }
  });
  wins.sort((a, b) => (b[2] - b[1]) - (a[2] - a[1]) || (a[1] === 0) - (b[1] === 0));
  return wins[0] || null;
}

test('kayles against the perfect computer, played by selecting runs of pins', async () => {
  const g = kaylesValues(40);
  // Published values (Guy and Smith 1956; OEIS A002186): 0 1 2 3 1 4 3 2 1 4 2 6.
  assert.deepEqual(g.slice(0, 12), [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]);
  const b = await openBrowser();
  try {
    const { page } = b;
    await newGame(page, { game: 'kayles', position: '10', first: 'you', level: 'perfect' });
    assert.deepEqual(await boardHeaps(page), [10]);
    assert.match(await page.textContent('#board-help'), /^Click an object, then a neighbour, or drag across a run.* Keyboard: Tab to the board/);
    assert.equal(await page.$('#board .gap'), null, 'Kayles never splits without taking');

    // Three pins at once is not a Kayles move: refused, and the board stays.
    await dragRun(page, 0, 2, 4);
    await page.waitForSelector('#message');
    assert.match(await page.textContent('#message'), /objects 3 to 5 of heap A is not a legal move/);
    assert.deepEqual(await boardHeaps(page), [10]);
    assert.equal(await page.$$eval('#move-history li', (e) => e.length), 0);

    let moves = 0;
    let splits = 0;
    for (;;) {
      const heaps = await boardHeaps(page);
      const mv = kaylesWin(heaps, g);
      assert.ok(mv, `we should always have a winning move, at ${heaps}`);
      const [row, from, to] = mv;
      if (from > 0 && to < heaps[row] - 1) splits += 1;
      if (from === to) {
        // One pin: click it, then again to take it alone (unless taking it
        // alone is the only move through it, which the first click plays).
        const pin = `#board .heap[data-heap="${row}"] .stone[data-index="${from}"]`;
        await page.click(pin);
        await page.waitForSelector('#choices, .status:not(.your-turn)');
        if (await page.$('#choices')) await page.click(pin);
      } else await dragRun(page, row, from, to);
      moves += 1;
      const left = heaps.reduce((a, n) => a + n, 0) - (to - from + 1);
      if (left === 0) break;
      await waitForMoves(page, 2 * moves);
      await page.waitForSelector('.status.your-turn');
      // The computer knocked down one or two pins.
      const after = (await boardHeaps(page)).reduce((a, n) => a + n, 0);
      assert.ok(left - after === 1 || left - after === 2, `${left} pins, then ${after}`);
    }
    await page.waitForSelector('.status.over');
    assert.match((await page.textContent('#status')).trim(), /^You win! You made the last move/);
    assert.ok(splits >= 1, 'at least one run was taken from inside a row');
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});

test("grundy's game: click the gap where a row splits", async () => {
  const b = await openBrowser();
  try {
    const { page } = b;
    await newGame(page, { game: 'grundy-game', position: '7', first: 'you', opponent: 'local' });
    assert.match(await page.textContent('#board-help'), /Click the gap between two objects/);
    // Objects are not taken in Grundy's game; six gaps split a row of 7.
    assert.equal(await page.$$eval('#board .stone:not([disabled])', (e) => e.length), 0);
    assert.equal(await page.$$eval('#board .gap:not([disabled])', (e) => e.length), 6);
    await page.click('#board .heap[data-heap="0"] .gap[data-at="3"]');
    await waitForMoves(page, 1);
    assert.deepEqual(await boardHeaps(page), [3, 4]);
    // 4 may become 1 + 3 but not 2 + 2; 3 may become 1 + 2.
    const open = await page.$$eval('#board .gap:not([disabled])', (els) => els.map((e) => `${e.dataset.heap}:${e.dataset.at}`));
    assert.deepEqual(open, ['0:1', '0:2', '1:1', '1:3']);
    await page.click('#board .heap[data-heap="1"] .gap[data-at="1"]');
    await waitForMoves(page, 2);
    assert.deepEqual(await boardHeaps(page), [3, 1, 3]);
    assert.match(await page.textContent('#move-history'), /split heap B \(4\) into 1 and 3/);
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});
