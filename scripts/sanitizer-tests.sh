#!/usr/bin/env bash
# The library's unsafe code under the sanitizers. All of it is in the
# Grundy engine (crates/nimatron/src/sequence/): the vector paths, the
# candidate compares, and the two-thread hand-over.
#
# - AddressSanitizer: the sequence module's unit tests and
#   tests/grundy_sequences.rs, which check every vector path this processor
#   has against the plain mex, on one and two threads. Any read or write
#   outside a buffer, use after free or leak fails the run.
# - ThreadSanitizer: the tests that run two threads (Officers and Grundy's
#   game to 100 000 on every path, and to 300 000), with the standard
#   library rebuilt under the sanitizer (-Zbuild-std, which needs the
#   nightly rust-src component; installed here if missing). A data race
#   fails the run.
#
# Needs the nightly toolchain (as scripts/fuzz.sh does); builds into
# target/asan and target/tsan. Takes about 10 minutes on two cores.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! rustup run nightly rustc --version >/dev/null 2>&1; then
	echo "sanitizer-tests.sh: the nightly toolchain is missing (rustup toolchain install nightly)" >&2
	exit 1
fi
# --target keeps the sanitizers off build scripts and proc macros.
host=$(rustc -vV | sed -n 's/^host: //p')

echo "== the sequence module's unit tests, AddressSanitizer ($host)"
RUSTFLAGS="-Zsanitizer=address" CARGO_TARGET_DIR=target/asan \
	cargo +nightly test -p nimatron --target "$host" --lib sequence::
echo "== tests/grundy_sequences.rs, AddressSanitizer"
RUSTFLAGS="-Zsanitizer=address" CARGO_TARGET_DIR=target/asan \
	cargo +nightly test -p nimatron --target "$host" --test grundy_sequences

if ! rustup component list --toolchain nightly --installed | grep -q '^rust-src'; then
	echo "== installing the nightly rust-src component (for -Zbuild-std)"
	rustup component add rust-src --toolchain nightly
fi
echo "== the two-thread tests, ThreadSanitizer"
RUSTFLAGS="-Zsanitizer=thread" CARGO_TARGET_DIR=target/tsan \
	cargo +nightly test -Zbuild-std -p nimatron --target "$host" --test grundy_sequences -- \
	--test-threads=1 two_threads_equal_one_far_out every_vector_path_agrees_with_naive_to_100_000
