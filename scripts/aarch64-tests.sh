#!/usr/bin/env bash
# The library's Grundy-sequence tests built for aarch64 (the
# processor class of Apple silicon and Graviton, which has no x86 vectors,
# so only the `portable` and `none` paths) and run under QEMU's user-mode
# emulation. They check that those paths give the naive method's values
# there; QEMU's times say nothing about speed on real hardware.
#
# Installs what it needs on a fresh machine: rustup's aarch64 standard
# library, and Debian's gcc-aarch64-linux-gnu (the linker) and qemu-user.
# Where rustup cannot fetch the target, it says so and skips.
#
# Usage: scripts/aarch64-tests.sh
set -euo pipefail
cd "$(dirname "$0")/.."

target=aarch64-unknown-linux-gnu
if ! rustup target add "$target" >/dev/null 2>&1; then
    echo "== aarch64 tests skipped: rustup could not add the $target target"
    exit 0
fi
if [ ! -x /usr/bin/aarch64-linux-gnu-gcc ] || [ ! -x /usr/bin/qemu-aarch64 ]; then
    echo "== installing gcc-aarch64-linux-gnu and qemu-user"
    if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
    $sudo apt-get update
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y gcc-aarch64-linux-gnu qemu-user
fi

export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="qemu-aarch64 -L /usr/aarch64-linux-gnu"

start=$(date +%s)
# Only the sequence engine has code of its own per processor (its vector
# paths); the rest of the library is the same on every one.
echo "== aarch64 under qemu: the sequence engine's unit tests"
cargo test --locked -p nimatron --target "$target" --lib -- sequence::
echo "== aarch64 under qemu: tests/grundy_sequences.rs (every path against naive)"
cargo test --locked -p nimatron --target "$target" --test grundy_sequences
echo "== aarch64 tests took $(( $(date +%s) - start )) s"
