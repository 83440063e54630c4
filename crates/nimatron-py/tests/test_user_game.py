"""Games defined in Python, solved by the Rust solvers, against plain
Python mex and minimax."""

import functools

import pytest

import nimatron
from conftest import grundy_by_mex, mex, outcome_minimax


class Subtraction:
    """Take 1, 3 or 4 from a heap."""

    def moves(self, n):
        return [n - k for k in (1, 3, 4) if k <= n]


def test_a_class_with_moves_matches_a_plain_mex():
    game = nimatron.UserGame(Subtraction())
    reference = grundy_by_mex(Subtraction().moves, 300)
    assert [game.grundy(n) for n in range(301)] == reference
    assert game.positions_seen == 301


def test_a_plain_function_works_too():
    game = nimatron.UserGame(lambda n: [n - 1] if n else [])
    assert [game.grundy(n) for n in range(5)] == [0, 1, 0, 1, 0]


def nim_moves(p):
    """Nim on a sorted tuple of heaps."""
    out = []
    for i, h in enumerate(p):
        for take in range(1, h + 1):
            out.append(tuple(sorted(p[:i] + (h - take,) + p[i + 1 :])))
    return out


@pytest.mark.parametrize("misere", [False, True])
def test_outcomes_match_python_minimax_in_both_conventions(misere):
    game = nimatron.UserGame(nim_moves)
    wins = outcome_minimax(nim_moves, misere)
    for a in range(5):
        for b in range(a, 5):
            for c in range(b, 5):
                p = (a, b, c)
                assert game.outcome(p, misere=misere) == ("N" if wins(p) else "P"), p
                expected = [o for o in dict.fromkeys(nim_moves(p)) if not wins(o)]
                assert game.winning_moves(p, misere=misere) == expected


def test_components_add_by_xor():
    # Heaps of a subtraction game as a tuple; each heap is a component.
    def moves(p):
        return [p[:i] + (h - k,) + p[i + 1 :] for i, h in enumerate(p) for k in (1, 3, 4) if k <= h]

    def components(p):
        return [(h,) for h in p if h > 0]

    game = nimatron.UserGame(moves, components=components)
    g = grundy_by_mex(Subtraction().moves, 40)
    for p in [(5,), (5, 9), (3, 7, 11), (40, 39, 38, 37)]:
        expected = functools.reduce(lambda x, y: x ^ y, (g[h] for h in p), 0)
        assert game.grundy(p) == expected
    # Without components the same values come out, by the whole game tree.
    whole = nimatron.UserGame(moves)
    assert whole.grundy((5, 9, 3)) == g[5] ^ g[9] ^ g[3]


def test_a_hundred_thousand_positions_solve_and_match_a_plain_mex():
    n = 100_000

    def moves(k):
        return [k - s for s in (1, 2, 7, 11) if s <= k] + ([k // 3] if k >= 3 else [])

    game = nimatron.UserGame(moves)
    assert game.grundy(n) == grundy_by_mex(moves, n)[n]
    assert game.positions_seen == n + 1


def test_misere_search_matches_minimax_for_a_subtraction_game():
    game = nimatron.UserGame(Subtraction())
    wins = outcome_minimax(Subtraction().moves, True)
    for n in range(200):
        assert game.outcome(n, misere=True) == ("N" if wins(n) else "P")


def test_a_cycle_is_refused():
    game = nimatron.UserGame(lambda n: [(n + 1) % 5])
    with pytest.raises(ValueError, match="reached from itself"):
        game.grundy(0)
    with pytest.raises(ValueError, match="reached from itself"):
        game.outcome(0, misere=True)


def test_limits_raise_limit_error_naming_the_keyword():
    game = nimatron.UserGame(Subtraction(), max_states=100)
    with pytest.raises(nimatron.LimitError, match=r"max_states=") as e:
        game.grundy(10_000)
    assert isinstance(e.value, RuntimeError) and isinstance(e.value, nimatron.NimatronError)
    # Below the limit it still works after the failure. The positions
    # counted include the options waiting on the search's path: up to 3 at
    # each of 20 levels here, besides the 21 values it stores.
    assert game.grundy(20) == grundy_by_mex(Subtraction().moves, 20)[20]


def test_errors_in_the_rules_propagate():
    def broken(n):
        if n == 3:
            raise KeyError("no moves for 3")
        return [n - 1] if n else []

    game = nimatron.UserGame(broken)
    with pytest.raises(KeyError):
        game.grundy(10)
    with pytest.raises(TypeError, match="hashable"):
        nimatron.UserGame(lambda p: [[1, 2]]).grundy(0)
    with pytest.raises(TypeError):
        nimatron.UserGame(lambda p: 5).grundy(0)
    with pytest.raises(TypeError):
        nimatron.UserGame(42)


def test_a_failed_exploration_leaves_the_game_usable():
    # `moves` raises once, deep in the search from 50: the positions on the
    # search's path then must not look as if on a cycle to the next search.
    fail = {"at": 7}

    def moves(n):
        if n == fail["at"]:
            fail["at"] = None
            raise KeyError("once")
        return Subtraction().moves(n)

    game = nimatron.UserGame(moves)
    with pytest.raises(KeyError):
        game.grundy(50)
    assert [game.grundy(n) for n in range(50, -1, -1)] == grundy_by_mex(Subtraction().moves, 50)[::-1]
    # The same after a cycle found deep in the search, for misère play too.
    game = nimatron.UserGame(lambda n: [n, n - 1] if n == 10 else ([n - 1] if n else []))
    for misere in [False, True]:
        with pytest.raises(ValueError, match="reached from itself"):
            game.outcome(20, misere=misere)
    assert [game.grundy(n) for n in range(10)] == [n % 2 for n in range(10)]
    assert [game.outcome(n, misere=True) for n in range(10)] == ["N" if n % 2 == 0 else "P" for n in range(10)]


def test_deep_games_do_not_overflow_the_stack():
    game = nimatron.UserGame(lambda n: [n - 1] if n else [])
    assert game.grundy(200_000) == 0
    assert game.outcome(200_001, misere=True) == "P"


def test_mex_helper_is_the_textbook_one():
    assert mex([0, 1, 3]) == 2 and mex([]) == 0
