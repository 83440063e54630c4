// Wordnim is played by clicking the letters of its words, and Building Nim
// by placing stones on heaps and then taking from them, as any other board:
// both are drawn from the server's geometry, with the heap names it gives.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { openBrowser, apiGame, boardHeaps, newGame, waitForMoves } = require('./helpers');

/** The words on the board, as their letter tiles spell them. */
const boardWords = (page) => page.$$eval('#board .word', (ws) => ws.map((w) =>
  [...w.querySelectorAll('.letter')].map((l) => l.textContent.toLowerCase()).join('')));

test('wordnim: a move is made by clicking its letters', async () => {
  const b = await openBrowser();
  try {
    const { page } = b;
    const grant = await apiGame(page, { game: 'wordnim', position: 'heart stone' });
    assert.equal(await page.getAttribute('#board', 'data-kind'), 'words');
    assert.deepEqual(await boardWords(page), ['heart', 'stone']);
    // The move the server lists first, made by clicking the letters it
    // touches; where the letters clicked so far fit several moves, the
    // choice that is this move is picked.
    const move = grant.game.legal_moves[0];
    for (const el of move.touches) {
      if ((await page.$$('#move-history li')).length) break;
      await page.click(`#board .letter[data-word="${el.word}"][data-index="${el.index}"]`);
    }
    if (!(await page.$$('#move-history li')).length) {
      await page.click(`#choices button.choice:text-is("${move.text}")`);
    }
    await waitForMoves(page, 1);
    assert.equal((await page.textContent('#move-history li .what')).trim().toLowerCase(), move.text.toLowerCase());
    const words = await boardWords(page);
    const word = move.touches[0].word;
    assert.equal(words[word].length, ['heart', 'stone'][word].length - move.touches.length);
    assert.equal(words[1 - word], ['heart', 'stone'][1 - word], 'the other word is as it was');
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});

test('wordnim against the computer, played to the end by clicking letters', async () => {
  const b = await openBrowser();
  try {
    const { page } = b;
    await newGame(page, { game: 'wordnim', start: 'start', first: 'you', level: 'easy' });
    let moves = 0;
    for (;;) {
      await page.waitForFunction(() => {
        const s = document.querySelector('#status');
        return s && (/over/.test(s.className) || /your-turn/.test(s.className));
      });
      if (/over/.test(await page.getAttribute('#status', 'class'))) break;
      // Click the first playable letter, then the first choice it offers.
      const before = (await page.$$('#move-history li')).length;
      await page.click('#board .letter:not(:disabled)');
      if ((await page.$$('#move-history li')).length === before) {
        await page.waitForSelector('#choices button.choice');
        await page.click('#choices button.choice');
      }
      moves += 1;
      await waitForMoves(page, before + 1);
      assert.ok(moves < 20, 'a Wordnim game of 16 letters is over within 20 moves');
    }
    assert.ok(moves >= 1);
    // Replay from the start draws the start's words.
    const total = await page.$$eval('#move-history li', (e) => e.length);
    await page.waitForSelector('#replay');
    for (let i = 0; i < total; i++) await page.click('#replay-back');
    assert.equal((await page.textContent('#replay-at')).trim(), 'start');
    await page.waitForFunction(() => document.querySelector('#board[data-kind="words"]'));
    assert.ok((await boardWords(page)).includes('heart'));
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});

test('building nim: place stones with the + of a heap, then take as in Nim', async () => {
  const b = await openBrowser();
  try {
    const { page } = b;
    await apiGame(page, { game: 'building:3,2' });
    assert.equal(await page.getAttribute('#board', 'data-kind'), 'heaps');
    assert.deepEqual(await page.$$eval('#board .heap-name', (e) => e.map((x) => x.textContent)), ['A', 'B']);
    assert.match(await page.textContent('#supply'), /3 stones still to place/);
    await page.click('#board .place-stone[data-heap="1"]');
    await waitForMoves(page, 1);
    assert.deepEqual(await boardHeaps(page), [0, 1]);
    assert.match(await page.textContent('#supply'), /2 stones still to place/);
    // By keyboard: focus the + of heap A and press Enter.
    await page.focus('#board .place-stone[data-heap="0"]');
    await page.keyboard.press('Enter');
    await waitForMoves(page, 2);
    await page.click('#board .place-stone[data-heap="1"]');
    await waitForMoves(page, 3);
    assert.deepEqual(await boardHeaps(page), [1, 2]);
    assert.match(await page.textContent('#supply'), /Every stone is placed/);
    assert.equal(await page.$('#board .place-stone'), null, 'no stone is left to place');
    // Now Nim: the first stone of heap B takes both.
    await page.click('#board .heap[data-heap="1"] .stone[data-index="0"]');
    await waitForMoves(page, 4);
    assert.deepEqual(await boardHeaps(page), [1, 0]);
    assert.match(await page.textContent('#move-history li:nth-child(4) .what'), /heap B/i);
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});
