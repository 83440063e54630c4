// The Explore page's list of games: choosing one by name fills in its spec
// and plots it.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { BASE, openBrowser } = require('./helpers');

test('Explore lists the heap games by name, and choosing one plots it', async () => {
  const { page, errors, close } = await openBrowser();
  try {
    await page.goto(BASE + '/explore');
    await page.waitForFunction(() => document.querySelectorAll('#explore-game option').length > 5);
    const titles = await page.$$eval('#explore-game option', (os) => os.map((o) => o.textContent));
    for (const t of ['Nim', 'Kayles', "Dawson's Kayles", "Grundy's game"]) assert.ok(titles.includes(t), `${t} in ${titles}`);
    assert.ok(!titles.includes('Chomp'), 'only games Explore takes are listed');
    await page.selectOption('#explore-game', { label: 'Kayles' });
    await page.waitForFunction(() => /game=kayles/.test(location.search));
    assert.equal(await page.inputValue('#explore-spec'), 'kayles');
    // Kayles' values: 0 1 2 3 1 4 3 2 1 4 2 6 (OEIS A002186).
    await page.waitForFunction(() => /period/i.test(document.querySelector('#explore-out')?.textContent || ''));
    const text = await page.evaluate(() => document.querySelector('#explore-out').textContent);
    const kayles = [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6];
    for (const [n, g] of kayles.entries()) assert.ok(text.includes(`g(${n}) = ${g}`), `g(${n}) = ${g}`);
    assert.match(text, /Period 12, preperiod 71/);
    // A spec typed by hand is "Other".
    await page.fill('#explore-spec', 'subtraction:1,3,4');
    assert.equal(await page.inputValue('#explore-game'), '');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});
