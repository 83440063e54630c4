#!/usr/bin/env bash
# Every test: the Rust workspace, then the browser tests (which install
# Chromium and playwright-core themselves on a fresh machine).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --workspace --locked
scripts/browser-tests.sh
