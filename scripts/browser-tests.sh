#!/usr/bin/env bash
# Browser tests of `nimatron serve` in real headless Chromium.
#
# Installs what they need on a fresh machine (Debian's chromium package and,
# from package-lock.json, playwright-core), builds the binary, starts the
# server on a free loopback port with a fresh database, runs the tests in
# tests/browser/ with `node --test`, and stops the server. A screenshot is
# left in target/browser/.
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
work="$(mktemp -d)"
log="target/browser/server.log"
./target/debug/nimatron serve --addr 127.0.0.1:0 --db "$work/browser-tests.sqlite3" >"$log" 2>&1 &
server=$!
stop() {
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
    rm -rf "$work"
}
trap stop EXIT

url=""
for _ in $(seq 1 200); do
    url="$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$log" | head -n 1 || true)"
    [ -n "$url" ] && break
    if ! kill -0 "$server" 2>/dev/null; then
        cat "$log" >&2
        echo "the server did not start" >&2
        exit 1
    fi
    sleep 0.1
done
if [ -z "$url" ]; then
    cat "$log" >&2
    echo "the server printed no URL" >&2
    exit 1
fi

echo "== browser tests against $url"
NIMATRON_URL="$url" node --test --test-concurrency=1 tests/browser/
echo "== screenshot: target/browser/play-with-analysis.png"
