#!/usr/bin/env bash
# The web benchmark of docs/benchmarks.md: load runs against `nimatron
# serve` with 200 concurrent players against the computer in Nim, then a
# load run in which the server is killed with SIGKILL, restarted, and every
# acknowledged move is looked up in the database; then the hostile-load runs
# of issue #50: normal players while attackers run each of its points 1-5,
# with the players' latency and the server's peak memory (VmHWM) under each.
#
# Usage: scripts/bench-web.sh [SECONDS] [hostile]   (release build; not part
# of the tests). With `hostile`, only the hostile-load runs.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-20}"
only="${2:-all}"
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

hostile() { # KIND CLIENTS: normal players while CLIENTS attackers run KIND
    local kind="$1" clients="$2"
    start_server "$work/hostile-$kind.sqlite3"
    echo "== hostile: $clients clients '$kind' against 100 players (think 500 ms), ${seconds} s"
    "$load" attack --addr "$addr" --kind "$kind" --clients "$clients" --seconds "$seconds" >"$work/attack.txt" 2>&1 &
    local attacker=$!
    sleep 1
    "$load" run --addr "$addr" --players 100 --seconds "$((seconds - 2))" --think-ms 500 2>/dev/null
    wait "$attacker" || true
    cat "$work/attack.txt"
    echo "server peak memory (VmHWM): $(grep VmHWM /proc/$server/status | awk '{print $2, $3}')"
    stop_server
}

if [ "$only" = "hostile" ]; then
    # Many sockets at once (the slow attack, the players).
    ulimit -n 65536 2>/dev/null || true
    hostile huge-analysis 8
    hostile big-views 6
    hostile analyses 24
    hostile game-analysis 8
    hostile slow 20
    exit 0
fi

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

ulimit -n 65536 2>/dev/null || true
hostile huge-analysis 8
hostile big-views 6
hostile analyses 24
hostile game-analysis 8
hostile slow 20
