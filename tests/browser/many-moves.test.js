// A position with more legal moves than one game view lists: the page
// fetches the rest (`GET /api/games/{id}/legal-moves`), so that every move
// can still be made on the board.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { openBrowser, apiGame, boardHeaps, waitForMoves } = require('./helpers');

test("a position with more moves than a view lists: every move can be made on the board", async () => {
  const b = await openBrowser();
  try {
    const { page } = b;
    // Moore's Nim with k = 3 on six heaps of 10: a move takes from one to
    // three heaps, so there are 6·10 + 15·10² + 20·10³ = 21 560 moves,
    // counted here; a game view lists 1000 of them.
    const grant = await apiGame(page, { game: 'moore:3', position: '10 10 10 10 10 10' });
    assert.equal(grant.game.legal_moves_total, 6 * 10 + 15 * 100 + 20 * 1000);
    assert.equal(grant.game.legal_moves_truncated, true);
    const listed = new Set(grant.game.legal_moves.map((m) => m.notation));
    // The move taking the last match of each of the last three heaps is
    // not among those the view lists.
    const wanted = await page.evaluate(async (id) => {
      const all = [];
      for (let offset = 0; ; offset = all.length) {
        const r = await (await fetch(`/api/games/${id}/legal-moves?offset=${offset}`)).json();
        all.push(...r.moves);
        if (!r.more) return { count: all.length, move: all.find((m) => m.text.includes('D') && m.text.includes('E') && m.text.includes('F') && (m.touches || []).every((t) => t.kind === 'objects' && t.count === 1 && t.start === 9)) };
      }
    }, grant.game.id);
    assert.equal(wanted.count, 21560);
    assert.ok(wanted.move, 'a move taking one from each of D, E and F');
    assert.ok(!listed.has(wanted.move.notation), `${wanted.move.notation} is not in the view's first page`);

    // The page loads the rest: the summary counts them all, and the note
    // that they are loading goes.
    await page.waitForFunction(() => /\(21560\)/.test(document.querySelector('#controls summary, .controls summary')?.textContent || ''));
    await page.waitForSelector('#moves-loading', { state: 'detached', timeout: 20000 });
    // The board makes that move: the last match of D, of E, then of F.
    for (const heap of [3, 4, 5]) {
      const match = page.locator(`#board .heap[data-heap="${heap}"] .stone[data-index="9"]`);
      assert.equal(await match.isDisabled(), false, `the last match of heap ${heap} is playable`);
      await match.click();
    }
    await waitForMoves(page, 1);
    assert.deepEqual(await boardHeaps(page), [10, 10, 10, 9, 9, 9]);
    // The list of buttons stays bounded, and says how to reach the rest.
    assert.ok((await page.$$('#legal-moves button')).length <= 1000);
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});
