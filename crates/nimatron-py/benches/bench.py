"""Benchmarks of the Python package against the Rust it wraps, on this
machine, in one run (scripts/bench-python.sh builds both and calls this).

1. grundy_sequence("officers", 10**6) from Python against the CLI's
   `nimatron grundy officers --to 1000000` (same threads), fastest of N.
2. analyze() of 10**6 random u64 heaps passed as a NumPy array against the
   Rust scan (cargo bench -p nimatron --bench nim_scan, the same work:
   nim-sum and a winning move) and NumPy's copy of the array (analyze
   copies the heaps), fastest of N.
3. A user-defined Python game of 10**5 positions, solved by UserGame,
   against the same values by a plain Python mex.

Every timed result is checked: the values against the CLI's, the nim-sum
against NumPy's XOR, the user game against the plain mex.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from typing import Callable, List, Tuple, TypeVar

import numpy as np

import nimatron

T = TypeVar("T")


def best_of(reps: int, f: Callable[[], T]) -> Tuple[float, T]:
    best = float("inf")
    result = None
    for _ in range(reps):
        t = time.perf_counter()
        result = f()
        best = min(best, time.perf_counter() - t)
    assert result is not None
    return best, result


def cpu() -> str:
    text = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
    model = re.search(r"Model name:\s*(.+)", text)
    flags = open("/proc/cpuinfo").read()
    has = lambda f: re.search(rf"\b{f}\b", flags) is not None  # noqa: E731
    return (
        f"{model.group(1).strip() if model else 'unknown'}, {os.cpu_count()} cores, "
        f"AVX2 {'yes' if has('avx2') else 'no'}, AVX-512 {'yes' if has('avx512f') else 'no'}"
    )


def sequence_vs_cli(cli: str, reps: int) -> None:
    n = 10**6
    threads = 2
    # Untimed: the CLI's values, to check Python's against.
    out = subprocess.run(
        [cli, "grundy", "officers", "--to", str(n), "--json", "--threads", str(threads)],
        capture_output=True, text=True, check=True,
    ).stdout
    reference = json.loads(out)
    py_time, seq = best_of(reps, lambda: nimatron.grundy_sequence("officers", n, threads=threads))
    assert seq.values.tolist() == reference["values"], "Python and the CLI disagree"
    assert seq.period == reference["period"] and seq.proven == reference["proven"]

    def run_cli() -> float:
        t = time.perf_counter()
        subprocess.run(
            [cli, "grundy", "officers", "--to", str(n), "--threads", str(threads)],
            stdout=subprocess.DEVNULL, check=True,
        )
        return time.perf_counter() - t

    cli_times = [run_cli() for _ in range(reps)]
    # The CLI's own figure for the computation (without start-up and output).
    inner = []
    for _ in range(reps):
        o = subprocess.run(
            [cli, "grundy", "officers", "--to", str(n), "--json", "--threads", str(threads)],
            capture_output=True, text=True, check=True,
        ).stdout
        inner.append(json.loads(o)["seconds"])
    cli_time = min(cli_times)
    print(f"officers to 10^6, {threads} threads, vector path {seq.simd}:")
    print(f"  Python grundy_sequence      {py_time:8.3f} s")
    print(f"  CLI (whole process)         {cli_time:8.3f} s")
    print(f"  CLI (its own 'seconds')     {min(inner):8.3f} s")
    print(f"  Python / CLI process        {py_time / cli_time:8.3f}")
    print(f"  Python / CLI computation    {py_time / min(inner):8.3f}")


def nim_scan(reps: int, rust_ms: float | None) -> None:
    rng = np.random.default_rng(0x5EED)
    heaps = rng.integers(0, 2**64 - 1, size=10**6, dtype=np.uint64, endpoint=True)
    expected = int(np.bitwise_xor.reduce(heaps))
    py_time, a = best_of(reps, lambda: nimatron.analyze(heaps))
    assert a.nim_sum == expected
    m = a.winning_moves[0]
    assert int(heaps[m.heap]) ^ expected == int(heaps[m.heap]) - m.take
    np_time, _ = best_of(reps, lambda: np.bitwise_xor.reduce(heaps))
    # The analysis copies the heaps (it is a value: it never reads the
    # caller's array again); NumPy's own copy, for scale.
    copy_time, _ = best_of(reps, lambda: heaps.copy())
    print("analyze 10^6 random u64 heaps (normal play):")
    print(f"  Python analyze(ndarray)     {py_time * 1e3:8.3f} ms")
    print(f"  NumPy bitwise_xor.reduce    {np_time * 1e3:8.3f} ms (the XOR alone)")
    print(f"  NumPy heaps.copy()          {copy_time * 1e3:8.3f} ms (the copy alone)")
    if rust_ms is not None:
        print(f"  Rust nim::analyze + move    {rust_ms:8.3f} ms (cargo bench nim_scan)")
        print(f"  speed, Python / Rust        {rust_ms / (py_time * 1e3):8.3f}")


def user_game(reps: int) -> None:
    n = 10**5

    def moves(k: int) -> List[int]:
        return [k - s for s in (1, 2, 7, 11) if s <= k] + ([k // 3] if k >= 3 else [])

    def plain() -> int:
        g: List[int] = []
        for k in range(n + 1):
            seen = {g[o] for o in moves(k)}
            v = 0
            while v in seen:
                v += 1
            g.append(v)
        return g[n]

    rust_time, value = best_of(reps, lambda: nimatron.UserGame(moves).grundy(n))
    plain_time, reference = best_of(reps, plain)
    assert value == reference
    game = nimatron.UserGame(moves)
    game.grundy(n)
    print(f"user game of {game.positions_seen} positions (moves k-1, k-2, k-7, k-11, k//3):")
    print(f"  UserGame.grundy             {rust_time:8.3f} s")
    print(f"  plain Python mex            {plain_time:8.3f} s (reference, bottom-up)")


def main() -> None:
    cli = sys.argv[1]
    rust_ms = float(sys.argv[2]) if len(sys.argv) > 2 and sys.argv[2] else None
    reps = int(os.environ.get("BENCH_REPS", "5"))
    print("machine:", cpu())
    print("load average before:", os.getloadavg())
    sequence_vs_cli(cli, reps)
    nim_scan(max(reps, 20), rust_ms)
    user_game(3)
    print("load average after:", os.getloadavg())


if __name__ == "__main__":
    main()
