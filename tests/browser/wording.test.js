// The page's words: sentences that end, names in the middle of a sentence
// in lower case, moves as the server writes them, no 20-digit numbers,
// help for the screen in hand, and charts that say what they show.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { BASE, PHONE, openBrowser, apiGame, newGame, waitForMoves } = require('./helpers');

test('at a desk: messages, the status line and Explore say what they mean', async () => {
  const b = await openBrowser();
  const c = await openBrowser();
  try {
    const { page } = b;
    // A second join of the same invite: the refusal is a sentence, then the offer to watch.
    const grant = await apiGame(page, { game: 'nim', position: '1 1', opponent: 'online' });
    const invite = BASE + grant.invite_url;
    await c.page.goto(invite);
    await c.page.waitForSelector('#board');
    const other = await openBrowser();
    try {
      await other.page.goto(invite);
      await other.page.waitForSelector('#message');
      assert.match(await other.page.textContent('#message'), /already taken\. You can still watch\.$/);
    } finally { await other.close(); }
    // Both move; after move 2 the replay says "your friend", in lower case.
    await page.waitForSelector('.status.your-turn');
    await page.click('#board .heap[data-heap="0"] .stone');
    await c.page.waitForSelector('.status.your-turn');
    await c.page.click('#board .heap[data-heap="1"] .stone');
    await page.waitForSelector('.status.over');
    await page.click('label.switch');
    await page.waitForSelector('#value-history');
    await page.click('#replay-back');
    await page.waitForSelector('#replay-verdict');
    assert.match(await page.textContent('#replay-verdict'), /^After move 1, your friend was to move/);
    // The value chart numbers its moves.
    const ticks = await page.$$eval('#value-history .vh-tick', (e) => e.map((x) => x.textContent));
    assert.deepEqual(ticks, ['0', '1', '2']);

    // Notakto: the computer's X is written as the server writes it.
    await newGame(page, { game: 'notakto:3', position: '.../.../...', first: 'you' });
    await page.click('#board .cell[data-atom="c0.1.1"]');
    await waitForMoves(page, 2);
    await page.waitForSelector('.status.your-turn');
    assert.match(await page.textContent('#status'), /Nimatron: X on [a-c][1-3] of board 1\./);

    // A custom start that is no number: no 20-digit number in the answer.
    await page.goto(BASE + '/');
    await page.waitForSelector('#new-game');
    await page.selectOption('#start', 'custom');
    await page.fill('#custom-position', '3 -4');
    await page.click('#start-game');
    await page.waitForFunction(() => document.querySelector('.form-error').textContent.length > 0);
    const error = await page.textContent('.form-error');
    assert.match(error, /negative/);
    assert.doesNotMatch(error, /\d{10}/);

    // Explore: Kayles' period starts at 71, beyond 40 values: nothing is
    // shaded, so nothing says so.
    await page.goto(BASE + '/explore?game=kayles&to=40');
    await page.waitForSelector('#period');
    assert.equal(await page.$$eval('svg.plot .period-band', (e) => e.length), 0);
    assert.doesNotMatch(await page.textContent('#explore-out'), /Shaded/);
    await page.goto(BASE + '/explore?game=octal:0.07&to=60');
    await page.waitForSelector('#period');
    if (await page.$('svg.plot .period-band')) assert.match(await page.textContent('#explore-out'), /Shaded: one period/);
    assert.deepEqual(b.errors, []);
  } finally {
    await Promise.all([b.close(), c.close()]);
  }
});

test('on a phone: how to play speaks of taps, and the Explore chart is readable', async () => {
  const b = await openBrowser(PHONE);
  try {
    const { page } = b;
    await page.goto(BASE + '/');
    await page.waitForSelector('.intro');
    const intro = await page.textContent('.intro');
    assert.match(intro, /\btap\b/i);
    assert.doesNotMatch(intro, /\bclick|Keyboard|arrow keys/i);
    await page.goto(BASE + '/explore?game=kayles&to=64');
    await page.waitForSelector('svg.plot');
    // Axis labels at least 10 px high as drawn.
    const sizes = await page.$$eval('svg.plot text', (ts) => ts.map((t) => t.getBoundingClientRect().height));
    assert.ok(sizes.length > 3);
    assert.ok(Math.min(...sizes) >= 10, `labels as small as ${Math.min(...sizes).toFixed(1)} px`);
    // The game page's help too.
    await apiGame(page, { game: 'nim' });
    assert.doesNotMatch(await page.textContent('#board-help'), /click|Keyboard/i);
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});
