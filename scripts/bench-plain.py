#!/usr/bin/env python3
"""The sparse method on one thread, on every vector path this processor has,
against the plain rare/common baseline (`--algorithm plain`), for every game
of the Grundy-sequence benchmark.

Each round runs the plain baseline and then each path once, in turn, so that
a host which moves the clock between runs shifts every program alike. For
each game it prints the plain baseline's median time, and for each path its
median time and the median of the paired ratios (plain time / path time).
Every run of a game must give the same G(N), or the script stops.

Usage: scripts/bench-plain.py                 (3 rounds, every game)
       ROUNDS=5 scripts/bench-plain.py
       CASES="0.6:1000000 0.376:5000000" scripts/bench-plain.py
       NIMATRON=target/release/nimatron       (the binary; built if missing)

Not part of the test suite.
"""
import os
import re
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("NIMATRON", os.path.join(ROOT, "target/release/nimatron"))
ROUNDS = int(os.environ.get("ROUNDS", "3"))
# N for each game: where the plain baseline takes a few seconds to a few
# tens of seconds; 0.354 to the size that proves its period.
DEFAULT_CASES = (
    "0.6:1000000 grundy-game:1000000 0.376:5000000 0.354:20126194 "
    "0.16:10000000 0.56:10000000 0.127:1000000 0.04:100000 0.06:100000 "
    "0.167:10000000 0.014:1000000"
)
CASES = [c.split(":") for c in os.environ.get("CASES", DEFAULT_CASES).split()]
ALL_PATHS = ["avx512", "avx2", "portable", "none"]


def run(args):
    start = time.perf_counter()
    out = subprocess.run([BIN, *args], capture_output=True, text=True)
    took = time.perf_counter() - start
    if out.returncode != 0:
        sys.exit(f"failed: {BIN} {' '.join(args)}\n{out.stderr}")
    last = re.search(r"last value\s+(G\(\d+\) = \d+)", out.stdout)
    if not last:
        sys.exit(f"no 'last value' line from {BIN} {' '.join(args)}")
    return took, last.group(1)


def available_paths():
    """The paths this processor has: a missing one is refused with exit 2."""
    have = []
    for path in ALL_PATHS:
        probe = subprocess.run(
            [BIN, "grundy", "kayles", "--to", "10", "--simd", path],
            capture_output=True,
        )
        if probe.returncode == 0:
            have.append(path)
    return have


def processor():
    """The model name, family and model, from /proc/cpuinfo where there is one."""
    try:
        lines = open("/proc/cpuinfo").read().splitlines()
    except OSError:
        return "unknown processor"
    field = {}
    for line in lines:
        key, _, value = line.partition(":")
        field.setdefault(key.strip(), value.strip())
    return f"{field.get('model name', '?')}, family {field.get('cpu family', '?')} model {field.get('model', '?')}"


def main():
    if not os.path.exists(BIN):
        subprocess.run(["cargo", "build", "--release", "-p", "nimatron-cli"], cwd=ROOT, check=True)
    paths = available_paths()
    cpu = processor()
    print(f"processor: {cpu}; paths: {' '.join(paths)}; {ROUNDS} rounds; load {os.getloadavg()[0]:.2f}")
    print("| game | N | plain s | " + " | ".join(f"{p} s (ratio)" for p in paths) + " | G(N) |")
    print("|---|---|---|" + "---|" * len(paths) + "---|")
    for game, n in CASES:
        programs = {"plain": ["grundy", game, "--to", n, "--algorithm", "plain"]}
        for p in paths:
            programs[p] = ["grundy", game, "--to", n, "--threads", "1", "--simd", p]
        times = {name: [] for name in programs}
        lasts = set()
        for _ in range(ROUNDS):
            for name, args in programs.items():
                took, last = run(args)
                times[name].append(took)
                lasts.add(last)
        if len(lasts) != 1:
            sys.exit(f"{game} to {n}: the programs disagree: {sorted(lasts)}")
        cells = [f"{statistics.median(times['plain']):.2f}"]
        for p in paths:
            ratio = statistics.median(a / b for a, b in zip(times["plain"], times[p]))
            cells.append(f"{statistics.median(times[p]):.2f} ({ratio:.1f}×)")
        print(f"| {game} | {n} | " + " | ".join(cells) + f" | {lasts.pop()} |", flush=True)
    print(f"load at the end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
