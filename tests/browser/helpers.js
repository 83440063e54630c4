// Shared set-up for the browser tests: Debian's Chromium driven by
// playwright-core, each browser with a fresh profile directory.
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { chromium } = require('playwright-core');

const BASE = process.env.NIMATRON_URL;
if (!BASE) {
  throw new Error('NIMATRON_URL is not set: run scripts/browser-tests.sh, which starts the server');
}

const ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

/** A browser with a fresh profile; returns { context, page, close }. */
async function openBrowser(options = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nimatron-chromium-'));
  const context = await chromium.launchPersistentContext(dir, Object.assign({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ARGS,
    viewport: { width: 1280, height: 900 },
  }, options));
  const page = context.pages()[0] || (await context.newPage());
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // Whatever the server's Content-Security-Policy blocks (an inline style
  // or script) is an error too.
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) errors.push(m.text());
  });
  return {
    context,
    page,
    errors,
    async close() {
      await context.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The heap sizes on the board. */
async function boardHeaps(page) {
  return page.$$eval('#board .heap .heap-size', (els) => els.map((e) => Number(e.textContent)));
}

/** Bouton's rule, computed here: [heap, take] leaving nim-sum 0, or null. */
function boutonMove(heaps) {
  const x = heaps.reduce((a, b) => a ^ b, 0);
  if (x === 0) return null;
  const i = heaps.findIndex((h) => (h ^ x) < h);
  return [i, heaps[i] - (heaps[i] ^ x)];
}

/** Click the match that takes `take` from heap `heap` (it and all to its right). */
async function clickTake(page, heap, take) {
  const n = (await boardHeaps(page))[heap];
  await page.click(`#board .heap[data-heap="${heap}"] .stone[data-index="${n - take}"]`);
}

/** Start a game from the home page form. */
async function newGame(page, { game = null, start = '3 4 5', position = null, first = 'you', opponent = 'computer', level = 'perfect', misere = false } = {}) {
  await page.goto(BASE + '/');
  await page.waitForSelector('#new-game');
  if (game) await page.fill('#spec', game);
  await page.selectOption('#start', position === null ? start : 'custom');
  if (position !== null) await page.fill('#custom-position', position);
  await page.check(`input[name=first][value=${first}]`);
  await page.check(`input[name=opponent][value=${opponent}]`);
  if (opponent === 'computer') await page.selectOption('#level', level);
  if (misere) await page.check('input[name=convention][value=misere]');
  await page.click('#start-game');
  await page.waitForURL(/\/play\/[0-9a-f]{16}$/);
  await page.waitForSelector('#status');
}

/** Press on object `from` of a heap and release on object `to`: a run. */
async function dragRun(page, heap, from, to) {
  const box = async (k) => {
    const b = await page.locator(`#board .heap[data-heap="${heap}"] .stone[data-index="${k}"]`).boundingBox();
    return [b.x + b.width / 2, b.y + b.height / 2];
  };
  const [ax, ay] = await box(from);
  const [bx, by] = await box(to);
  await page.mouse.move(ax, ay);
  await page.mouse.down();
  await page.mouse.move(bx, by, { steps: 4 });
  await page.mouse.up();
}

/** The same run as `dragRun`, by a finger on a touch screen (CDP touch events). */
async function touchDragRun(page, heap, from, to) {
  const box = async (k) => {
    const b = await page.locator(`#board .heap[data-heap="${heap}"] .stone[data-index="${k}"]`).boundingBox();
    return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
  };
  const a = await box(from);
  const z = await box(to);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [a] });
  for (let i = 1; i <= 5; i++) {
    const p = { x: a.x + (z.x - a.x) * i / 5, y: a.y + (z.y - a.y) * i / 5 };
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [p] });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

/** Start a game through the API in this browser (its seat kept as the page keeps it) and open it. */
async function apiGame(page, body) {
  await page.goto(BASE + '/');
  const grant = await page.evaluate(async (b) => {
    const r = await fetch('/api/games', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(b) });
    const g = await r.json();
    if (!r.ok) throw new Error(JSON.stringify(g));
    localStorage.setItem('nimatron.seat.' + g.game.id, JSON.stringify({ seat: g.seat, token: g.token }));
    return g;
  }, Object.assign({ first: 'you', opponent: 'local' }, body));
  await page.goto(BASE + '/play/' + grant.game.id);
  await page.waitForSelector('#board');
  return grant;
}

/** Wait until the move list holds `n` moves. */
async function waitForMoves(page, n) {
  await page.waitForFunction((n) => document.querySelectorAll('#move-history li').length >= n, n);
}

module.exports = { BASE, openBrowser, apiGame, boardHeaps, boutonMove, clickTake, dragRun, touchDragRun, newGame, waitForMoves };
