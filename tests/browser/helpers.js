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
  // Working on the page: NIMATRON_ASSETS_DIR=crates/nimatron-web/assets
  // serves its files from the disk, so that a change is tried without
  // rebuilding the server (which embeds them).
  const assets = process.env.NIMATRON_ASSETS_DIR;
  if (assets) {
    const types = { '.js': 'text/javascript', '.css': 'text/css', '.html': 'text/html', '.svg': 'image/svg+xml' };
    await context.route((url) => url.origin === new URL(BASE).origin && !url.pathname.startsWith('/api/') && url.pathname !== '/favicon.svg', (route) => {
      const p = new URL(route.request().url()).pathname;
      const file = p.startsWith('/assets/') ? path.join(assets, p.slice('/assets/'.length)) : path.join(assets, 'index.html');
      route.fulfill({ status: 200, contentType: types[path.extname(file)] || 'text/plain', body: fs.readFileSync(file) });
    });
  }
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

/** A phone: 390×844, touch, as the browser tests' phone. */
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 };

/** A swipe by one finger from (x0, y0) to (x1, y1), in `steps` moves (CDP touch events). */
async function swipe(page, [x0, y0], [x1, y1], steps = 8) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: x0, y: y0 }] });
  for (let i = 1; i <= steps; i++) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: x0 + (x1 - x0) * i / steps, y: y0 + (y1 - y0) * i / steps }] });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

/** Tap an element with a finger: scrolled into view first, then tapped at its centre. */
async function tapOn(page, selector) {
  const el = page.locator(selector).first();
  await el.scrollIntoViewIfNeeded();
  await el.tap();
}

/** Run axe-core on the page (by evaluation, which no Content-Security-Policy blocks); its serious and critical violations, as lines. */
async function axeViolations(page) {
  const fs = require('node:fs');
  const source = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(source);
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join('; ')})`);
}

/** The texts of the moves made so far. */
const moveTexts = (page) => page.$$eval('#move-history li .what', (e) => e.map((x) => x.textContent));

module.exports = { BASE, PHONE, openBrowser, apiGame, axeViolations, boardHeaps, boutonMove, clickTake, dragRun, moveTexts, swipe, tapOn, touchDragRun, newGame, waitForMoves };
