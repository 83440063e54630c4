// The last move, shown on the right pieces in every game: what it took
// away stays as ghosts where it stood, and what it put down is marked, on
// a phone by touch and at a desk by keyboard.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { PHONE, openBrowser, apiGame, boardHeaps, boutonMove, moveTexts, newGame, tapOn, waitForMoves } = require('./helpers');

/** Tap an element, and again if the first tap only previewed the move. */
async function tapPlay(page, selector, moves) {
  await tapOn(page, selector);
  await page.waitForFunction((n) => document.querySelectorAll('#move-history li').length >= n || !!document.querySelector('#confirm-move, #choices'), moves);
  if (await page.$('#confirm-move')) await page.click('#play-preview');
  await waitForMoves(page, moves);
}

/** The centres of the board's elements matching `selector`, by their id, label or text, relative to the board. */
async function centres(page, selector) {
  return page.$$eval(selector, (els) => Object.fromEntries(els.map((e) => {
    const r = e.getBoundingClientRect();
    const b = document.getElementById('board').getBoundingClientRect();
    return [e.dataset.id || e.getAttribute('aria-label') || e.textContent.trim(), [Math.round(r.x + r.width / 2 - b.x), Math.round(r.y + r.height / 2 - b.y)]];
  })));
}

test('on a phone: each game shows its last move on the pieces it took and put down', async () => {
  const b = await openBrowser(PHONE);
  try {
    const { page } = b;

    // Node Kayles: removing 9 takes 8 and 10. Ghosts stand where those
    // three stood; vertex 7, which lost its neighbour 8, keeps its place
    // and is not marked.
    await apiGame(page, { game: 'node-kayles', position: '1-2,2-3,3-4,4-5,5-6,7-8,8-9,9-10' });
    const before = await centres(page, '#board .vertex');
    await tapPlay(page, '#board .vertex[data-id="9"]', 1);
    assert.match((await moveTexts(page))[0], /remove vertex 9 with its neighbours 8, 10/i);
    const ghosts = await centres(page, '#board .vertex-ghost');
    assert.deepEqual(Object.keys(ghosts).sort(), ['10', '8', '9']);
    for (const id of ['8', '9', '10']) assert.deepEqual(ghosts[id], before[id], `the ghost of ${id} stands where ${id} stood`);
    const after = await centres(page, '#board .vertex');
    assert.deepEqual(after['7'], before['7'], 'vertex 7 keeps its place');
    assert.equal(await page.$$eval('#board .new', (e) => e.length), 0, 'nothing was put down');
    assert.equal(await page.$$eval('#board path.ghost', (e) => e.length), 3, 'the edges 7-8, 8-9 and 9-10 are ghosts');

    // Nim on graphs: the token moves from a to b, lowering a-b from 3 to
    // 1. The marks are on vertex b and edge a-b, not on c-d.
    await apiGame(page, { game: 'graph-nim', position: 'a-b:3,b-c:1,c-d:2,@a' });
    await tapOn(page, '#board .vertex[data-id="b"]');
    await page.waitForSelector('#choices');
    await page.click('#choices button.choice:has-text("from 3 to 1")');
    await waitForMoves(page, 1);
    const marked = await page.$$eval('#board .new[aria-label]', (els) => els.map((e) => e.getAttribute('aria-label')).sort());
    assert.equal(marked.length, 2, marked.join(' | '));
    assert.match(marked[0], /^Edge a–b, weight 1/);
    assert.match(marked[1], /^Vertex b/);

    // Hackenbush: cutting g-1 drops 1-2 and 1-3; the three are ghosts and
    // the edges that stand (g-4, 4-5, 5-g) are not marked.
    await apiGame(page, { game: 'hackenbush', position: 'g-1 1-2 1-3 g-4 4-5 5-g' });
    await tapPlay(page, '#board .edge-handle[data-id="1-g"]', 1);
    const fallen = await page.$$eval('#board path.edge-line.ghost', (els) => els.map((e) => e.dataset.id).sort());
    assert.deepEqual(fallen, ['1-2', '1-3', '1-g']);
    assert.deepEqual(await page.$$eval('#board .edge-handle', (els) => els.map((e) => e.dataset.id).sort()), ['4-5', '4-g', '5-g']);
    assert.equal(await page.$$eval('#board .new', (e) => e.length), 0);

    // Wordnim: "take 'an' from 'planet', leaving 'pelt'": the word left is
    // marked, letter by letter, and A and N are ghosts beside it.
    await apiGame(page, { game: 'wordnim', position: 'planet' });
    await tapOn(page, '#board .letter[data-index="2"]');
    await tapOn(page, '#board .letter[data-index="3"]');
    await page.waitForFunction(() => document.querySelectorAll('#move-history li').length >= 1 || !!document.querySelector('#confirm-move, #choices'));
    if (await page.$('#confirm-move')) await page.click('#play-preview');
    else if (await page.$('#choices')) await page.click('#choices button.choice:has-text("leaving")');
    await waitForMoves(page, 1);
    assert.deepEqual(await page.$$eval('#board .letter.new', (els) => els.map((e) => e.textContent)), ['P', 'E', 'L', 'T']);
    assert.deepEqual(await page.$$eval('#board .letter-ghost', (els) => els.map((e) => e.textContent)), ['A', 'N']);

    // Kayles: two pins from the middle of 10 leave rows of 4 and 4; the
    // ghosts stand at the end of the first, and the second is marked as
    // split off.
    await apiGame(page, { game: 'kayles', position: '10' });
    await tapOn(page, '#board .stone[data-index="4"]');
    await tapOn(page, '#board .stone[data-index="5"]');
    await page.waitForSelector('#confirm-move, #choices');
    if (await page.$('#confirm-move')) await page.click('#play-preview');
    else await page.click('#choices button.choice:has-text("Take 2")');
    await waitForMoves(page, 1);
    assert.deepEqual(await boardHeaps(page), [4, 4]);
    const rows = await page.$$eval('#board .heap', (hs) => hs.map((h) => ({
      ghosts: [...h.querySelectorAll('.stone, .stone-ghost')].map((s) => (s.classList.contains('ghost') ? 'g' : 'o')).join(''),
      split: h.classList.contains('new-row'),
    })));
    assert.deepEqual(rows, [{ ghosts: 'oooogg', split: false }, { ghosts: 'oooo', split: true }]);
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});

test('at a desk by keyboard: the computer\'s move is marked, in Nim and in Notakto, and a replay shows each move', async () => {
  const b = await openBrowser();
  try {
    const { page } = b;
    await newGame(page, { start: '3 4 5', first: 'you' });
    // Tab to the board, then Enter on the match that wins (Bouton).
    const mv = boutonMove(await boardHeaps(page));
    await page.focus('#board [tabindex="0"]');
    for (let i = 0; i < mv[0]; i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Home');
    const size = (await boardHeaps(page))[mv[0]];
    for (let k = 0; k < size - mv[1]; k++) await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    await waitForMoves(page, 2);
    await page.waitForSelector('.status.your-turn');
    // The computer's move, as its text says, and its ghosts: on that heap
    // only, as many as it took, at the end of the row.
    const text = (await moveTexts(page))[1];
    const [, take, heap] = text.match(/^Take (?:all )?(\d+) from heap ([A-C])/i);
    const h = 'ABC'.indexOf(heap);
    const ghostRows = await page.$$eval('#board .heap', (hs) => hs.map((x) => [...x.querySelectorAll('.stone, .stone-ghost')].map((s) => (s.classList.contains('ghost') ? 'g' : 'o')).join('')));
    ghostRows.forEach((row, i) => {
      if (i === h) assert.match(row, new RegExp(`^o*g{${take}}$`), `heap ${heap}: ${row}`);
      else assert.doesNotMatch(row, /g/, `heap ${'ABC'[i]} has no ghost: ${row}`);
    });

    // Notakto: the computer's X is marked as the last move, and says whose
    // it is; ours is not marked any more.
    await newGame(page, { game: 'notakto:3', start: null, position: '.../.../...', first: 'you' });
    await page.focus('#board [tabindex="0"]');
    await page.keyboard.press('Enter');
    await waitForMoves(page, 2);
    await page.waitForSelector('.status.your-turn');
    const marks = await page.$$eval('#board .cell.marked', (els) => els.map((e) => ({ label: e.getAttribute('aria-label'), last: e.classList.contains('new') })));
    assert.equal(marks.length, 2);
    const last = marks.filter((m) => m.last);
    assert.equal(last.length, 1, JSON.stringify(marks));
    assert.match(last[0].label, /Nimatron/);
    assert.match((await moveTexts(page))[1], new RegExp(last[0].label.match(/^Board 1, (\w\d)/)[1]));

    // Replay: the position after move 1 shows move 1's ghosts... here the
    // X of move 1 marked.
    await page.click('text=Step back through the game');
    await page.waitForSelector('#replay');
    await page.waitForSelector('#board[data-kind="marks"] .cell.marked.new');
    assert.equal(await page.$$eval('#board .cell.marked', (e) => e.length), 1);
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});

test('under a strict Content-Security-Policy (no inline script or style) the page draws and plays every board', async () => {
  const b = await openBrowser();
  try {
    const { page } = b;
    const policy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'";
    await page.route((url) => url.pathname.startsWith('/play/'), async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, headers: Object.assign({}, response.headers(), { 'content-security-policy': policy }) });
    });
    await page.addInitScript(() => {
      window.violations = [];
      document.addEventListener('securitypolicyviolation', (e) => window.violations.push(`${e.violatedDirective}: ${e.blockedURI} ${e.sample}`));
    });
    for (const body of [{ game: 'node-kayles', position: '1-2,2-3,3-4' }, { game: 'circular:3', position: '10' }, { game: 'kayles', position: '6' }]) {
      await apiGame(page, body);
      await page.click('#board [tabindex="0"]');
      await page.waitForSelector('#choices, #move-history li');
      // Positioned pieces stand apart: their places came through.
      const places = await page.$$eval('#board .vertex, #board .place', (els) => els.map((e) => { const r = e.getBoundingClientRect(); return `${Math.round(r.x)},${Math.round(r.y)}`; }));
      assert.equal(new Set(places).size, places.length, `${body.game}: pieces on top of each other`);
    }
    assert.deepEqual(await page.evaluate(() => window.violations), []);
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});
