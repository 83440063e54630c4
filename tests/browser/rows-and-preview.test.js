// Long rows on a phone: every object reachable, a swipe scrolls and never
// plays; what a tap would take is shown before it is played; and Nim's
// move takes away only the objects it takes.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { PHONE, openBrowser, apiGame, boardHeaps, moveTexts, swipe, tapOn, waitForMoves } = require('./helpers');

const moveCount = (page) => page.$$eval('#move-history li', (e) => e.length);

test('on a phone: every pin of a long row is reachable, and a swipe scrolls without playing', async () => {
  const b = await openBrowser(PHONE);
  try {
    const { page } = b;
    await apiGame(page, { game: 'dawson', position: '70 65' });
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `the page is ${width} px wide`);
    // Every pin of both rows can be brought into view and is a whole
    // target there (44 px wide at least, within the screen).
    for (const [heap, n] of [[0, 70], [1, 65]]) {
      const pins = await page.$$(`#board .heap[data-heap="${heap}"] .stone`);
      assert.equal(pins.length, n);
      for (const k of [0, Math.floor(n / 2), n - 1]) {
        const pin = page.locator(`#board .heap[data-heap="${heap}"] .stone[data-index="${k}"]`);
        await pin.scrollIntoViewIfNeeded();
        const box = await pin.boundingBox();
        assert.ok(box.x >= 0 && box.x + box.width <= 390, `heap ${heap} pin ${k + 1} at ${box.x}`);
        assert.ok(box.width >= 44 && box.height >= 44, `pin ${k + 1} is ${box.width}×${box.height}`);
      }
    }
    // A swipe along the first row scrolls it, and plays and selects nothing.
    const row = '#board .heap[data-heap="0"] .stones';
    await page.$eval(row, (r) => { r.scrollLeft = 0; });
    const box = await page.locator(row).boundingBox();
    const y = box.y + box.height / 2;
    await swipe(page, [box.x + box.width - 30, y], [box.x + 40, y]);
    await page.waitForTimeout(300);
    assert.ok(await page.$eval(row, (r) => r.scrollLeft) > 100, 'the row scrolled');
    assert.equal(await moveCount(page), 0);
    assert.equal(await page.$('#confirm-move'), null, 'a swipe is no tap');
    assert.equal(await page.$$eval('#board .stone.selected, #board .stone.preview', (e) => e.length), 0);

    // A short swipe across two pins of Kayles plays nothing either.
    await apiGame(page, { game: 'kayles', position: '12' });
    const a = await page.locator('#board .stone[data-index="4"]').boundingBox();
    const c = await page.locator('#board .stone[data-index="5"]').boundingBox();
    await swipe(page, [a.x + a.width / 2, a.y + a.height / 2], [c.x + c.width / 2, c.y + c.height / 2], 4);
    await page.waitForTimeout(300);
    assert.equal(await moveCount(page), 0);
    assert.deepEqual(await boardHeaps(page), [12]);
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});

/** A row's cues, as the eye sees them: each shown cue's number, and the pins seen (their centre inside the row and clear of the cues). */
async function cuesOf(page, heap, row = `#board .heap[data-heap="${heap}"] .stones`, items = '.stone') {
  return page.$eval(row, (row, items) => {
    const box = row.getBoundingClientRect();
    const shown = (side) => {
      const c = row.querySelector(`.more-${side}`);
      if (!c || c.hidden || !c.firstElementChild) return null;
      const r = c.firstElementChild.getBoundingClientRect();
      return { n: Number(c.textContent.replace(/[^0-9]/g, '')), text: c.textContent, left: r.left, right: r.right, top: r.top, bottom: r.bottom };
    };
    const left = shown('left');
    const right = shown('right');
    const seen = [...row.querySelectorAll(items)].filter((st) => {
      const r = st.getBoundingClientRect();
      const mid = r.left + r.width / 2;
      return mid >= Math.max(box.left, left ? left.right : -Infinity) && mid <= Math.min(box.right, right ? right.left : Infinity);
    }).length;
    return { left, right, seen, scrollLeft: row.scrollLeft, end: row.scrollWidth - row.clientWidth };
  }, items);
}

test('on a phone: a long row (or word) says how many pins lie out of sight at each edge, and a tap there scrolls it on', async () => {
  const b = await openBrowser(PHONE);
  try {
    const { page } = b;
    await apiGame(page, { game: 'kayles', position: '40' });
    await page.waitForFunction(() => { const c = document.querySelector('#board .more-right'); return c && !c.hidden; });
    // At the start: nothing to the left; to the right, every pin not seen.
    let c = await cuesOf(page, 0);
    assert.equal(c.left, null, 'no cue at the left edge before the row is scrolled');
    assert.ok(c.right, 'a cue at the right edge');
    assert.ok(c.seen >= 4 && c.seen < 10, `${c.seen} pins seen`);
    assert.equal(c.right.n + c.seen, 40, `"${c.right.text}" beside ${c.seen} pins seen, of 40`);
    assert.ok(c.right.left >= 0 && c.right.right <= 390 && c.right.bottom - c.right.top >= 44, JSON.stringify(c.right));
    // A tap on the cue scrolls the row on, without playing or selecting.
    const before = c.scrollLeft;
    await page.tap(`#board .heap[data-heap="0"] .more-right .more-text`);
    await page.waitForFunction((x) => document.querySelector('#board .heap[data-heap="0"] .stones').scrollLeft > x + 100, before);
    await page.waitForTimeout(600);
    c = await cuesOf(page, 0);
    assert.ok(c.left && c.right, JSON.stringify(c));
    assert.equal(c.left.n + c.seen + c.right.n, 40, `"${c.left.text}", ${c.seen} seen, "${c.right.text}"`);
    assert.equal(await moveCount(page), 0);
    assert.equal(await page.$('#confirm-move, #choices'), null, 'the cue is no pin');
    // At the end: only the left cue, which counts the rest.
    await page.$eval('#board .heap[data-heap="0"] .stones', (r) => { r.scrollLeft = r.scrollWidth; });
    await page.waitForTimeout(300);
    c = await cuesOf(page, 0);
    assert.equal(c.right, null);
    assert.equal(c.left.n + c.seen, 40, `"${c.left.text}" beside ${c.seen} pins seen`);

    // A row the screen holds whole has no cue.
    await apiGame(page, { game: 'kayles', position: '5' });
    await page.waitForTimeout(300);
    c = await cuesOf(page, 0);
    assert.deepEqual([c.left, c.right, c.seen], [null, null, 5]);

    // A long word, which stays on one line on a phone, says so too.
    await apiGame(page, { game: 'wordnim', position: 'planet internationalization' });
    await page.waitForFunction(() => { const c = document.querySelector('#board .word[data-word="1"] .more-right'); return c && !c.hidden; });
    c = await cuesOf(page, null, '#board .word[data-word="0"]', '.letter');
    assert.deepEqual([c.left, c.right, c.seen], [null, null, 6]);
    c = await cuesOf(page, null, '#board .word[data-word="1"]', '.letter');
    assert.equal(c.left, null);
    assert.equal(c.right.n + c.seen, 20, `"${c.right.text}" beside ${c.seen} letters seen, of 20`);
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});

test('on a phone: a move made out of sight on a long row is brought into sight, and the row keeps where the player scrolled it', async () => {
  const b = await openBrowser(PHONE);
  try {
    const { page } = b;
    const grant = await apiGame(page, { game: 'kayles', position: '40' });
    const row = '#board .heap[data-heap="0"] .stones';
    await page.waitForFunction(() => { const c = document.querySelector('#board .more-right'); return c && !c.hidden; });
    assert.equal(await page.$eval(row, (r) => r.scrollLeft), 0);
    // The other player takes the last pin (a move that reaches this page
    // from the server, as an opponent's does): its ghost is brought into
    // sight, clear of the cues.
    await page.evaluate(async (g) => {
      const game = await (await fetch('/api/games/' + g.game.id)).json();
      const m = game.legal_moves.find((x) => x.touches.length === 1 && x.touches[0].kind === 'objects' && x.touches[0].start === 39 && x.touches[0].count === 1);
      const r = await fetch(`/api/games/${g.game.id}/moves`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer ' + g.token }, body: JSON.stringify({ move: m.notation, ply: 0 }) });
      if (!r.ok) throw new Error(await r.text());
    }, grant);
    await page.waitForFunction(() => document.querySelectorAll('#move-history li').length === 1);
    await page.waitForTimeout(400);
    const inSight = () => page.$eval(row, (r) => {
      const box = r.getBoundingClientRect();
      const cues = [...r.querySelectorAll('.more:not([hidden]) .more-text')].map((c) => c.getBoundingClientRect());
      return [...r.querySelectorAll('.ghost')].some((g) => {
        const x = g.getBoundingClientRect();
        return x.left >= box.left && x.right <= box.right && !cues.some((c) => c.left < x.right && c.right > x.left);
      });
    });
    assert.ok(await inSight(), 'the ghost of the pin taken is in sight');
    // The player scrolls back and taps a pin there: the row stays where
    // the player took it, not pulled back to the last move.
    await page.$eval(row, (r) => { r.scrollLeft = 0; });
    await page.waitForTimeout(200);
    await page.tap(`${row} .stone[data-index="1"]`);
    await page.waitForSelector('#choices, #confirm-move');
    await page.waitForTimeout(300);
    assert.ok(await page.$eval(row, (r) => r.scrollLeft) < 60, 'the row was pulled away from the pin tapped');
    // A change that draws the board again (the analysis shown) keeps the
    // row where the player scrolled it.
    await page.click('#clear-selection, #cancel-preview');
    await page.$eval(row, (r) => { r.scrollLeft = 500; });
    await page.waitForTimeout(200);
    await page.click('#analysis-toggle', { force: true });
    await page.waitForSelector('#analysis #verdict');
    await page.waitForTimeout(300);
    const left = await page.$eval(row, (r) => r.scrollLeft);
    assert.ok(Math.abs(left - 500) < 2, `the row is at ${left}, not 500, after the board was drawn again`);
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});

test('at a desk by keyboard: the focus walks a long row, and the pin it is on stands clear of the cues', async () => {
  const b = await openBrowser();
  try {
    const { page } = b;
    await apiGame(page, { game: 'dawson', position: '70 65' });
    await page.waitForFunction(() => { const c = document.querySelector('#board .heap[data-heap="0"] .more-right'); return c && !c.hidden; });
    await page.focus('#board [tabindex="0"]');
    for (let k = 1; k <= 69; k++) {
      await page.keyboard.press('ArrowRight');
      if (k % 10 && k !== 69) continue;
      await page.waitForTimeout(150);
      const r = await page.evaluate(() => {
        const f = document.activeElement;
        const box = f.getBoundingClientRect();
        const row = f.closest('.stones').getBoundingClientRect();
        const cues = [...f.closest('.stones').querySelectorAll('.more:not([hidden]) .more-text')].map((c) => c.getBoundingClientRect());
        return { label: f.getAttribute('aria-label'), inside: box.left >= row.left && box.right <= row.right,
          covered: cues.some((c) => c.left < box.right && c.right > box.left) };
      });
      assert.match(r.label, new RegExp(`^Heap A, object ${k + 1} of 70\\b`));
      assert.ok(r.inside && !r.covered, `${r.label}: inside the row ${r.inside}, under a cue ${r.covered}`);
    }
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});

test('on a phone: a tap shows what it would take, and a second tap plays it', async () => {
  const b = await openBrowser(PHONE);
  try {
    const { page } = b;
    // Dawson's Kayles: a move knocks down two adjacent pins. A tap on the
    // end pin previews the two it takes, and plays nothing yet.
    await apiGame(page, { game: 'dawson', position: '8' });
    await tapOn(page, '#board .stone[data-index="7"]');
    await page.waitForSelector('#confirm-move');
    assert.equal(await moveCount(page), 0);
    const previewed = await page.$$eval('#board .stone.preview', (els) => els.map((e) => Number(e.dataset.index)));
    assert.deepEqual(previewed, [6, 7]);
    assert.match(await page.textContent('#confirm-move'), /Take 2 from heap A/);
    // Tapping it again plays it.
    await tapOn(page, '#board .stone[data-index="7"]');
    await waitForMoves(page, 1);
    assert.deepEqual(await boardHeaps(page), [6]);

    // Treblecross: a pin and its neighbours go (up to three).
    await apiGame(page, { game: 'treblecross', position: '9' });
    await tapOn(page, '#board .stone[data-index="4"]');
    await page.waitForSelector('#confirm-move, #choices');
    assert.equal(await moveCount(page), 0);

    // Nim: a tap on the second match of B previews it and the two after it
    // (three of four), and Play plays exactly that.
    await apiGame(page, { game: 'nim', position: '3 4 5' });
    await tapOn(page, '#board .heap[data-heap="1"] .stone[data-index="1"]');
    await page.waitForSelector('#confirm-move');
    assert.deepEqual(await page.$$eval('#board .heap[data-heap="1"] .stone.preview', (els) => els.map((e) => Number(e.dataset.index))), [1, 2, 3]);
    assert.equal(await page.$$eval('#board .heap:not([data-heap="1"]) .stone.preview', (e) => e.length), 0);
    await page.click('#play-preview');
    await waitForMoves(page, 1);
    assert.match((await moveTexts(page))[0], /take 3 from heap B \(4 → 1\)/i);
    // The three taken fade as ghosts; the match left does not fade.
    await page.waitForTimeout(700);
    const looks = await page.$$eval('#board .heap[data-heap="1"] .stone, #board .heap[data-heap="1"] .stone-ghost', (els) => els.map((e) => ({ ghost: e.classList.contains('ghost'), opacity: Number(getComputedStyle(e).opacity) })));
    assert.deepEqual(looks.map((l) => l.ghost), [false, true, true, true]);
    assert.equal(looks[0].opacity, 1);
    assert.ok(looks.slice(1).every((l) => l.opacity < 0.6), JSON.stringify(looks));

    // Chomp: a tap on a square previews every square the bite takes.
    await apiGame(page, { game: 'chomp:3x4' });
    await tapOn(page, '#board .cell[data-at="1,2"]');
    await page.waitForSelector('#confirm-move');
    const bite = await page.$$eval('#board .cell.preview', (els) => els.map((e) => e.dataset.at).sort());
    assert.deepEqual(bite, ['1,2', '1,3', '2,2', '2,3']);
    // Cancel leaves the board as it was.
    await page.click('#cancel-preview');
    assert.equal(await page.$$eval('#board .cell.preview', (e) => e.length), 0);
    assert.equal(await moveCount(page), 0);
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});

test('at a desk by keyboard: the focused match shows what Enter takes, and Enter plays it at once', async () => {
  const b = await openBrowser();
  try {
    const { page } = b;
    await apiGame(page, { game: 'dawson', position: '40' });
    await page.focus('#board [tabindex="0"]');
    // End reaches the last pin of a long row, in view.
    await page.keyboard.press('End');
    const focused = await page.evaluate(() => ({ index: document.activeElement.dataset.index, label: document.activeElement.getAttribute('aria-label') }));
    assert.equal(focused.index, '39');
    assert.match(focused.label, /Take 2 from heap A/);
    // Both pins that Enter takes are lifted, and no other.
    await page.waitForTimeout(200);
    const lifted = await page.$$eval('#board .stone', (els) => els.filter((e) => getComputedStyle(e).transform !== 'none').map((e) => Number(e.dataset.index)));
    assert.deepEqual(lifted, [38, 39]);
    const box = await page.locator('#board .stone[data-index="39"]').boundingBox();
    assert.ok(box.x + box.width <= 1280);
    await page.keyboard.press('Enter');
    await waitForMoves(page, 1);
    assert.deepEqual(await boardHeaps(page), [38]);
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});

test('choices after a tap say where each takes, and show it on the board before it is played', async () => {
  const b = await openBrowser(PHONE);
  try {
    const { page } = b;
    // Treblecross on 9: a tap on the middle pin fits three runs of three
    // (pins 3–5, 4–6 and 5–7); the first and last leave the same rows.
    await apiGame(page, { game: 'treblecross', position: '9' });
    await tapOn(page, '#board .stone[data-index="4"]');
    await page.waitForSelector('#choices');
    const texts = await page.$$eval('#choices button.choice', (els) => els.map((e) => e.textContent));
    assert.equal(texts.length, 3, texts.join(' | '));
    assert.equal(new Set(texts).size, 3, `each choice reads differently: ${texts.join(' | ')}`);
    const first = texts.find((t) => /objects 3 to 5 of A/.test(t));
    assert.ok(first, texts.join(' | '));
    // A tap on that choice shows its three pins, and plays nothing yet.
    await page.locator('#choices button.choice', { hasText: 'objects 3 to 5' }).tap();
    await page.waitForSelector('#confirm-move');
    assert.equal(await moveCount(page), 0);
    assert.deepEqual(await page.$$eval('#board .stone.preview', (els) => els.map((e) => Number(e.dataset.index))), [2, 3, 4]);
    await page.click('#play-preview');
    await waitForMoves(page, 1);
    assert.deepEqual(await boardHeaps(page), [2, 4]);
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
  // At a desk, pointing at a choice marks its pins.
  const d = await openBrowser();
  try {
    const { page } = d;
    await apiGame(page, { game: 'treblecross', position: '9' });
    await page.click('#board .stone[data-index="4"]');
    await page.waitForSelector('#choices');
    await page.hover('#choices button.choice:has-text("objects 5 to 7")');
    assert.deepEqual(await page.$$eval('#board .stone.preview', (els) => els.map((e) => Number(e.dataset.index))), [4, 5, 6]);
    assert.equal(await moveCount(page), 0);
    assert.deepEqual(d.errors, []);
  } finally {
    await d.close();
  }
});
