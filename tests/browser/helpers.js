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
async function openBrowser() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nimatron-chromium-'));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ARGS,
    viewport: { width: 1280, height: 900 },
  });
  const page = context.pages()[0] || (await context.newPage());
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
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

/** Wait until the move list holds `n` moves. */
async function waitForMoves(page, n) {
  await page.waitForFunction((n) => document.querySelectorAll('#move-history li').length >= n, n);
}

module.exports = { BASE, openBrowser, boardHeaps, boutonMove, clickTake, dragRun, newGame, waitForMoves };
