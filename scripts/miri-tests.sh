#!/usr/bin/env bash
# The library's unsafe code under Miri, which checks every memory access,
# the aliasing rules and, between the two threads, every data race.
#
# What Miri can run (it has no AVX2 or AVX-512, so the processor-specific
# kernels are left to scripts/sanitizer-tests.sh and the tests on real
# hardware):
# - sequence::kernel: the scans, the byte packing and the compares of the
#   `none` and `portable` paths against the plain scan, and the stamps of
#   step 1 and the naive marks (tests cut to a few rounds under Miri);
# - sequence::parallel: the helper thread of a two-thread run and its job
#   hand-over, and the round's shared values and ring of blocks;
# - the two-thread pipeline itself, on a game small enough for Miri
#   (sequence::sparse::tests::a_short_two_thread_run_gives_the_naive_values).
#
# Installs the nightly toolchain's miri and rust-src components; where
# rustup cannot fetch them, says so and skips. Takes a few minutes.
#
# Usage: scripts/miri-tests.sh [--all]   (--all adds the probe and the two-thread run)
set -euo pipefail
cd "$(dirname "$0")/.."

if ! rustup toolchain install nightly --profile minimal --component miri,rust-src \
	>/dev/null 2>&1; then
	echo "== Miri skipped: rustup could not install nightly with miri and rust-src"
	exit 0
fi
start=$(date +%s)
export CARGO_TARGET_DIR=target/miri
echo "== cargo miri setup"
cargo +nightly miri setup >/dev/null
# The kernels and the helper thread take a few minutes; the probe's compare
# and the two-thread run each took more than 6 minutes under Miri on 2
# cores, so they run only with --all (by hand, not in scripts/test.sh).
tests=(sequence::kernel:: sequence::parallel::)
if [ "${1:-}" = "--all" ]; then
	tests+=(sequence::probe:: sequence::sparse::tests::a_short_two_thread_run_gives_the_naive_values)
fi
echo "== Miri: ${tests[*]}"
# -Zmiri-many-seeds would try several schedules; one seed with the default
# preemption keeps the run to a few minutes.
MIRIFLAGS="-Zmiri-strict-provenance" cargo +nightly miri test --locked -p nimatron --lib -- "${tests[@]}"
echo "== Miri took $(($(date +%s) - start)) s"
