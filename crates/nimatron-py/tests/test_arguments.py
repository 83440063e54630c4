"""What the functions accept: an analysis is a value (it never reads the
caller's memory again); positions from any iterable of ints, with bytes and
sets refused and empty inputs treated alike; integer arguments out of
range raise ValueError naming the argument and its range."""

import pickle
from typing import Any, Callable, Iterator

import numpy as np
import pytest

import nimatron

# -- An analysis is a value ---------------------------------------------------


def test_an_analysis_of_an_array_does_not_change_when_the_array_does():
    # The example: a uint64 array was kept by reference.
    h = np.array([3, 4, 5] + [0] * 1000, dtype=np.uint64)
    a = nimatron.analyze(h)
    move = a.winning_moves[0]
    before = a.to_dict()
    h[0] = 1
    h[:] = 9
    assert a.position[:3] == [3, 4, 5]
    assert move.to[:3] == [1, 4, 5]
    assert (a.outcome, a.nim_sum, a.winning_moves_total) == ("N", 2, 1)
    assert a.to_dict() == before


def test_a_big_array_copied_and_scanned_in_one_pass_stays_put():
    # Above 2^16 heaps the copy and the scan run in one pass with the GIL
    # released; the analysis is of the copy, and nothing reads the array
    # afterwards: not the position, a move's `to`, the lazily counted
    # total, repr, HTML or pickling.
    rng = np.random.default_rng(11)
    h = rng.integers(0, 2**64 - 1, size=(1 << 16) + 5, dtype=np.uint64, endpoint=True)
    original = h.copy()
    a = nimatron.analyze(h)
    move = a.winning_moves[0]
    shown, html = repr(a), a._repr_html_()
    h[:] = 0
    h[move.heap] = 1
    x = int(np.bitwise_xor.reduce(original))
    assert a.nim_sum == x and a.outcome == "N"
    assert a.position == original.tolist()
    after = original.tolist()
    after[move.heap] -= move.take
    assert move.to == after and after[move.heap] == int(original[move.heap]) ^ x
    lead = np.uint64(1 << (x.bit_length() - 1))
    assert a.winning_moves_total == int(np.count_nonzero(original & lead))
    assert repr(a) == shown and a._repr_html_() == html
    again = pickle.loads(pickle.dumps(a))
    assert again.position == original.tolist() and again.winning_moves[0].to == after


@pytest.mark.parametrize("dtype", [np.uint64, np.int64, np.uint8])
def test_every_array_is_copied(dtype):
    h = np.arange(1, 2001, dtype=dtype)
    a = nimatron.analyze(h)
    total, position = a.winning_moves_total, a.position
    h[:] = 0
    assert a.winning_moves_total == total and a.position == position


def test_a_sequences_values_are_read_only():
    seq = nimatron.grundy_sequence("kayles", 100)
    with pytest.raises(ValueError, match="read-only"):
        seq.values[0] = 5
    copy = seq.values.copy()
    copy[0] = 5
    assert seq[0] == 0 and seq.values[0] == 0
    again = pickle.loads(pickle.dumps(seq))
    with pytest.raises(ValueError, match="read-only"):
        again.values[1] = 0


# -- Positions from any iterable of ints ----------------------------------------


def generator() -> Iterator[int]:
    yield from [3, 4, 5]


@pytest.mark.parametrize(
    "make",
    [
        lambda: [3, 4, 5],
        lambda: (3, 4, 5),
        lambda: iter([3, 4, 5]),
        generator,
        lambda: (h for h in (3, 4, 5)),
        lambda: range(3, 6),
        lambda: np.array([3, 4, 5]),
        lambda: np.array([3, 4, 5], dtype=np.uint64)[::1],
        lambda: [np.int32(3), np.uint64(4), 5],
    ],
)
def test_every_iterable_of_ints_is_a_position(make: Callable[[], Any]):
    a = nimatron.analyze(make())
    assert (a.position, a.outcome, a.nim_sum) == ([3, 4, 5], "N", 2)
    assert nimatron.analyze(make(), game="kayles").position == [3, 4, 5]
    assert nimatron.Game("nim", make()).position == [3, 4, 5]
    assert nimatron.Game("nim").analyze(make()).position == [3, 4, 5]
    q = nimatron.misere_quotient("nim", 7)
    assert q.outcome(make()) == q.outcome([3, 4, 5]) == "N"
    assert q.image_of(make()) == q.image_of([3, 4, 5])


def test_a_long_generator_takes_the_scan():
    heaps = list(range(1, 3000))
    a = nimatron.analyze(h for h in heaps)
    assert a.position == heaps and a.method == "closed form: Bouton's theorem"


@pytest.mark.parametrize(
    "position, word",
    [
        (b"3 4 5", "bytes"),
        (bytearray(b"345"), "bytearray"),
        (memoryview(b"345"), "memoryview"),
        ({3, 4, 5}, "set"),
        (frozenset({3, 4, 5}), "frozenset"),
        ({3: 1, 4: 1}, "dict"),
        (7, "int"),
    ],
)
def test_bytes_sets_and_non_iterables_raise_type_error(position, word):
    for call in [
        lambda p: nimatron.analyze(p),
        lambda p: nimatron.analyze(p, game="kayles"),
        lambda p: nimatron.Game("nim", p),
        lambda p: nimatron.misere_quotient("nim", 7).outcome(p),
    ]:
        with pytest.raises(TypeError, match=f"not {word}"):
            call(position)
    # (Game's position=None is the game's start.)
    with pytest.raises(TypeError, match="not NoneType"):
        nimatron.analyze(None)


@pytest.mark.parametrize(
    "empty",
    [[], (), iter([]), range(0), np.array([], dtype=np.uint64), np.array([], dtype=np.int64), np.zeros(0)],
)
def test_empty_inputs_are_refused_alike_everywhere(empty):
    # The library and the CLI refuse a position with no heaps; so does
    # every way into it here ([0] is the position with nothing left).
    for call in [
        lambda: nimatron.analyze(empty),
        lambda: nimatron.analyze(empty, misere=True),
        lambda: nimatron.analyze(empty, game="kayles"),
        lambda: nimatron.Game("nim", empty),
        lambda: nimatron.misere_quotient("nim", 7).outcome(empty),
    ]:
        with pytest.raises(nimatron.PositionError, match="no heaps given"):
            call()
    assert nimatron.analyze([0]).outcome == "P"


# -- Integer arguments ---------------------------------------------------------


def quotient() -> nimatron.MisereQuotient:
    return nimatron.misere_quotient("kayles", 20)


def user_game(**kwargs: Any) -> nimatron.UserGame[int]:
    return nimatron.UserGame(lambda n: range(n), **kwargs)


CALLS = {
    "max_states": [
        lambda v: nimatron.analyze([1], max_states=v),
        lambda v: nimatron.Game("nim", max_states=v),
        lambda v: nimatron.misere_quotient("kayles", 5, max_states=v),
        lambda v: user_game(max_states=v),
    ],
    "max_moves": [
        lambda v: nimatron.analyze([1], max_moves=v),
        lambda v: nimatron.Game("nim").analyze(max_moves=v),
    ],
    "max_order": [lambda v: nimatron.misere_quotient("kayles", 5, max_order=v)],
    "threads": [
        lambda v: nimatron.grundy_sequence("kayles", 10, threads=v),
        lambda v: nimatron.census(1, 10, threads=v),
    ],
    "n": [
        lambda v: nimatron.grundy_sequence("kayles", v),
        lambda v: nimatron.census(1, v),
        lambda v: quotient().image(v),
    ],
    "to": [lambda v: nimatron.misere_quotient("kayles", v)],
    "digits": [lambda v: nimatron.census(v, 10)],
    "leading": [lambda v: nimatron.census(1, 10, leading=v)],
    "seed": [lambda v: nimatron.Game("nim").computer_move("easy", seed=v)],
}

CASES = [(name, i) for name, calls in CALLS.items() for i in range(len(calls))]


@pytest.mark.parametrize("name, i", CASES)
@pytest.mark.parametrize("value", [-1, -2, 2**64, 2**70])
def test_integers_out_of_range_raise_value_error_naming_the_argument(name, i, value):
    with pytest.raises(ValueError, match=rf"^{name} must be an integer from \d+ to \d+, not {value}$"):
        CALLS[name][i](value)


@pytest.mark.parametrize("name, i", CASES)
@pytest.mark.parametrize("value", [1.5, "3", True])
def test_non_integers_raise_type_error_naming_the_argument(name, i, value):
    with pytest.raises(TypeError, match=rf"^{name} must be an integer from \d+ to \d+, not "):
        CALLS[name][i](value)


def test_the_ranges_are_the_real_ones():
    with pytest.raises(ValueError, match="^max_states must be an integer from 1 to"):
        nimatron.analyze([1], max_states=0)
    with pytest.raises(ValueError, match="^threads must be an integer from 1 to"):
        nimatron.grundy_sequence("kayles", 10, threads=0)
    with pytest.raises(ValueError, match="^to must be an integer from 1 to 10000, not 10001"):
        nimatron.misere_quotient("kayles", 10001)
    with pytest.raises(ValueError, match="^leading must be an integer from 0 to 4, not 5"):
        nimatron.census(1, 10, leading=5)
    # At the edges, the calls run.
    assert nimatron.analyze([1], max_states=1, max_moves=0).outcome == "N"
    assert len(nimatron.grundy_sequence("kayles", 0)) == 1
    assert nimatron.misere_quotient("kayles", 1).order == 2
    proven = nimatron.misere_quotient("octal:0.75", 1000)
    assert proven.proven and proven.image(2**64 - 1) in proven.elements
    # NumPy integers are integers.
    assert len(nimatron.grundy_sequence("kayles", np.int64(10))) == 11
