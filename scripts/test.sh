#!/usr/bin/env bash
# Every test: the Rust workspace, the Python package (built into a virtual
# environment), the census under GNU parallel, then the browser tests
# (these scripts install python3-venv, parallel, Chromium and
# playwright-core themselves on a fresh machine).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --workspace --locked
scripts/python-tests.sh
scripts/census-parallel-test.sh
scripts/browser-tests.sh
