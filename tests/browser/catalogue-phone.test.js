// A player on a phone plays every game of the catalogue to its end against
// the computer, by tapping the board only: each move is made by tapping
// the pieces it touches, checked in the preview or the offered choices
// against the move meant, and played. Screenshots of each game (its start,
// after the first exchange, and its end) are left in
// target/browser/catalogue/ to be looked at.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { BASE, PHONE, openBrowser } = require('./helpers');

const SHOTS = path.join(__dirname, '..', '..', 'target', 'browser', 'catalogue');
fs.mkdirSync(SHOTS, { recursive: true });

/** The board's keys of the pieces a move touches, in the order to tap them. */
function keysOf(m) {
  const keys = [];
  for (const t of m.touches) {
    switch (t.kind) {
      case 'objects':
        // A Nim match means it and all to its right: tap the first; a run
        // in a row that splits: tap each.
        keys.push({ key: `o${t.heap}.${t.start}`, run: Array.from({ length: t.count }, (_, k) => `o${t.heap}.${t.start + k}`) });
        break;
      case 'gap': keys.push({ key: `g${t.heap}.${t.index}` }); break;
      case 'heap': keys.push({ key: `h${t.heap}` }); break;
      case 'all_heaps': keys.push({ key: 'all' }); break;
      case 'place': keys.push({ key: `p${t.index}` }); break;
      case 'cell': keys.push({ key: `c${t.at.join('.')}` }); break;
      case 'vertex': keys.push({ key: `v:${t.id}` }); break;
      case 'edge': keys.push({ key: `e:${t.id}` }); break;
      case 'letter': keys.push({ key: `l${t.word}.${t.index}` }); break;
      case 'step': keys.push({ key: `s${t.amount}` }); break;
      default: throw new Error('a move touches ' + t.kind);
    }
  }
  return keys;
}

/** Make move `m` by tapping the board, then confirm it; returns the tap's answer time in ms. */
async function tapMove(page, m, split) {
  const taps = [];
  for (const k of keysOf(m)) {
    if (k.run && split) taps.push(...k.run); else taps.push(k.key);
  }
  let slowest = 0;
  for (const key of taps) {
    if (await page.$('#confirm-move')) break;
    const sel = `#board [data-atom="${key}"]:not(:disabled)`;
    const el = page.locator(sel).first();
    if (!(await el.count())) {
      // An edge of a graph is also tapped by its line; a piece already
      // selected by the run's first tap is skipped.
      if (await page.$(`#board [data-atom="${key}"].selected`)) continue;
      throw new Error(`no element ${key} for "${m.text}"`);
    }
    await el.scrollIntoViewIfNeeded();
    const t0 = Date.now();
    await el.tap();
    await page.waitForFunction(() => document.querySelector('#confirm-move, #choices, .status:not(.your-turn)') || true);
    slowest = Math.max(slowest, Date.now() - t0);
  }
  await page.waitForSelector('#confirm-move, #choices', { timeout: 5000 });
  if (await page.$('#confirm-move')) {
    const text = (await page.textContent('#confirm-move .preview-text')).trim();
    assert.ok(text.startsWith(m.text), `the preview says "${text}", the move meant is "${m.text}"`);
    await page.tap('#play-preview');
  } else {
    const choice = page.locator('#choices button.choice', { hasText: m.text }).first();
    assert.ok(await choice.count(), `"${m.text}" is not among the choices: ${await page.textContent('#choices')}`);
    // A finger's tap on a choice shows it on the board first; Play makes it.
    await choice.tap();
    await page.waitForSelector('#confirm-move', { timeout: 5000 });
    const text = (await page.textContent('#confirm-move .preview-text')).trim();
    assert.ok(text.startsWith(m.text), `the preview says "${text}", the move meant is "${m.text}"`);
    await page.tap('#play-preview');
  }
  return slowest;
}

test('on a phone: every game of the catalogue, played to its end by taps', { timeout: 30 * 60 * 1000 }, async () => {
  const b = await openBrowser(PHONE);
  const report = [];
  try {
    const { page } = b;
    await page.goto(BASE + '/');
    await page.waitForSelector('#game-select');
    const catalogue = await page.evaluate(async () => (await (await fetch('/api/catalogue')).json()).games);
    for (const entry of catalogue.filter((e) => e.playable)) {
      const spec = entry.spec;
      const convention = entry.conventions.includes('normal') ? 'normal' : 'misere';
      const grant = await page.evaluate(async (body) => {
        const r = await fetch('/api/games', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
        const g = await r.json();
        if (!r.ok) throw new Error(JSON.stringify(g));
        localStorage.setItem('nimatron.seat.' + g.game.id, JSON.stringify({ seat: g.seat, token: g.token }));
        return g;
      }, Object.assign({ game: spec, convention, first: 'you', opponent: 'computer', level: 'easy' }, entry.start ? {} : { random: true }));
      await page.goto(BASE + '/play/' + grant.game.id);
      await page.waitForSelector('#board');
      const file = spec.replace(/[^a-z0-9]+/gi, '-');
      await page.screenshot({ path: path.join(SHOTS, `${file}-1-start.png`), fullPage: true });
      let moves = 0;
      let slowest = 0;
      for (;;) {
        const game = await page.evaluate(async (id) => (await fetch('/api/games/' + id)).json(), grant.game.id);
        if (game.status === 'over') break;
        assert.ok(moves < 120, `${spec}: still playing after ${moves} moves`);
        await page.waitForSelector('.status.your-turn', { timeout: 15000 });
        const legal = game.legal_moves;
        // A move from the middle of the list, different each turn.
        const m = legal[(moves * 7 + 3) % legal.length];
        slowest = Math.max(slowest, await tapMove(page, m, game.geometry.rows_split));
        moves += 1;
        await page.waitForFunction((n) => document.querySelectorAll('#move-history li').length >= n, game.moves.length + 1);
        await page.waitForFunction(() => document.querySelector('.status.your-turn, .status.over'), null, { timeout: 15000 });
        if (moves === 1) await page.screenshot({ path: path.join(SHOTS, `${file}-2-first-exchange.png`), fullPage: true });
      }
      await page.waitForSelector('.status.over');
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= 390, `${spec}: the page is ${width} px wide`);
      await page.screenshot({ path: path.join(SHOTS, `${file}-3-end.png`), fullPage: true });
      report.push(`${entry.title} (${spec}): ${moves} moves by tap, slowest tap answered in ${slowest} ms; ${(await page.textContent('#status')).trim()}`);
    }
    fs.writeFileSync(path.join(SHOTS, 'report.txt'), report.join('\n') + '\n');
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});
