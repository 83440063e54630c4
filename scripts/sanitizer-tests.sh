#!/usr/bin/env bash
# The library's unsafe code under the sanitizers. All of it is in the
# Grundy engine: the vector kernels (crates/nimatron/src/sequence/kernel/)
# and the two-thread pipeline's helper and hand-over
# (crates/nimatron/src/sequence/parallel/).
#
# - AddressSanitizer: the sequence module's unit tests and
#   tests/grundy_sequences.rs, which check every vector path this processor
#   has against the plain mex, on one and two threads. Any read or write
#   outside a buffer, use after free or leak fails the run.
# - ThreadSanitizer: the tests that run two threads (Officers and Grundy's
#   game to 100 000 on every path, and to 300 000), with the standard
#   library rebuilt under the sanitizer (-Zbuild-std, which needs the
#   nightly rust-src component). A data race fails the run.
#
# With --quick (what .ci/run runs), the inputs are cut: AddressSanitizer
# runs the kernels', the helper's and the hand-over's unit tests, a short
# two-thread run and every vector path against the plain mex to 100 000;
# ThreadSanitizer the helper's and the hand-over's tests and the short
# two-thread run. That takes a few minutes; the full run about 10 minutes
# on two cores.
#
# Installs the nightly toolchain (with rust-src) where it is missing; where
# rustup cannot fetch it, says so and skips. Builds into target/asan and
# target/tsan.
#
# Usage: scripts/sanitizer-tests.sh [--quick]
set -euo pipefail
cd "$(dirname "$0")/.."

quick=false
case "${1:-}" in
--quick) quick=true ;;
"") ;;
*)
	echo "usage: scripts/sanitizer-tests.sh [--quick]" >&2
	exit 2
	;;
esac

if ! rustup toolchain install nightly --profile minimal --component rust-src \
	>/dev/null 2>&1; then
	echo "== sanitizer tests skipped: rustup could not install nightly with rust-src"
	exit 0
fi
start=$(date +%s)
# --target keeps the sanitizers off build scripts and proc macros.
host=$(rustc -vV | sed -n 's/^host: //p')

if $quick; then
	unit=(sequence::kernel:: sequence::parallel:: sequence::probe::
		sequence::sparse::tests::a_short_two_thread_run_gives_the_naive_values)
	grundy=(every_vector_path_agrees_with_naive_to_100_000)
	threads=(sequence::parallel:: sequence::sparse::tests::a_short_two_thread_run_gives_the_naive_values)
else
	unit=(sequence::)
	grundy=()
	threads=()
fi

echo "== the sequence module's unit tests, AddressSanitizer ($host)"
RUSTFLAGS="-Zsanitizer=address" CARGO_TARGET_DIR=target/asan \
	cargo +nightly test --locked -p nimatron --target "$host" --lib -- "${unit[@]}"
echo "== tests/grundy_sequences.rs, AddressSanitizer"
RUSTFLAGS="-Zsanitizer=address" CARGO_TARGET_DIR=target/asan \
	cargo +nightly test --locked -p nimatron --target "$host" --test grundy_sequences -- "${grundy[@]}"

echo "== the two-thread tests, ThreadSanitizer"
if $quick; then
	RUSTFLAGS="-Zsanitizer=thread" CARGO_TARGET_DIR=target/tsan \
		cargo +nightly test --locked -Zbuild-std -p nimatron --target "$host" --lib -- \
		--test-threads=1 "${threads[@]}"
else
	RUSTFLAGS="-Zsanitizer=thread" CARGO_TARGET_DIR=target/tsan \
		cargo +nightly test --locked -Zbuild-std -p nimatron --target "$host" --lib -- \
		--test-threads=1 sequence::parallel:: sequence::sparse::
	RUSTFLAGS="-Zsanitizer=thread" CARGO_TARGET_DIR=target/tsan \
		cargo +nightly test --locked -Zbuild-std -p nimatron --target "$host" --test grundy_sequences -- \
		--test-threads=1 two_threads_equal_one_far_out every_vector_path_agrees_with_naive_to_100_000
fi
echo "== sanitizer tests took $(($(date +%s) - start)) s"
