#!/usr/bin/env bash
# Every test: the Rust workspace, the Python package (built into a virtual
# environment), the census under GNU parallel, the browser tests, then a
# short schemathesis run against the web API (these scripts install
# python3-venv, parallel, Chromium, playwright-core and schemathesis
# themselves on a fresh machine).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --workspace --locked
scripts/python-tests.sh
scripts/census-parallel-test.sh
scripts/browser-tests.sh
scripts/schemathesis.sh 100
