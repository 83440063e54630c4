"""Misère quotients against a plain misère minimax over sums of heaps, the
published misère Nim quotient, and the errors."""

import itertools
from typing import Callable, Hashable, Iterator, List, Tuple

import pytest

import nimatron
from conftest import outcome_minimax


def octal_moves(code: str) -> Callable[[Hashable], Iterator[Tuple[int, ...]]]:
    """The options of a sum of heaps (a sorted tuple) in an octal game, by
    the digits' plain meaning (bit 1: take a whole heap of k; bit 2: leave
    one heap; bit 4: leave two non-empty heaps)."""
    digits = [int(c) for c in code.split(".", 1)[1]]

    def moves(position: Hashable) -> Iterator[Tuple[int, ...]]:
        heaps = list(position)  # type: ignore[call-overload]
        for i, h in enumerate(heaps):
            rest_of_sum = heaps[:i] + heaps[i + 1 :]
            for k, d in enumerate(digits, start=1):
                left = h - k
                if left < 0:
                    continue
                if d & 1 and left == 0:
                    yield tuple(sorted(rest_of_sum))
                if d & 2 and left > 0:
                    yield tuple(sorted(rest_of_sum + [left]))
                if d & 4 and left > 1:
                    for a in range(1, left // 2 + 1):
                        yield tuple(sorted(rest_of_sum + [a, left - a]))

    return moves


def sums(largest: int, count: int) -> List[Tuple[int, ...]]:
    return [
        s
        for c in range(1, count + 1)
        for s in itertools.combinations_with_replacement(range(1, largest + 1), c)
    ]


def test_misere_nim_is_the_tame_quotient_of_order_six():
    # Plambeck and Siegel (2008): misère Nim's quotient (heaps up to 3) has
    # order 6 with P-portion {a, b^2}, a the image of a heap of 1 and b of
    # a heap of 2; with heaps up to 2^k - 1 it is the tame quotient of
    # order 2 + 2^k (Plambeck 2005, section 5).
    q = nimatron.misere_quotient("nim", 3)
    assert (q.order, q.tame, len(q)) == (6, True, 6)
    assert set(q.p_portion) == {"a", "b^2"}
    assert q.generators == [("a", 1), ("b", 2)]
    assert q.images == ["1", "a", "b", "ab"]
    for to in range(2, 10):
        q = nimatron.misere_quotient("nim", to)
        assert (q.order, q.tame) == (2 + 2 ** to.bit_length(), True), to
    wins = outcome_minimax(octal_moves("0.333333333"), misere=True)
    for s in sums(9, 3):
        assert q.outcome(list(s)) == ("N" if wins(s) else "P"), s
        assert q.is_p_position(list(s)) == (not wins(s))


@pytest.mark.parametrize("code", ["0.77", "0.137", "0.75", "0.07", "0.54"])
def test_every_small_sum_gets_the_outcome_minimax_gives(code):
    q = nimatron.misere_quotient(f"octal:{code}", 10)
    wins = outcome_minimax(octal_moves(code), misere=True)
    for s in sums(10, 3):
        assert q.outcome(list(s)) == ("N" if wins(s) else "P"), (code, s)
        # The outcome is the P-portion test of the product of the images.
        product = q.product(*(q.image(h) for h in s))
        assert product == q.image_of(list(s))
        assert q.in_p_portion(product) == (not wins(s))


def test_a_proven_quotient_answers_for_heaps_beyond_those_it_computed():
    q = nimatron.misere_quotient("octal:0.75", 1000)
    assert q.proven and q.period is not None and q.computed_to < 1000 == q.to
    # Every heap image follows the period, far beyond `to` too.
    p, e = q.period, q.preperiod
    for n in range(e, 1000 - p):
        assert q.image(n + p) == q.image(n)
    assert q.image(10**12) == q.image(10**12 - p)
    # Heaps past the computed range against minimax.
    wins = outcome_minimax(octal_moves("0.75"), misere=True)
    for big in range(q.computed_to + 1, q.computed_to + 10):
        for small in range(0, 6):
            s = tuple(sorted([big, small])) if small else (big,)
            assert q.outcome(list(s)) == ("N" if wins(s) else "P"), s


def test_the_dict_has_the_fields_of_the_cli_json():
    q = nimatron.misere_quotient("kayles", 12)
    d = q.to_dict()
    assert list(d) == [
        "game", "to", "computed_to", "order", "tame", "presentation",
        "generators", "relations", "elements", "p_portion", "images",
        "growth", "stable_from", "period", "preperiod", "proven",
    ]
    assert d["game"] == "kayles" and d["order"] == q.order
    assert d["images"] == q.images[1:] and d["p_portion"] == q.p_portion
    assert d["generators"][0] == {"name": "a", "heap": 1}
    assert q.presentation.startswith("⟨") and "Misère quotient of kayles" in q._repr_html_()
    assert repr(q).startswith('MisereQuotient(game="kayles", to=12, order=')


def test_bad_input_and_limits_raise_with_their_words():
    with pytest.raises(nimatron.SpecError, match="kayles"):
        nimatron.misere_quotient("kayels", 10)
    with pytest.raises(nimatron.SpecError, match="heap games"):
        nimatron.misere_quotient("octal:0.x", 10)
    with pytest.raises(ValueError, match="to must be an integer from 1 to 10000, not 0"):
        nimatron.misere_quotient("kayles", 0)
    with pytest.raises(ValueError, match="to must be an integer from 1 to 10000, not 20000"):
        nimatron.misere_quotient("nim", 20000)
    with pytest.raises(ValueError, match="max_seconds"):
        nimatron.misere_quotient("kayles", 10, max_seconds=-1)
    with pytest.raises(ValueError, match="max_states"):
        nimatron.misere_quotient("kayles", 10, max_states=0)
    q = nimatron.misere_quotient("dawson", 12)
    if not q.proven:
        with pytest.raises(ValueError, match="to=50"):
            q.image(50)
    with pytest.raises(ValueError, match="not an element"):
        q.product("zz")
    with pytest.raises(nimatron.LimitError, match="max_states=") as caught:
        nimatron.misere_quotient("dawson", 40, max_states=2000)
    assert isinstance(caught.value, RuntimeError)
    with pytest.raises(nimatron.LimitError, match="max_order="):
        nimatron.misere_quotient("kayles", 40, max_order=4)


def test_a_quotient_that_looks_infinite_raises_limit_error_naming_the_heaps() -> None:
    # 0.76's heaps 7 and 12 need ever longer cycles; the error says so at
    # once (well inside the default limits) rather than at a limit.
    with pytest.raises(nimatron.LimitError, match="looks infinite") as caught:
        nimatron.misere_quotient("octal:0.76", 12)
    assert "heaps 7 and 12" in str(caught.value)
    assert "not a proof" in str(caught.value)
    # The smaller heaps have a finite quotient, as the minimax confirms.
    q = nimatron.misere_quotient("octal:0.76", 11)
    wins = outcome_minimax(octal_moves("0.76"), misere=True)
    for s in sums(11, 2):
        assert q.outcome(list(s)) == ("N" if wins(s) else "P"), s
