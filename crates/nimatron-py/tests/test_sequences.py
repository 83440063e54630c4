"""Grundy sequences against published OEIS tables (tests/data) and plain
Python mex; periods; progress; the census."""

import io

import numpy as np
import pytest

import nimatron
from conftest import grundy_by_mex, grundy_game_values, octal_values, published_values


def test_kayles_is_oeis_a002186_with_its_proven_period():
    table = published_values("A002186-kayles.txt")
    seq = nimatron.grundy_sequence("kayles", len(table) - 1)
    assert isinstance(seq.values, np.ndarray) and seq.values.dtype == np.uint16
    assert seq.values.tolist() == table
    # OEIS: periodic with period 12 from n = 71 (the last exception is 70).
    long = nimatron.grundy_sequence("kayles", 5000)
    assert (long.period, long.preperiod, long.proven) == (12, 71, True)
    assert long.values[: len(table)].tolist() == table
    assert long.game == "kayles" and len(long) == 5001 and long[3] == 3


def test_dawsons_chess_is_oeis_a002187_and_dawsons_kayles_is_it_shifted():
    table = published_values("A002187-dawsons-chess.txt")
    chess = nimatron.grundy_sequence("octal:0.137", len(table) - 1)
    assert chess.values.tolist() == table
    # OEIS A002187: octal game .07 (Dawson's Kayles) has values a(n-1).
    kayles = nimatron.grundy_sequence("dawson", len(table))
    assert kayles.values[1:].tolist() == table
    # Period 34; the last exception is n = 51.
    long = nimatron.grundy_sequence("octal:0.137", 3000)
    assert long.period == 34 and long.proven and long.preperiod == 52


def test_grundys_game_is_oeis_a002188():
    table = published_values("A002188-grundys-game.txt")
    seq = nimatron.grundy_sequence("grundy-game", len(table) - 1)
    assert seq.values.tolist() == table
    assert seq.values.tolist() == grundy_game_values(len(table) - 1)
    assert not seq.proven  # no theorem proves Grundy's game periodic


@pytest.mark.parametrize("code", ["0.77", "0.07", "0.137", "0.6", "0.16", "0.54", "0.51", "0.3"])
def test_octal_codes_match_a_plain_python_mex(code):
    n = 400
    spec = "octal:" + code
    got = nimatron.grundy_sequence(spec, n).values.tolist()
    assert got == octal_values(code, n)


@pytest.mark.parametrize("algorithm", ["auto", "naive", "sparse", "plain"])
def test_every_algorithm_gives_the_same_officers_values(algorithm):
    reference = octal_values("0.6", 600)
    seq = nimatron.grundy_sequence("officers", 600, algorithm=algorithm, threads=1)
    assert seq.values.tolist() == reference


def test_subtraction_games_match_a_plain_python_mex():
    n = 500
    got = nimatron.grundy_sequence("subtraction:1,3,4", n)
    assert got.values.tolist() == grundy_by_mex(lambda k: [k - s for s in (1, 3, 4) if s <= k], n)
    assert got.period == 7
    squares = [i * i for i in range(1, 30)]
    got = nimatron.grundy_sequence("subtraction:squares", n).values.tolist()
    assert got == grundy_by_mex(lambda k: [k - s for s in squares if s <= k], n)


def test_two_threads_give_the_same_values():
    one = nimatron.grundy_sequence("officers", 200_000, threads=1)
    two = nimatron.grundy_sequence("officers", 200_000, threads=2)
    assert np.array_equal(one.values, two.values)


def test_progress_callback_sees_every_value_counted():
    seen = []
    seq = nimatron.grundy_sequence("officers", 300_000, progress=lambda done, total: seen.append((done, total)))
    assert seen, "the callback was called"
    assert all(total == 300_001 for _, total in seen)
    dones = [d for d, _ in seen]
    assert dones == sorted(dones) and dones[-1] == 300_001
    assert len(seq) == 300_001


def test_progress_with_a_tqdm_bar():
    tqdm = pytest.importorskip("tqdm")
    bar = tqdm.tqdm(total=None, file=io.StringIO())
    nimatron.grundy_sequence("officers", 50_000, progress=bar)
    assert bar.n == 50_001 and bar.total == 50_001
    nimatron.grundy_sequence("officers", 1000, progress=True)

    class Bar:
        made = []

        def __init__(self, total, unit):
            self.total, self.n = total, 0
            Bar.made.append(self)

        def update(self, k):
            self.n += k

        def close(self):
            pass

    nimatron.grundy_sequence("officers", 20_000, progress=Bar)
    [bar] = Bar.made
    assert bar.n == bar.total == 20_001


def test_a_failing_progress_callback_stops_the_run():
    def fail(done, total):
        raise RuntimeError("stop here")

    with pytest.raises(RuntimeError, match="stop here"):
        nimatron.grundy_sequence("officers", 10**6, progress=fail)


def test_census_of_one_digit_codes():
    classes = nimatron.census(1, 200)
    codes = sorted(c for cls in classes for c in cls["codes"])
    assert len(codes) == 8
    # 0.3, 0.5 and 0.7 all have G(n) = n mod 2: one class, proven equal.
    [cls] = [c for c in classes if "0.3" in c["codes"]]
    assert cls["codes"] == ["0.3", "0.5", "0.7"]
    assert cls["rule"] == "same-values-proven" and cls["proven"]
    assert cls["period"] == 2
    assert octal_values("0.3", 50) == [n % 2 for n in range(51)]
