#!/usr/bin/env bash
# Browser tests of `nimatron serve` in real headless Chromium.
#
# Installs what they need on a fresh machine (Debian's chromium package and,
# from package-lock.json, playwright-core), builds the binary, starts the
# server on a free loopback port with a fresh database, runs the tests in
# tests/browser/ with `node --test`, and stops the server. A screenshot is
# left in target/browser/. Two of the tests need no browser: modules.test.js
# (no circle of imports among the page's modules) and types.test.js
# (`tsc --checkJs` over them, with crates/nimatron-web/assets/tsconfig.json).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x /usr/bin/chromium ]; then
    echo "== installing chromium"
    if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
    $sudo apt-get update
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y chromium
fi

echo "== npm ci"
npm ci --no-audit --no-fund

echo "== cargo build"
cargo build --locked -p nimatron-cli --bin nimatron

mkdir -p target/browser
log="target/browser/server.log"
. scripts/serve-for-tests.sh
start_server "${CARGO_TARGET_DIR:-target}/debug/nimatron" "$log"

echo "== browser tests against $url"
NIMATRON_URL="$url" node --test --test-concurrency=1 tests/browser/
echo "== screenshot: target/browser/play-with-analysis.png"
