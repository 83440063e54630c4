"""Ctrl-C stops every long computation within half a second, from another
process, and leaves the objects fit for use; other signal handlers' errors
come through; the GIL is released.

Each test runs the call in this process while a separate process sends
SIGINT to it after a delay and prints the moment it sent it (the
system-wide monotonic clock), so that the delay until KeyboardInterrupt is
measured from the signal itself."""

import contextlib
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from typing import Iterator, List

import pytest

import nimatron
from conftest import octal_values

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGINT") or os.name != "posix", reason="needs POSIX signals")

#: How soon KeyboardInterrupt must follow the signal.
WITHIN = 0.5

_KILLER = textwrap.dedent(
    """
    import os, signal, sys, time
    time.sleep(float(sys.argv[2]))
    sent = time.monotonic()
    os.kill(int(sys.argv[1]), signal.SIGINT)
    print(sent, flush=True)
    """
)


@contextlib.contextmanager
def sigint_from_another_process(after: float, within: float = WITHIN) -> Iterator[None]:
    """The block must raise KeyboardInterrupt within `within` seconds of a
    SIGINT that another process sends `after` seconds from now."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    killer = subprocess.Popen(
        [sys.executable, "-c", _KILLER, str(os.getpid()), str(after)],
        stdout=subprocess.PIPE,
        text=True,
    )
    caught = None
    try:
        try:
            yield
        except KeyboardInterrupt:
            caught = time.monotonic()
    finally:
        if caught is None:
            # The call ended (or failed) before the signal: stop it coming.
            killer.kill()
        out, _ = killer.communicate(timeout=60)
    assert caught is not None, "the call ended before the signal; make it longer"
    sent = float(out)
    assert caught - sent < within, f"KeyboardInterrupt came {caught - sent:.3f} s after SIGINT"


def test_analyze_a_long_search():
    with sigint_from_another_process(1.0):
        nimatron.analyze("full", game="chomp:12x12", max_states=10**9, max_seconds=None)
    # Usable after: every rectangle of Chomp larger than one square is a
    # first-player win (strategy stealing).
    for spec in ["chomp:3x4", "chomp:4x5", "chomp:5x5"]:
        assert nimatron.analyze("full", game=spec).outcome == "N"


def test_the_game_solvers():
    game = nimatron.Game("chomp:12x12", max_states=10**9, max_seconds=None)
    start = game.position_text
    with sigint_from_another_process(1.0):
        game.outcome()
    with sigint_from_another_process(0.5):
        game.analyze()
    with sigint_from_another_process(0.5):
        game.computer_move("perfect")
    # The game is as it was, and answers smaller questions.
    assert game.position_text == start and game.history == []
    assert nimatron.Game("chomp:4x5").outcome() == "N"


def test_a_misere_analysis_through_the_quotient():
    # Misère Dawson's Kayles with big heaps: the quotient first, then search.
    game = nimatron.Game("dawson", [40, 41, 43], misere=True, max_states=10**8, max_seconds=None)
    with sigint_from_another_process(1.0):
        game.analyze()
    assert nimatron.Game("dawson", [3, 4], misere=True).outcome() == nimatron.misere_quotient("dawson", 4).outcome([3, 4])


def test_misere_quotient():
    with sigint_from_another_process(1.0):
        nimatron.misere_quotient("dawson", 10000, max_seconds=None)
    # Misère Nim after: the tame quotient of order 6 (Plambeck and Siegel).
    q = nimatron.misere_quotient("nim", 3)
    assert (q.order, sorted(q.p_portion)) == (6, ["a", "b^2"])


def test_a_user_game_exploring():
    def slow(n: int) -> List[int]:
        time.sleep(0.0005)
        return [n - 1] if n else []

    game = nimatron.UserGame(slow, max_seconds=None)
    with sigint_from_another_process(0.5):
        game.grundy(10**6)
    # The same game answers afterwards: G(n) = n mod 2 for this chain.
    assert [game.grundy(n) for n in range(30)] == [n % 2 for n in range(30)]


def test_a_user_game_solving():
    # Positions are numbers with every smaller number as an option: the
    # graph has n^2 / 2 edges, so the solver itself (after the
    # exploration) has work to do; either phase may be interrupted.
    def below(n: int) -> range:
        return range(n)

    game = nimatron.UserGame(below, max_states=10**8, max_seconds=None)
    with sigint_from_another_process(0.5):
        for n in range(0, 10**5, 500):
            game.outcome(n, misere=True)
            game.grundy(n)
    # G(n) = n here (the options of n are 0..n-1: Nim's heap).
    assert [game.grundy(n) for n in range(40)] == list(range(40))


@pytest.mark.parametrize("threads", [1, 2])
def test_grundy_sequence(threads):
    with sigint_from_another_process(0.5):
        nimatron.grundy_sequence("officers", 10**9, threads=threads, memory_limit=64)
    assert list(nimatron.grundy_sequence("officers", 200).values) == octal_values("0.6", 200)


@pytest.mark.parametrize("threads", [1, 2])
def test_a_sequence_whose_steps_grow_slow(threads):
    # 0.04 has no mask for a long while: every value is a mex over all n/2
    # splits, so a step that was quick at first ends seconds later (a step
    # of 4 096 values near n = 16 000 took 2.3 s). The engine asks for
    # Ctrl-C between blocks of work, not only between steps.
    with sigint_from_another_process(1.0):
        nimatron.grundy_sequence("octal:0.04", 10**7, threads=threads, memory_limit=64)
    assert list(nimatron.grundy_sequence("octal:0.04", 300).values) == octal_values("0.04", 300)


def test_census():
    # A census of the two-digit codes, which include 0.04 (above).
    with sigint_from_another_process(1.0):
        nimatron.census(2, 10**7)
    classes = nimatron.census(1, 60)
    assert sorted(c for cls in classes for c in cls["codes"]) == [f"0.{d}" for d in range(8)]


def test_an_interrupted_limit_error_leaves_a_clean_traceback():
    # The report: SIGINT during a computation that then stopped at
    # a limit raised KeyboardInterrupt inside the caller's `except
    # Exception` handler, and stderr read "... lost sys.stderr". Now
    # KeyboardInterrupt comes at once, and the handler never runs.
    script = textwrap.dedent(
        """
        import time, nimatron
        try:
            nimatron.misere_quotient("dawson", 10000, max_seconds=3)
        except Exception as e:
            print("caught", type(e).__name__, flush=True)
            time.sleep(1)
        """
    )
    started = time.monotonic()
    child = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    time.sleep(1.0)
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=60)
    elapsed = time.monotonic() - started
    assert "caught" not in out, out
    assert "lost sys.stderr" not in err, err
    assert err.rstrip().endswith("KeyboardInterrupt"), err
    assert child.returncode != 0
    assert elapsed < 2.5, f"the child took {elapsed:.1f} s"


def test_sigalrm_handler_exceptions_come_through():
    class Stop(Exception):
        pass

    def handler(signum, frame):
        raise Stop()

    old = signal.signal(signal.SIGALRM, handler)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.3)
        with pytest.raises(Stop):
            nimatron.grundy_sequence("officers", 10**8, threads=2)
        signal.setitimer(signal.ITIMER_REAL, 0.3)
        with pytest.raises(Stop):
            nimatron.misere_quotient("dawson", 10000, max_seconds=None)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def test_a_handler_that_calls_nimatron_during_a_computation_is_refused():
    # A handler that runs while a computation holds its game's tables must
    # not wait on them forever: it gets RuntimeError.
    seen = []

    def handler(signum, frame):
        try:
            nimatron.analyze([3, 4], game="kayles")
        except RuntimeError as e:
            seen.append(str(e))
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGALRM, handler)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.3)
        with pytest.raises(KeyboardInterrupt):
            nimatron.analyze("full", game="chomp:12x12", max_states=10**9, max_seconds=None)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    assert len(seen) == 1 and "signal handler" in seen[0], seen
    # And outside a handler the same call runs.
    assert nimatron.analyze([3, 4], game="kayles").outcome in ("N", "P")


def test_calls_from_other_threads_run_without_the_main_threads_signals():
    results = []

    def work():
        results.append(nimatron.analyze("full", game="chomp:4x5").outcome)

    t = threading.Thread(target=work)
    t.start()
    t.join()
    assert results == ["N"]


def test_the_gil_is_released_during_a_sequence():
    ticks = []
    stop = threading.Event()

    def count():
        while not stop.is_set():
            ticks.append(1)
            time.sleep(0.001)

    t = threading.Thread(target=count)
    t.start()
    try:
        nimatron.grundy_sequence("officers", 2 * 10**6, threads=1)
    finally:
        stop.set()
        t.join()
    # The other thread ran throughout (hundreds of ticks, not a handful).
    assert len(ticks) > 50

