// Circular Nim on a ring: select adjacent objects (across the join too) and
// take them; illegal selections are refused with the server's reason.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { openBrowser, newGame, waitForMoves } = require('./helpers');

const K = 3;

/** Values of a row in which a move takes 1..K adjacent objects (octal 0.777), by plain mex. */
function rowValues(max) {
  const g = [];
  for (let n = 0; n <= max; n++) {
    const seen = new Set();
    for (let t = 1; t <= K; t++) for (let l = 0; l + t <= n; l++) seen.add(g[l] ^ g[n - t - l]);
    let m = 0;
    while (seen.has(m)) m++;
    g.push(m);
  }
  return g;
}

/** The ring on the board: true for an object, in place order. */
async function ringCells(page) {
  return page.$$eval('#board .place', (els) => els.map((e) => e.classList.contains('object')));
}

/** The arcs of a ring with at least one gap: lists of 0-based places, clockwise. */
function arcs(cells) {
  const n = cells.length;
  const gap = cells.indexOf(false);
  const out = [];
  let cur = null;
  for (let step = 1; step <= n; step++) {
    const i = (gap + step) % n;
    if (cells[i]) { if (!cur) { cur = []; out.push(cur); } cur.push(i); } else cur = null;
  }
  return out;
}

/** A winning move as a list of 0-based places; one across the join first. */
function winningRun(cells, g) {
  const as = arcs(cells);
  const x = as.reduce((a, arc) => a ^ g[arc.length], 0);
  const wins = [];
  for (const arc of as) {
    const n = arc.length;
    for (let t = 1; t <= Math.min(K, n); t++) {
      for (let l = 0; l + t <= n; l++) {
        if ((x ^ g[n] ^ g[l] ^ g[n - l - t]) === 0) wins.push(arc.slice(l, l + t));
      }
    }
  }
  const wraps = (run) => run.some((p, i) => i > 0 && p < run[i - 1]);
  return wins.find(wraps) || wins[0] || null;
}

/** Select a run of places by clicking each; if no move was made by then, pick the move that takes exactly the run. */
async function takeRun(page, places) {
  const before = await page.$$eval('#move-history li', (e) => e.length);
  for (const p of places) {
    await page.click(`#board .place.object[data-place="${p + 1}"]`);
    if (await page.$$eval('#move-history li', (e) => e.length) > before || await page.$('.status:not(.your-turn)')) return;
  }
  if (places.length === 1) { await page.click(`#board .place.object[data-place="${places[0] + 1}"]`); return; }
  await page.waitForSelector('#choices');
  const first = await page.textContent('#choices button.choice');
  assert.match(first, new RegExp(`Take ${places.length} objects`), first);
  await page.click('#choices button.choice');
}

test('circular nim: a whole game on the ring by clicking, with refused selections', async () => {
  const g = rowValues(20);
  const b = await openBrowser();
  try {
    const { page } = b;
    // Places 5..10 and 1..2 form one arc of 8 across the join.
    await newGame(page, { game: 'circular:3', position: '..__......', first: 'you', level: 'perfect' });
    assert.deepEqual(await ringCells(page), [true, true, false, false, true, true, true, true, true, true]);
    assert.equal(await page.$$eval('#board .place.gap', (e) => e.length), 2);

    // Two objects that no one move takes together (places 5 and 9): the
    // second click starts a new selection, and nothing is played.
    await page.click('#board .place.object[data-place="5"]');
    await page.waitForSelector('#choices');
    await page.click('#board .place.object[data-place="9"]');
    assert.deepEqual(await page.$$eval('#board .place[aria-pressed="true"]', (e) => e.map((x) => x.dataset.place)), ['9']);
    await page.keyboard.press('Escape');
    await page.waitForSelector('#choices', { state: 'detached' });
    assert.equal(await page.$$eval('#move-history li', (e) => e.length), 0, 'nothing was played');

    let moves = 0;
    let wrapped = false;
    for (;;) {
      const cells = await ringCells(page);
      const run = winningRun(cells, g);
      assert.ok(run, `we should always have a winning move, at ${cells}`);
      if (run.some((p, i) => i > 0 && p < run[i - 1])) wrapped = true;
      await takeRun(page, run);
      moves += 1;
      const left = cells.filter((c) => c).length - run.length;
      if (left === 0) break;
      await waitForMoves(page, 2 * moves);
      await page.waitForSelector('.status.your-turn');
      const after = (await ringCells(page)).filter((c) => c).length;
      assert.ok(left - after >= 1 && left - after <= K, `${left} objects, then ${after}`);
    }
    await page.waitForSelector('.status.over');
    assert.match((await page.textContent('#status')).trim(), /^You win! You made the last move/);
    assert.ok(wrapped, 'one of our moves took objects across the join');
    const first = await page.textContent('#move-history li:first-child .what');
    assert.match(first, /10.*1/, first);
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});
