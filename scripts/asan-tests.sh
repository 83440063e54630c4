#!/usr/bin/env bash
# The library's unsafe code under AddressSanitizer: the vector paths, the
# candidate compares and the two-thread relay of the Grundy engine (all of
# it is in crates/nimatron/src/sequence/). Runs the sequence module's unit
# tests and tests/grundy_sequences.rs, which check every vector path this
# processor has against the plain mex, on one and two threads. Any read or
# write outside a buffer, use after free or leak is reported and fails the
# run. Needs the nightly toolchain (as scripts/fuzz.sh does); builds into
# target/asan. Takes a few minutes.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! rustup run nightly rustc --version >/dev/null 2>&1; then
	echo "asan-tests.sh: the nightly toolchain is missing (rustup toolchain install nightly)" >&2
	exit 1
fi
# --target keeps the sanitizer off build scripts and proc macros.
host=$(rustc -vV | sed -n 's/^host: //p')
export RUSTFLAGS="-Zsanitizer=address" CARGO_TARGET_DIR=target/asan
echo "== the sequence module's unit tests, AddressSanitizer ($host)"
cargo +nightly test -p nimatron --target "$host" --lib sequence::
echo "== tests/grundy_sequences.rs, AddressSanitizer"
cargo +nightly test -p nimatron --target "$host" --test grundy_sequences
