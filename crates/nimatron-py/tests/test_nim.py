"""Nim against an exhaustive minimax written in Python, in both
conventions: outcome, nim-sum, every winning move, remoteness; and the
NumPy path against the list path and plain XOR."""

import itertools

import numpy as np
import pytest

import nimatron
from conftest import nim_minimax, nim_options


def small_positions():
    for count in (1, 2, 3):
        for heaps in itertools.product(range(6), repeat=count):
            yield heaps
    for heaps in itertools.product(range(4), repeat=4):
        yield heaps


@pytest.mark.parametrize("misere", [False, True])
def test_every_small_position_matches_minimax(misere):
    checked = 0
    for heaps in small_positions():
        a = nimatron.analyze(list(heaps), misere=misere)
        wins, remoteness = nim_minimax(heaps, misere)
        assert a.outcome == ("N" if wins else "P"), heaps
        assert a.to_move_wins == wins
        assert a.nim_sum == np.bitwise_xor.reduce(np.array(heaps, dtype=np.uint64))
        assert a.convention == ("misere" if misere else "normal")
        # Exactly the moves that leave the opponent lost.
        expected = {
            mv for mv, after in nim_options(heaps) if not nim_minimax(after, misere)[0]
        }
        got = {(m.heap, m.take) for m in a.winning_moves}
        assert got == expected, heaps
        assert a.winning_moves_total == len(expected)
        for m in a.winning_moves:
            after = list(heaps)
            after[m.heap] -= m.take
            assert m.to == after
            assert m.wins is True
            assert m.notation == f"{chr(ord('A') + m.heap)} {m.take}"
            # A move's remoteness counts the move itself.
            assert m.remoteness == 1 + nim_minimax(tuple(after), misere)[1]
        assert a.remoteness == remoteness and a.remoteness_exact
        checked += 1
    assert checked > 200


def test_bouton_example_from_the_seeds():
    a = nimatron.analyze([3, 4, 5])
    assert (a.outcome, a.nim_sum, a.regime) == ("N", 2, "bouton")
    [m] = a.winning_moves
    assert (m.heap, m.take, m.to) == (0, 2, [1, 4, 5])
    assert m.text == "Take 2 from heap A (3 → 1)"
    assert "nim-sum" in a.explanation and "011" in a.explanation


@pytest.mark.parametrize("misere", [False, True])
def test_numpy_path_agrees_with_the_list_path(misere):
    rng = np.random.default_rng(17)
    for _ in range(300):
        heaps = rng.integers(0, 5, size=rng.integers(1, 6), dtype=np.uint64)
        fast = nimatron.analyze(heaps, misere=misere, max_moves=0)
        slow = nimatron.analyze([int(h) for h in heaps], misere=misere, max_moves=0)
        assert fast.outcome == slow.outcome
        assert fast.nim_sum == slow.nim_sum
        assert [(m.heap, m.take, m.to) for m in fast.winning_moves] == [
            (m.heap, m.take, m.to) for m in slow.winning_moves
        ]
        assert fast.explanation == slow.explanation
        wins, _ = nim_minimax(tuple(int(h) for h in heaps), misere)
        assert fast.to_move_wins == wins


@pytest.mark.parametrize("misere", [False, True])
def test_the_one_pass_array_scan_agrees_with_the_list_path(misere):
    # A uint64 array is copied and scanned stretch by stretch (2048 heaps);
    # a list of more than 1000 heaps is scanned by the library's plain
    # analysis. Lengths across stretches; heaps of 0 and 1 only, with one
    # big heap (the misère endgame), with two, or random.
    rng = np.random.default_rng(23)
    for n in [1001, 2047, 2048, 2049, 4097, 6161]:
        for kind in range(4):
            if kind < 3:
                heaps = rng.integers(0, 2, size=n, dtype=np.uint64)
                for _ in range(kind):
                    heaps[rng.integers(0, n)] = rng.integers(2, 100)
            else:
                heaps = rng.integers(0, 2**64 - 1, size=n, dtype=np.uint64, endpoint=True)
            fast = nimatron.analyze(heaps, misere=misere, max_moves=0)
            slow = nimatron.analyze(heaps.tolist(), misere=misere, max_moves=0)
            assert fast.nim_sum == int(np.bitwise_xor.reduce(heaps))
            assert (fast.outcome, fast.regime) == (slow.outcome, slow.regime)
            assert [(m.heap, m.take) for m in fast.winning_moves] == [
                (m.heap, m.take) for m in slow.winning_moves
            ]
            assert fast.winning_moves_total == slow.winning_moves_total
            assert fast.position == heaps.tolist()


@pytest.mark.parametrize("dtype", [np.uint64, np.int64, np.uint8, np.int32, np.uint32])
def test_a_million_heaps_from_numpy(dtype):
    rng = np.random.default_rng(5)
    top = np.iinfo(dtype).max
    heaps = rng.integers(0, top, size=10**6, dtype=dtype, endpoint=True)
    a = nimatron.analyze(heaps)
    x = int(np.bitwise_xor.reduce(heaps.astype(np.uint64)))
    assert a.nim_sum == x
    assert a.outcome == ("N" if x else "P")
    # One move is listed above 1000 heaps (as the CLI does); all are counted.
    lead = 1 << (x.bit_length() - 1)
    assert a.winning_moves_total == int(np.count_nonzero(heaps.astype(np.uint64) & np.uint64(lead)))
    [m] = a.winning_moves
    h = int(heaps[m.heap])
    assert h ^ x == h - m.take
    after = m.to
    assert len(after) == 10**6 and after[m.heap] == h - m.take
    assert "1000000 heaps" in a.explanation


def test_a_million_heaps_misere_endgame():
    heaps = np.ones(10**6, dtype=np.uint64)
    heaps[123] = 7
    a = nimatron.analyze(heaps, misere=True)
    assert a.regime == "misere-endgame" and a.outcome == "N"
    [m] = a.winning_moves
    # 999 999 ones already: an odd number, so empty the big heap.
    assert (m.heap, m.take) == (123, 7)


def test_non_contiguous_arrays_are_read_correctly():
    heaps = np.arange(20, dtype=np.uint64)[::2]
    a = nimatron.analyze(heaps, max_moves=0)
    assert a.position == [int(h) for h in heaps]
    assert a.nim_sum == int(np.bitwise_xor.reduce(heaps))


def test_long_lists_take_the_scan_and_agree():
    heaps = list(range(1, 3001))
    a = nimatron.analyze(heaps)
    x = 0
    for h in heaps:
        x ^= h
    assert a.nim_sum == x and len(a.winning_moves) == 1


def test_html_shows_the_binary_table_and_the_winning_move():
    html = nimatron.analyze([3, 4, 5])._repr_html_()
    assert "<table" in html and "nim-sum" in html
    # Heap A = 3 = 011 in three bit columns, nim-sum 010.
    assert "<td>0</td><td>1</td><td>1</td><td>3</td>" in html
    assert "<td>0</td><td>1</td><td>0</td><td>2</td>" in html
    assert "A 2" in html and "Take 2 from heap A" in html
    lost = nimatron.analyze([1, 2, 3])._repr_html_()
    assert "Winning moves: none" in lost
