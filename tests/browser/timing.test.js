// Honest progress: a tap is answered at once, the computer's move shows as
// soon as the server has it (at once with reduced motion), "thinking" is
// shown only while the server thinks, and a slow computer move can be
// cancelled.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { PHONE, openBrowser, apiGame, boardHeaps, tapOn, waitForMoves } = require('./helpers');

/** Record, in the page, when the board and the status change, and every status text. */
async function watch(page) {
  await page.evaluate(() => {
    window.seen = { statuses: [], boardChanged: [] };
    const app = document.getElementById('app');
    new MutationObserver(() => {
      const s = document.getElementById('status');
      if (s) window.seen.statuses.push(s.textContent);
      const heaps = [...document.querySelectorAll('#board .heap-size')].map((e) => e.textContent).join(' ');
      if (heaps !== window.seen.lastHeaps) { window.seen.boardChanged.push([performance.now(), heaps]); window.seen.lastHeaps = heaps; }
    }).observe(app, { subtree: true, childList: true, characterData: true, attributes: true });
    // A click, a tap's click, or the click that Enter makes on a button.
    document.addEventListener('click', (e) => { window.seen.clickAt = e.timeStamp; window.seen.answeredAt = null; }, true);
    new MutationObserver(() => { if (window.seen.clickAt && !window.seen.answeredAt) window.seen.answeredAt = performance.now(); })
      .observe(app, { subtree: true, childList: true, attributes: true });
  });
}

/** When the last request to `path` ended, by the page's clock. */
const responseEnd = (page, part) => page.evaluate((p) => {
  const e = performance.getEntriesByType('resource').filter((r) => r.name.includes(p)).pop();
  return e ? e.responseEnd : null;
}, part);

/** One try: a new game, our move by tap (and confirmation) or by keyboard; what the page showed, and when. */
async function tryOnce(page, touch) {
  await apiGame(page, { game: 'nim', position: '3 4 5', opponent: 'computer', level: 'perfect' });
  await watch(page);
  // Take 2 from A (Bouton), by a tap and its confirmation on the phone,
  // by the arrow keys and Enter at the desk.
  const match = '#board .heap[data-heap="0"] .stone[data-index="1"]';
  if (touch) {
    await tapOn(page, match);
    await page.waitForSelector('#confirm-move');
    await page.click('#play-preview');
  } else {
    await page.focus('#board [tabindex="0"]');
    await page.keyboard.press('ArrowRight');
    await page.evaluate(() => { window.seen.clickAt = null; });
    await page.keyboard.press('Enter');
  }
  await waitForMoves(page, 2);
  await page.waitForSelector('.status.your-turn');
  const seen = await page.evaluate(() => window.seen);
  const final = (await boardHeaps(page)).join(' ');
  const shown = seen.boardChanged.find(([, h]) => h === final);
  assert.ok(shown, JSON.stringify(seen.boardChanged));
  const reply = await responseEnd(page, '/computer-move');
  assert.ok(reply, 'the computer\'s move was asked for on its own');
  return {
    answered: seen.answeredAt - seen.clickAt,
    afterTap: shown[0] - seen.clickAt,
    afterReply: shown[0] - reply,
    thinking: seen.statuses.filter((t) => /thinking/i.test(t)),
  };
}

// The bounds are the page's: on this shared machine a try can be slowed by
// other work, so the best of three tries must meet them.
for (const [name, options] of [['a phone', PHONE], ['a desk', {}]]) {
  for (const reduced of [false, true]) {
    test(`on ${name}${reduced ? ' with reduced motion' : ''}: a tap is answered within 100 ms, and the computer's move shows within ${reduced ? 'a frame of its reply' : '400 ms'}`, async (t0) => {
      const b = await openBrowser(Object.assign({ reducedMotion: reduced ? 'reduce' : 'no-preference' }, options));
      try {
        const tries = [];
        for (let i = 0; i < 3; i++) {
          const t = await tryOnce(b.page, !!options.hasTouch);
          tries.push(t);
          const fast = reduced ? t.afterReply < 50 : t.afterTap < 400;
          // The server answered at once: no "thinking" is shown.
          if (t.answered < 100 && fast && !t.thinking.length) break;
        }
        t0.diagnostic(tries.map((t) => `tap answered in ${Math.round(t.answered)} ms, computer's move shown ${Math.round(t.afterTap)} ms after the tap, ${Math.round(t.afterReply)} ms after its reply`).join('; '));
        const ok = tries.some((t) => t.answered < 100 && (reduced ? t.afterReply < 50 : t.afterTap < 400) && !t.thinking.length);
        assert.ok(ok, JSON.stringify(tries.map((t) => ({ answered: Math.round(t.answered), afterTap: Math.round(t.afterTap), afterReply: Math.round(t.afterReply), thinking: t.thinking }))));
        assert.deepEqual(b.errors, []);
      } finally {
        await b.close();
      }
    });
  }
}

test('a slow computer move shows that it is thinking, and the player can cancel it by tap', async () => {
  const b = await openBrowser(PHONE);
  try {
    const { page } = b;
    // Misère Dawson's Kayles from 200 30 keeps the server thinking to its
    // time limit (seconds): neither method of the misère race settles 200 28
    // (the quotient stops near heap 27, the search fills its 500 000
    // positions; docs/journal/misere.md).
    const grant = await apiGame(page, { game: 'dawson', convention: 'misere', position: '200 30', opponent: 'computer', level: 'perfect' });
    await tapOn(page, '#board .heap[data-heap="1"] .stone[data-index="29"]');
    await page.waitForSelector('#confirm-move');
    await page.click('#play-preview');
    // Our move is on the board at once, and the computer is thinking.
    await page.waitForFunction(() => document.querySelectorAll('#move-history li').length === 1);
    assert.deepEqual(await boardHeaps(page), [200, 28]);
    await page.waitForSelector('#cancel-thinking');
    assert.match(await page.textContent('#status'), /Nimatron is thinking/);
    await page.click('#cancel-thinking');
    // Back to the position before our move, our turn, within a second.
    await page.waitForFunction(() => document.querySelectorAll('#move-history li').length === 0, null, { timeout: 1000 });
    assert.deepEqual(await boardHeaps(page), [200, 30]);
    await page.waitForSelector('.status.your-turn');
    assert.match(await page.textContent('#message'), /taken back/i);
    // The computer's move, when the server finishes, is not applied.
    await page.waitForTimeout(6000);
    const game = await page.evaluate(async (id) => (await fetch('/api/games/' + id)).json(), grant.game.id);
    assert.equal(game.ply, 0);
    assert.equal(await page.$$eval('#move-history li', (e) => e.length), 0);
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});

test('at a desk, the cancel of a slow computer move is reached and pressed by keyboard', async () => {
  const b = await openBrowser();
  try {
    const { page } = b;
    await apiGame(page, { game: 'dawson', convention: 'misere', position: '200 30', opponent: 'computer', level: 'perfect' });
    await page.focus('#board .heap[data-heap="1"] .stone[data-index="29"]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#cancel-thinking');
    // Tab from the board reaches the cancel before anything else on the page.
    let reached = false;
    for (let i = 0; i < 30 && !reached; i++) {
      await page.keyboard.press('Shift+Tab');
      reached = await page.evaluate(() => document.activeElement && document.activeElement.id === 'cancel-thinking');
    }
    assert.ok(reached, 'the cancel button is in the Tab order');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelectorAll('#move-history li').length === 0, null, { timeout: 1000 });
    assert.deepEqual(await boardHeaps(page), [200, 30]);
    await page.waitForSelector('.status.your-turn');
    // The keyboard is back on the board, to move again.
    await page.waitForFunction(() => !!document.activeElement.closest('#board'));
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});
