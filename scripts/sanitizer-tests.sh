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
# With --quick (a stage of scripts/test.sh, so CI runs it) one build and
# one run: AddressSanitizer on the kernels' unit tests (every vector path
# this processor has, AVX2 included, which Miri cannot run), the helper's
# and the hand-over's, and a short two-thread run. ThreadSanitizer, whose
# rebuilt standard library alone takes minutes, is left to the full run:
# the same two-thread code runs under Miri (scripts/miri-tests.sh), which
# checks data races too. The full run takes about 10 minutes on two cores.
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
	echo "== the kernels', the helper's and the hand-over's unit tests and a short two-thread run, AddressSanitizer ($host)"
	# The library's test profile optimises it fully (opt-level 3, for the
	# exhaustive checks); these few tests need far less, and opt-level 1
	# builds the instrumented library in a fraction of the time.
	RUSTFLAGS="-Zsanitizer=address" CARGO_TARGET_DIR=target/asan \
		cargo +nightly test --locked -p nimatron --target "$host" --lib \
		--config 'profile.test.package.nimatron.opt-level=1' -- \
		sequence::kernel:: sequence::parallel:: sequence::probe:: \
		sequence::sparse::tests::a_short_two_thread_run_gives_the_naive_values
	echo "== sanitizer tests took $(($(date +%s) - start)) s"
	exit 0
fi

echo "== the sequence module's unit tests, AddressSanitizer ($host)"
RUSTFLAGS="-Zsanitizer=address" CARGO_TARGET_DIR=target/asan \
	cargo +nightly test --locked -p nimatron --target "$host" --lib -- sequence::
echo "== tests/grundy_sequences.rs, AddressSanitizer"
RUSTFLAGS="-Zsanitizer=address" CARGO_TARGET_DIR=target/asan \
	cargo +nightly test --locked -p nimatron --target "$host" --test grundy_sequences

echo "== the two-thread tests, ThreadSanitizer"
RUSTFLAGS="-Zsanitizer=thread" CARGO_TARGET_DIR=target/tsan \
	cargo +nightly test --locked -Zbuild-std -p nimatron --target "$host" --lib -- \
	--test-threads=1 sequence::parallel:: sequence::sparse::
RUSTFLAGS="-Zsanitizer=thread" CARGO_TARGET_DIR=target/tsan \
	cargo +nightly test --locked -Zbuild-std -p nimatron --target "$host" --test grundy_sequences -- \
	--test-threads=1 two_threads_equal_one_far_out every_vector_path_agrees_with_naive_to_100_000
echo "== sanitizer tests took $(($(date +%s) - start)) s"
