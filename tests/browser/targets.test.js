// Targets a finger can hit: every control of the game page at least 44 px
// each way on a phone (WCAG 2.5.5), or, where a board cannot give that
// room, 24 px apart (WCAG 2.5.8); Hackenbush cut by its edges, Chomp told
// as it is played, and its poisoned square seen.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { PHONE, openBrowser, apiGame, tapOn, waitForMoves } = require('./helpers');

/** Every control on the game page a finger can use, with its box. */
function controls(page) {
  return page.$$eval('main button:not(:disabled), main a[href], main input:not([type=hidden]), main select, main summary, main label.switch', (els) => els
    .filter((e) => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden' && !e.closest('label.switch, .sr-only'))
    .concat([...document.querySelectorAll('main label.switch')])
    .map((e) => {
      const r = e.getBoundingClientRect();
      return { name: (e.id ? '#' + e.id : '') + ' ' + e.tagName.toLowerCase() + '.' + [...e.classList].join('.') + ' ' + (e.getAttribute('aria-label') || e.textContent.trim()).slice(0, 40), w: r.width, h: r.height, x: r.x + r.width / 2, y: r.y + r.height / 2, inline: getComputedStyle(e).display === 'inline' };
    }));
}

/** Controls smaller than 44×44 that are also closer than 24 px, centre to centre, to another. */
function tooSmall(list) {
  return list.filter((c) => !c.inline && (c.w < 44 || c.h < 44) &&
    (c.w < 24 || c.h < 24 || list.some((o) => o !== c && Math.hypot(o.x - c.x, o.y - c.y) < 24)))
    .map((c) => `${c.name}: ${Math.round(c.w)}×${Math.round(c.h)}`);
}

test('on a phone: every control of every board is a target a finger can hit', async () => {
  const b = await openBrowser(PHONE);
  try {
    const { page } = b;
    const failures = [];
    for (const body of [
      { game: 'nim', position: '3 4 5' },
      { game: 'kayles', position: '12' },
      { game: 'grundy-game', position: '9' },
      { game: 'circular:3', position: '12' },
      { game: 'hackenbush' },
      { game: 'chomp:3x4' },
      { game: 'board:3x3' },
      { game: 'notakto:3', convention: 'misere' },
      { game: 'graph-nim' },
      { game: 'node-kayles' },
      { game: 'twenty-one' },
      { game: 'wordnim' },
      { game: 'wythoff', position: '3 5' },
      { game: 'building:4,3' },
    ]) {
      await apiGame(page, body);
      await page.click('#analysis-toggle', { force: true });
      await page.waitForSelector('#analysis #verdict');
      await page.click('summary:has-text("All legal moves")');
      for (const c of tooSmall(await controls(page))) failures.push(`${body.game}: ${c}`);
      // Every board element a move uses is at least 44×44, where the board
      // has room (circular Nim's ring and a graph's vertices and edges too).
      const small = await page.$$eval('#board [data-atom]:not(:disabled)', (els) => els.map((e) => {
        const r = e.getBoundingClientRect();
        return [e.getAttribute('aria-label'), r.width, r.height];
      }).filter(([, w, h]) => w < 44 || h < 44));
      for (const [label, w, h] of small) failures.push(`${body.game}: board element ${label}: ${Math.round(w)}×${Math.round(h)}`);
    }
    // The replay and the move list of a finished game.
    await apiGame(page, { game: 'nim', position: '1' });
    await tapOn(page, '#board .stone[data-index="0"]');
    await page.click('#play-preview');
    await waitForMoves(page, 1);
    await page.waitForSelector('#replay');
    for (const c of tooSmall(await controls(page))) failures.push(`finished: ${c}`);
    assert.deepEqual(failures, []);
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});

test('at a desk: every control is at least 24 px, or 24 px from the next (WCAG 2.5.8), and reached by keyboard', async () => {
  const b = await openBrowser();
  try {
    const { page } = b;
    const failures = [];
    for (const body of [{ game: 'nim', position: '3 4 5' }, { game: 'kayles', position: '12' }, { game: 'grundy-game', position: '9' }, { game: 'hackenbush' }, { game: 'circular:3', position: '12' }]) {
      await apiGame(page, body);
      const list = await controls(page);
      for (const c of list.filter((x) => !x.inline && (x.w < 24 || x.h < 24) && list.some((o) => o !== x && Math.hypot(o.x - x.x, o.y - x.y) < 24))) {
        failures.push(`${body.game}: ${c.name}: ${Math.round(c.w)}×${Math.round(c.h)}`);
      }
      // Hackenbush's edges by keyboard: Tab to the board, an arrow key,
      // Enter cuts the edge focused.
      if (body.game === 'hackenbush') {
        await page.focus('#board [tabindex="0"]');
        await page.keyboard.press('ArrowRight');
        const label = await page.evaluate(() => document.activeElement.getAttribute('aria-label'));
        assert.match(label, /^Edge .*: Cut /, label);
        await page.keyboard.press('Enter');
        await waitForMoves(page, 1);
      }
    }
    assert.deepEqual(failures, []);
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});

test('on a phone: Hackenbush is cut by tapping an edge, and its help says so', async () => {
  const b = await openBrowser(PHONE);
  try {
    const { page } = b;
    await apiGame(page, { game: 'hackenbush', position: 'g-1 1-2 g-3' });
    const help = await page.textContent('#board-help');
    assert.match(help, /Tap an edge/);
    assert.doesNotMatch(help, /vertex/i);
    // Vertices are no controls here (no move chooses one).
    assert.equal(await page.$$eval('#board button.vertex', (e) => e.length), 0);
    // A tap on the line of the stalk g-3, away from its handle, cuts it.
    const line = await page.$eval('#board path.edge-line[data-id="3-g"]', (p) => {
      const len = p.getTotalLength();
      const at = p.getPointAtLength(len * 0.2);
      const m = p.getScreenCTM();
      return { x: at.x * m.a + m.e, y: at.y * m.d + m.f };
    });
    const handle = await page.locator('#board .edge-handle[data-id="3-g"]').boundingBox();
    assert.ok(Math.hypot(line.x - (handle.x + handle.width / 2), line.y - (handle.y + handle.height / 2)) > 20, 'the tap is away from the handle');
    await page.touchscreen.tap(line.x, line.y);
    await page.waitForSelector('#confirm-move');
    assert.match(await page.textContent('#confirm-move'), /Cut g-3/i);
    await page.click('#play-preview');
    await waitForMoves(page, 1);
    assert.match(await page.textContent('#move-history'), /cut g-3/i);
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});

/** WCAG contrast ratio of two CSS colours. */
function contrast(a, b) {
  const lum = (c) => {
    const [r, g, bl] = c.match(/[\d.]+/g).slice(0, 3).map(Number).map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}

test('at a desk: Chomp\'s help tells a bite as it is, and its poisoned square stands out', async () => {
  const b = await openBrowser();
  try {
    const { page } = b;
    await apiGame(page, { game: 'chomp:3x4' });
    const help = await page.textContent('#board-help');
    assert.doesNotMatch(help, /drag/i);
    assert.match(help, /above|right|with it/i);
    const poison = await page.$eval('#board .cell.poisoned', (e) => {
      const s = getComputedStyle(e);
      const mark = e.querySelector('.skull') || e;
      return { fg: getComputedStyle(mark).color, bg: s.backgroundColor, image: s.backgroundImage, text: e.textContent };
    });
    assert.equal(poison.image, 'none', 'a plain colour behind the mark');
    assert.ok(contrast(poison.fg, poison.bg) >= 4.5, `the skull: ${poison.fg} on ${poison.bg}`);
    // Played by keyboard: focus, Enter plays the bite.
    await page.focus('#board [tabindex="0"]');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    await waitForMoves(page, 1);
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});
