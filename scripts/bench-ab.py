#!/usr/bin/env python3
"""Two builds of nimatron against each other, in alternating runs: for each
game, vector path and thread count, the baseline and the new build run in
turn ROUNDS times, and the script prints each one's median time and the
median of the paired ratios (new time / baseline time: below 1 is faster).
Every run of a case must give the same G(N), or the script stops.

Usage: BASELINE=/path/to/old/nimatron scripts/bench-ab.py
       NIMATRON=target/release/nimatron   (the new build; the default)
       ROUNDS=7 CASES="0.6:1000000 grundy-game:1000000" THREADS="1 2"
       SIMD_PATHS="avx2 none"             (default: every path this
                                           processor has)

Times are nimatron's own (the `time` line of its summary), so the
process's start and the printing are left out. Not part of the test suite.
"""
import os
import re
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NEW = os.environ.get("NIMATRON", os.path.join(ROOT, "target/release/nimatron"))
OLD = os.environ.get("BASELINE")
ROUNDS = int(os.environ.get("ROUNDS", "5"))
CASES = [c.split(":") for c in os.environ.get("CASES", "0.6:1000000 grundy-game:1000000").split()]
THREADS = [int(t) for t in os.environ.get("THREADS", "1 2").split()]


def run(binary, game, n, path, threads):
    args = [binary, "grundy", game, "--to", n, "--simd", path, "--threads", str(threads)]
    out = subprocess.run(args, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"failed: {' '.join(args)}\n{out.stderr}")
    last = re.search(r"last value\s+(G\(\d+\) = \d+)", out.stdout)
    took = re.search(r"^\s*time\s+([0-9.]+) s", out.stdout, re.M)
    if not last or not took:
        sys.exit(f"no 'last value' or 'time' line from {' '.join(args)}:\n{out.stdout}")
    return float(took.group(1)), last.group(1)


def paths():
    wanted = os.environ.get("SIMD_PATHS")
    if wanted:
        return wanted.split()
    have = []
    for p in ["avx512", "avx2", "portable", "none"]:
        ok = subprocess.run([NEW, "grundy", "officers", "--to", "10", "--simd", p], capture_output=True)
        if ok.returncode == 0:
            have.append(p)
    return have


def main():
    if not OLD:
        sys.exit("set BASELINE to the other build's nimatron")
    model = ""
    try:
        with open("/proc/cpuinfo") as f:
            model = next(l.split(":", 1)[1].strip() for l in f if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    print(f"processor: {model}; load average {os.getloadavg()[0]:.1f} at the start")
    print(f"baseline: {OLD}\nnew: {NEW}\nrounds: {ROUNDS}\n")
    print("| game | N | path | threads | baseline median s | new median s | median of new/baseline |")
    print("|---|---|---|---|---|---|---|")
    for game, n in CASES:
        for path in paths():
            for threads in THREADS:
                old_t, new_t, ratios, value = [], [], [], None
                for r in range(ROUNDS):
                    # Alternate which build goes first.
                    order = [(OLD, old_t), (NEW, new_t)]
                    if r % 2:
                        order.reverse()
                    for binary, times in order:
                        t, v = run(binary, game, n, path, threads)
                        if value is None:
                            value = v
                        elif v != value:
                            sys.exit(f"{game} to {n}: {v} against {value}")
                        times.append(t)
                    ratios.append(new_t[-1] / old_t[-1])
                print(
                    f"| {game} | {n} | {path} | {threads} | {statistics.median(old_t):.3f} "
                    f"| {statistics.median(new_t):.3f} | {statistics.median(ratios):.3f} |",
                    flush=True,
                )
    print(f"\nload average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
