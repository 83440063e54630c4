#!/usr/bin/env bash
# Every test: the Rust workspace, the Grundy engine's tests built for aarch64
# and run under qemu, the Python package (built into a virtual environment),
# the census under GNU parallel, the browser tests, then a short
# schemathesis run against the web API (these scripts install the aarch64
# target, its linker and qemu-user, python3-venv, parallel, Chromium,
# playwright-core and schemathesis themselves on a fresh machine).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --workspace --locked
scripts/aarch64-tests.sh
scripts/python-tests.sh
scripts/census-parallel-test.sh
scripts/browser-tests.sh
scripts/schemathesis.sh 100
