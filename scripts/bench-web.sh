#!/usr/bin/env bash
# The web benchmark of docs/benchmarks.md: load runs against `nimatron
# serve` with 200 concurrent players against the computer in Nim, then a
# load run in which the server is killed with SIGKILL, restarted, and every
# acknowledged move is looked up in the database.
#
# Usage: scripts/bench-web.sh [SECONDS]   (release build; not part of the tests)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-20}"
cargo build --release --locked -p nimatron-cli --bin nimatron -p nimatron-web --example load
bin=./target/release/nimatron
load=./target/release/examples/load
work="$(mktemp -d)"
server=""
cleanup() {
    if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

start_server() { # DB [extra flags...]
    local db="$1"; shift
    "$bin" serve --addr 127.0.0.1:0 --db "$db" "$@" >"$work/serve.log" 2>&1 &
    server=$!
    addr=""
    for _ in $(seq 1 100); do
        addr="$(grep -o '127\.0\.0\.1:[0-9]*' "$work/serve.log" | head -n 1 || true)"
        [ -n "$addr" ] && break
        sleep 0.1
    done
    [ -n "$addr" ] || { cat "$work/serve.log"; exit 1; }
}
stop_server() { kill "$server"; wait "$server" 2>/dev/null || true; server=""; }

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for think in 500 100 0; do
    start_server "$work/load-$think.sqlite3"
    echo "== 200 players, think time ${think} ms (uniform in [${think}/2, 3*${think}/2]), ${seconds} s"
    "$load" run --addr "$addr" --players 200 --seconds "$seconds" --think-ms "$think" 2>/dev/null
    stop_server
done
start_server "$work/load-full.sqlite3" --sync-full
echo "== 200 players, think time 0 ms, --sync-full, ${seconds} s"
"$load" run --addr "$addr" --players 200 --seconds "$seconds" 2>/dev/null
stop_server

echo "== SIGKILL in the middle of a load run"
db="$work/kill.sqlite3"
start_server "$db"
"$load" run --addr "$addr" --players 200 --seconds 60 --log "$work/acked.log" >"$work/load.txt" 2>/dev/null &
loader=$!
sleep 6
kill -KILL "$server"
wait "$server" 2>/dev/null || true
server=""
echo "server killed with SIGKILL after 6 s"
wait "$loader" || true
cat "$work/load.txt"
start_server "$db"
echo "restarted on the same database"
"$load" verify --db "$db" --log "$work/acked.log"
stop_server
