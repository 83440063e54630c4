"""Long computations release the GIL and stop on a signal with
KeyboardInterrupt."""

import os
import signal
import threading
import time

import pytest

import nimatron


def _send_sigint_after(seconds):
    def fire():
        time.sleep(seconds)
        os.kill(os.getpid(), signal.SIGINT)

    t = threading.Thread(target=fire, daemon=True)
    t.start()
    return t


@pytest.mark.skipif(not hasattr(signal, "SIGINT"), reason="needs SIGINT")
def test_sigint_interrupts_a_long_sequence():
    # Officers to 10^8 takes minutes on these machines; it must stop at once.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    started = time.monotonic()
    _send_sigint_after(0.5)
    with pytest.raises(KeyboardInterrupt):
        nimatron.grundy_sequence("officers", 10**8, threads=1)
    elapsed = time.monotonic() - started
    assert elapsed < 10, f"took {elapsed:.1f} s to stop"


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
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


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


def test_sigint_interrupts_a_user_game_exploration():
    signal.signal(signal.SIGINT, signal.default_int_handler)

    def slow(n):
        time.sleep(0.0005)
        return [n - 1] if n else []

    game = nimatron.UserGame(slow, max_seconds=None)
    _send_sigint_after(0.5)
    with pytest.raises(KeyboardInterrupt):
        game.grundy(10**6)
