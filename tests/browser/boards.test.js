// Every kind of board, played by clicking; a phone, where no page is wider
// than the screen and a run is taken by tapping its pins; remoteness in the
// analysis; an invite link recovered in a second tab; and an accessibility
// check (axe-core) of every page. Screenshots are left in target/browser/.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { BASE, openBrowser, apiGame, axeViolations, boardHeaps, tapOn, waitForMoves } = require('./helpers');

const SHOTS = path.join(__dirname, '..', '..', 'target', 'browser');
fs.mkdirSync(SHOTS, { recursive: true });

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 };

/** The texts of the moves made so far. */
const history = (page) => page.$$eval('#move-history li .what', (e) => e.map((x) => x.textContent));

test('each board kind is played by clicking its elements', async () => {
  const b = await openBrowser();
  try {
    const { page } = b;

    // Chomp: a grid of squares; a click bites.
    await apiGame(page, { game: 'chomp:3x4' });
    assert.equal(await page.getAttribute('#board', 'data-kind'), 'grid');
    assert.equal(await page.$$eval('#board .cell:not(:disabled)', (e) => e.length), 11, 'every square but the poisoned one');
    await page.click('#board .cell[data-at="1,2"]');
    await waitForMoves(page, 1);
    assert.match((await history(page))[0], /row 2, column 3/i);
    // The bite took the squares above and to the right: 12 - 1 - 4 = 7 left... of which the poisoned is one.
    assert.equal(await page.$$eval('#board button.cell', (e) => e.length), 8);

    // n-dimensional Nim: two pieces of a line, by selecting both.
    await apiGame(page, { game: 'board:2x3' });
    await page.click('#board .cell[data-at="0,0"]');
    await page.waitForSelector('#choices');
    await page.click('#board .cell[data-at="0,1"]');
    await page.waitForSelector('#choices');
    const choice = await page.textContent('#choices button.choice');
    assert.match(choice, /Remove 2 pieces/);
    await page.click('#choices button.choice');
    await waitForMoves(page, 1);
    assert.match((await history(page))[0], /Remove 2 pieces from row 1/i);

    // Node Kayles: a graph; a click on a vertex removes it and its neighbours.
    await apiGame(page, { game: 'node-kayles', position: '1-2,2-3,3-4' });
    assert.equal(await page.getAttribute('#board', 'data-kind'), 'graph');
    await page.click('#board .vertex[data-vertex="1"]');
    await waitForMoves(page, 1);
    assert.match((await history(page))[0], /Remove vertex 2 with its neighbours 1, 3/i);
    assert.equal(await page.$$eval('#board .vertex', (e) => e.length), 1, 'only vertex 4 is left');

    // Nim on graphs: clicking a vertex offers the amounts the edge can be lowered by.
    await apiGame(page, { game: 'graph-nim', position: 'a-b:2,@a' });
    await page.click('#board .vertex[data-vertex="1"]');
    await page.waitForSelector('#choices');
    const amounts = await page.$$eval('#choices button.choice', (e) => e.map((x) => x.textContent));
    assert.equal(amounts.length, 2, amounts.join(' | '));
    assert.ok(amounts.some((t) => /lowering the edge from 2 to 1/.test(t)), amounts.join(' | '));
    await page.click('#choices button.choice:has-text("from 2 to 1")');
    await waitForMoves(page, 1);
    assert.equal((await page.textContent('#board .edge-handle')).trim(), '1', 'the edge now weighs 1');

    // Green Hackenbush: cut an edge; what loses the ground falls.
    await apiGame(page, { game: 'hackenbush', position: 'g-1 1-2' });
    await page.click('#board .edge-handle[data-edge="0"]');
    await waitForMoves(page, 1);
    assert.match((await history(page))[0], /Cut g-1; 1 edge above it/i);
    assert.equal(await page.$$eval('#board .edge-handle', (e) => e.length), 0);

    // The 21 game: a counter with a step per allowed amount.
    await apiGame(page, { game: 'twenty-one' });
    assert.equal(await page.getAttribute('#board', 'data-kind'), 'counter');
    assert.deepEqual(await page.$$eval('#board .step', (e) => e.map((x) => x.textContent)), ['+1', '+2', '+3']);
    await page.click('#board .step:has-text("+2")');
    await waitForMoves(page, 1);
    assert.equal((await page.textContent('#board .counter-value b')).trim(), '2');

    // Fibonacci Nim: the steps allowed shrink with the last take.
    await apiGame(page, { game: 'fibonacci', position: '10' });
    await page.click('#board .step:has-text("−3")');
    await waitForMoves(page, 1);
    assert.deepEqual(await page.$$eval('#board .step', (e) => e.map((x) => x.textContent)), ['−1', '−2', '−3', '−4', '−5', '−6']);

    // Notakto: a click marks a cell with an X.
    await apiGame(page, { game: 'notakto:3', position: '.../.../...' });
    await page.click('#board .cell[data-atom="c0.1.1"]');
    await waitForMoves(page, 1);
    assert.equal(await page.$$eval('#board .cell.marked', (e) => e.length), 1);

    // Wythoff: the move from every heap is on the board.
    await apiGame(page, { game: 'wythoff', position: '3 5' });
    await page.click('#board .all-heaps-button');
    await page.waitForSelector('#choices');
    // Then the second match of heap A: take 2 from both heaps.
    await page.click('#board .heap[data-heap="0"] .stone[data-index="1"]');
    await waitForMoves(page, 1);
    assert.deepEqual(await boardHeaps(page), [1, 3]);

    // Moore's Nim (k = 2): one heap, then another, in one move.
    await apiGame(page, { game: 'moore:2', position: '2 3 4' });
    await page.click('#board .heap[data-heap="0"] .stone[data-index="1"]');
    await page.waitForSelector('#choices');
    await page.click('#board .heap[data-heap="2"] .stone[data-index="2"]');
    await waitForMoves(page, 1);
    assert.deepEqual(await boardHeaps(page), [1, 3, 2]);
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});

test('analysis shows remoteness: how long perfect play lasts, and every move valued', async () => {
  const b = await openBrowser();
  try {
    const { page } = b;
    await apiGame(page, { game: 'nim', position: '1 2 4' });
    await page.click('label.switch');
    await page.waitForSelector('#remoteness');
    // 1 2 4 has nim-sum 7: the winner takes 1 from C, and play lasts 7
    // moves in all (every object taken one at a time) — counted here.
    assert.match(await page.textContent('#remoteness'), /lasts 7 more moves/);
    assert.match(await page.textContent('#best-move'), /Take 1 from heap C \(4 → 3\) \(wins in 7\)/);
    await page.click('#valued-moves summary');
    const values = await page.$$eval('#valued-moves li .value-text', (e) => e.map((x) => x.textContent));
    assert.equal(values.length, 7);
    assert.ok(values.every((v) => /^(wins|loses) in \d+$/.test(v)), values.join(', '));
    await page.screenshot({ path: path.join(SHOTS, 'desktop-analysis.png'), fullPage: true });
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});

test('on a phone: no page is wider than the screen, and Kayles is played by tapping a run', async () => {
  const b = await openBrowser(PHONE);
  try {
    const { page } = b;
    const width = () => page.evaluate(() => document.documentElement.scrollWidth);
    for (const p of ['/', '/history', '/explore']) {
      await page.goto(BASE + p);
      await page.waitForSelector('main > *');
      await page.waitForTimeout(200);
      assert.ok(await width() <= 390, `${p} is ${await width()} px wide`);
    }
    await apiGame(page, { game: 'kayles', position: '7' });
    assert.ok(await width() <= 390, `the game page is ${await width()} px wide`);
    // A phone is tapped, and its help says so, without the keyboard's keys.
    assert.match(await page.textContent('#board-help'), /^Tap an object, then a neighbour, to select a run/);
    assert.doesNotMatch(await page.textContent('#board-help'), /[Cc]lick|Keyboard/);
    const stone = await page.locator('#board .stone[data-index="0"]').boundingBox();
    assert.ok(stone.width >= 44 && stone.height >= 44, `a pin is ${stone.width}×${stone.height}`);
    // Two pins from the middle, by finger: 7 → 2 + 3. The first tap
    // offers the moves through pin 3; the second narrows them to one,
    // shown before it is played.
    await tapOn(page, '#board .stone[data-index="2"]');
    await page.waitForSelector('#choices');
    await tapOn(page, '#board .stone[data-index="3"]');
    await page.waitForSelector('#confirm-move');
    await page.click('#play-preview');
    await waitForMoves(page, 1);
    assert.deepEqual(await boardHeaps(page), [2, 3]);
    await page.screenshot({ path: path.join(SHOTS, 'phone-game.png'), fullPage: true });
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});

test('on a small phone: every game fits the screen, and a row that splits stays one line', async () => {
  const b = await openBrowser(Object.assign({}, PHONE, { viewport: { width: 360, height: 740 } }));
  try {
    const { page } = b;
    const width = () => page.evaluate(() => document.documentElement.scrollWidth);
    await page.goto(BASE + '/');
    await page.waitForSelector('main select');
    const games = await page.$$eval('main select', (s) => [...s[0].options].map((o) => o.value));
    assert.ok(games.length >= 20, games.join(' '));
    for (const game of games) {
      await apiGame(page, { game, convention: /^notakto/.test(game) ? 'misere' : 'normal' });
      assert.ok(await width() <= 360, `${game}: the game page is ${await width()} px wide`);
    }
    // Notakto is misère by its rules: the form chooses that for it, and
    // Chomp's normal play, rather than leaving a start to be refused.
    await page.goto(BASE + '/');
    await page.waitForSelector('#game-select');
    const conventions = () => page.$$eval('input[name=convention]', (rs) => rs.map((r) => `${r.value}${r.checked ? ' checked' : ''}${r.disabled ? ' disabled' : ''}`));
    await page.selectOption('#game-select', games.find((g) => /^notakto/.test(g)));
    assert.deepEqual(await conventions(), ['normal disabled', 'misere checked']);
    await page.selectOption('#game-select', games.find((g) => /^chomp/.test(g)));
    assert.deepEqual(await conventions(), ['normal checked', 'misere disabled']);
    await page.selectOption('#game-select', 'nim');
    assert.deepEqual(await conventions(), ['normal checked', 'misere']);
    await page.selectOption('#game-select', games.find((g) => /^notakto/.test(g)));
    await page.click('text=Start game');
    await page.waitForSelector('#board');
    assert.match(await page.textContent('main'), /misère play/);
    // A refused start shows its reason within the screen.
    await page.goto(BASE + '/');
    await page.waitForSelector('#game-select');
    await page.selectOption('#start', 'custom');
    await page.fill('#custom-position', '3 4 five-hundred-and-twelve-objects-in-a-heap');
    await page.click('text=Start game');
    await page.waitForFunction(() => document.querySelector('.form-error').textContent.length > 0);
    assert.ok(await width() <= 360, `the refused start is ${await width()} px wide`);
    // Which objects are neighbours is the game: ten pins of Kayles, and the
    // ten objects and gaps of Grundy's game, on one line, each target 44 px
    // wide; the row scrolls to show the rest, and the page does not.
    for (const game of ['kayles', 'grundy-game']) {
      await apiGame(page, { game, position: '10' });
      await page.waitForTimeout(200);
      const row = await page.$eval('#board .stones', (s) => ({
        tops: [...new Set([...s.querySelectorAll('.stone')].map((e) => Math.round(e.getBoundingClientRect().top)))],
        scrolls: getComputedStyle(s).overflowX === 'auto',
        targets: [...s.querySelectorAll('button:not(:disabled)')].map((e) => e.getBoundingClientRect().width),
      }));
      assert.equal(row.tops.length, 1, `${game}: the row is drawn on ${row.tops.length} lines`);
      assert.ok(row.scrolls, `${game}: the row does not scroll`);
      assert.ok(row.targets.length && row.targets.every((w) => w >= 44), `${game}: targets ${row.targets.join(', ')}`);
      assert.ok(await width() <= 360, `${game}: the page is ${await width()} px wide`);
    }
    // Wordnim's words, each on one line (PLANET wrapped its T before).
    await apiGame(page, { game: 'wordnim' });
    const words = await page.$$eval('#board .word', (ws) => ws.map((w) => ({
      word: [...w.querySelectorAll('.letter')].map((l) => l.textContent).join(''),
      lines: new Set([...w.querySelectorAll('.letter')].map((l) => Math.round(l.getBoundingClientRect().top))).size,
      cut: w.scrollWidth > w.clientWidth,
    })));
    assert.ok(words.some((w) => w.word.length >= 6), words.map((w) => w.word).join(' '));
    for (const w of words) assert.ok(w.lines === 1 && !w.cut, `${w.word}: ${w.lines} lines${w.cut ? ', cut off' : ''}`);
    // Hackenbush's usual picture: no two vertices overlap, and the edges
    // that stand on the ground have handles apart, each below its vertex.
    await apiGame(page, { game: 'hackenbush' });
    const graph = await page.$eval('#board', (board) => {
      const centre = (e) => { const r = e.getBoundingClientRect(); return { x: r.x + r.width / 2, y: r.y + r.height / 2, w: r.width, label: e.getAttribute('aria-label') }; };
      return {
        vertices: [...board.querySelectorAll('.vertex:not(.ground)')].map(centre),
        handles: [...board.querySelectorAll('.edge-handle')].map(centre),
      };
    });
    assert.equal(graph.vertices.length, 8);
    for (const [i, a] of graph.vertices.entries()) {
      for (const b2 of graph.vertices.slice(i + 1)) {
        assert.ok(Math.hypot(a.x - b2.x, a.y - b2.y) >= a.w, `${a.label} and ${b2.label} overlap`);
      }
    }
    const onGround = graph.handles.filter((e) => /^Edge g–/.test(e.label));
    assert.equal(onGround.length, 4, graph.handles.map((e) => e.label).join(', '));
    for (const [i, a] of onGround.entries()) {
      for (const b2 of onGround.slice(i + 1)) assert.ok(Math.abs(a.x - b2.x) >= a.w, `${a.label} and ${b2.label} overlap`);
      const top = graph.vertices.find((v) => v.label === `Vertex ${a.label.match(/^Edge g–(\w+)/)[1]}`);
      assert.ok(Math.abs(top.x - a.x) < 1, `${a.label} stands below its vertex`);
    }
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});

test('the invite link of an online game is shown again in a second tab', async () => {
  const b = await openBrowser();
  try {
    const { page, context } = b;
    const grant = await apiGame(page, { game: 'nim', opponent: 'online' });
    // The page saved the link when it created the game; a game created
    // through the API is given its link here as the page would keep it.
    await page.evaluate((g) => localStorage.setItem('nimatron.invite.' + g.game.id, g.invite_url), grant);
    const second = await context.newPage();
    await second.goto(BASE + '/play/' + grant.game.id);
    await second.waitForSelector('#invite-link');
    assert.match(await second.inputValue('#invite-link'), new RegExp(grant.invite_url.replace(/[?]/g, '\\?') + '$'));
    await second.close();
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});

test('axe-core finds no serious or critical violations on any page', async () => {
  for (const options of [{}, PHONE]) {
    const b = await openBrowser(options);
    try {
      const { page } = b;
      const pages = [];
      for (const p of ['/', '/history', '/explore?game=kayles&to=40']) pages.push([p, async () => { await page.goto(BASE + p); await page.waitForSelector('main > *'); await page.waitForTimeout(300); }]);
      for (const spec of ['nim', 'kayles', 'chomp:3x4', 'graph-nim', 'notakto:3', 'twenty-one', 'circular:3']) {
        pages.push([`play ${spec}`, async () => { await apiGame(page, { game: spec }); await page.click('label.switch'); await page.waitForSelector('#analysis #verdict'); }]);
      }
      for (const [name, open] of pages) {
        await open();
        // axe-core is evaluated by the test harness, not as an inline
        // <script>: the server's Content-Security-Policy refuses inline script.
        assert.deepEqual(await axeViolations(page), [], `${name}${options.viewport ? ' on a phone' : ''}`);
      }
      assert.deepEqual(b.errors, []);
    } finally {
      await b.close();
    }
  }
});
