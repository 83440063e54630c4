#!/usr/bin/env bash
# The web benchmark of docs/benchmarks.md: load runs against `nimatron
# serve` with 200 concurrent players against the computer in Nim, then a
# load run in which the server is killed with SIGKILL, restarted, and every
# acknowledged move is looked up in the database; then the hostile-load runs
# of issue #50: normal players while attackers run each of its points 1-5,
# with the players' latency and the server's peak memory (VmHWM) under each.
#
# With `postgres` (issue #54), only this: 200 players thinking 50-150 ms,
# alternately against one server on SQLite and two servers on one
# PostgreSQL (a throw-away cluster, scripts/lib/postgres.sh), three rounds
# each, then once each with no think time; with the CPU time that the app
# servers, PostgreSQL and the load generator took in each run. Then how soon
# a watcher on one server hears of a move on the other
# (scripts/live-latency.py), and a kill run: two servers, one killed with
# SIGKILL, PostgreSQL restarted with `pg_ctl restart -m immediate`.
#
# Usage: scripts/bench-web.sh [SECONDS] [hostile|postgres]   (release
# build; not part of the tests). With `hostile` or `postgres`, only those
# runs.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-20}"
only="${2:-all}"
cargo build --release --locked -p nimatron-cli --bin nimatron -p nimatron-web --example load
bin=./target/release/nimatron
load=./target/release/examples/load
work="$(mktemp -d)"
server=""
others=()
cleanup() {
    if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
    for p in "${others[@]}"; do kill "$p" 2>/dev/null || true; done
    if [ "$only" = "postgres" ]; then pg_stop; fi
    rm -rf "$work"
}
trap cleanup EXIT

started=0
start_server() { # DB [extra flags...]
    local db="$1"; shift
    started=$((started + 1))
    local log="$work/serve-$started.log"
    "$bin" serve --addr 127.0.0.1:0 --db "$db" "$@" >"$log" 2>&1 &
    server=$!
    addr=""
    for _ in $(seq 1 100); do
        addr="$(grep -o '127\.0\.0\.1:[0-9]*' "$log" | head -n 1 || true)"
        [ -n "$addr" ] && break
        sleep 0.1
    done
    [ -n "$addr" ] || { cat "$log"; exit 1; }
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

# CPU time (seconds, user + system) the processes PIDS... have used so far.
cpu_seconds() {
    local ticks=0 p
    for p in "$@"; do
        if [ -r "/proc/$p/stat" ]; then
            ticks=$((ticks + $(sed 's/.*) //' "/proc/$p/stat" | awk '{print $12 + $13}')))
        fi
    done
    echo "$ticks $(getconf CLK_TCK)" | awk '{printf "%.2f", $1 / $2}'
}

if [ "$only" = "postgres" ]; then
    . scripts/lib/postgres.sh
    pg_setup
    chmod 755 "$work" # the cluster's user passes through it
    mkdir "$work/pg"
    pg_start "$work/pg"
    echo "PostgreSQL settings: $(pg_psql -d postgres -At -c "SELECT string_agg(name || '=' || setting, ', ') FROM pg_settings WHERE name IN ('fsync', 'synchronous_commit', 'shared_buffers', 'wal_level')")"
    pg_pids() { # the postmaster and its children
        local pm
        pm="$(head -n 1 "$pg_data/postmaster.pid")"
        echo "$pm $(pgrep -P "$pm" | xargs)"
    }
    # One load run against the servers at ADDRS (comma-separated) whose
    # pids are SERVER_PIDS, with the CPU each part took.
    measured_run() { # LABEL THINK ADDRS SERVER_PIDS
        local label="$1" think="$2" addrs="$3" spids="$4" s0 p0 s1 p1 l1
        echo "== $label: 200 players, think ${think} ms (uniform in [${think}/2, 3*${think}/2]), ${seconds} s; load average $(cut -d' ' -f1 /proc/loadavg)"
        s0="$(cpu_seconds $spids)"
        p0="$(cpu_seconds $(pg_pids))"
        s1="$s0" p1="$p0" l1=0
        "$load" run --addr "$addrs" --players 200 --seconds "$seconds" --think-ms "$think" >"$work/run.txt" 2>/dev/null &
        local loader=$!
        others+=("$loader")
        while kill -0 "$loader" 2>/dev/null; do
            l1="$(cpu_seconds "$loader")"
            s1="$(cpu_seconds $spids)"
            p1="$(cpu_seconds $(pg_pids))"
            sleep 0.5
        done
        wait "$loader"
        cat "$work/run.txt"
        echo "CPU seconds in the run: app servers $(echo "$s1 $s0" | awk '{printf "%.1f", $1 - $2}'), PostgreSQL $(echo "$p1 $p0" | awk '{printf "%.1f", $1 - $2}'), load generator ${l1} (2 cores x ${seconds} s = $((2 * seconds)))"
    }
    sqlite_round() { # THINK N
        start_server "$work/sqlite-$2.sqlite3"
        measured_run "SQLite, one server" "$1" "$addr" "$server"
        stop_server
    }
    postgres_round() { # THINK N
        pg_psql -d postgres -c "CREATE DATABASE bench_$2"
        local url="postgres://nimatron@127.0.0.1:$pg_port/bench_$2" a b pa
        start_server "$url"
        a="$addr"
        pa="$server"
        others+=("$pa")
        server=""
        start_server "$url"
        b="$addr"
        measured_run "PostgreSQL, two servers" "$1" "$a,$b" "$pa $server"
        stop_server
        kill "$pa"
        wait "$pa" 2>/dev/null || true
    }
    for round in 1 2 3; do
        sqlite_round 100 "$round"
        postgres_round 100 "$round"
    done
    sqlite_round 0 sat
    postgres_round 0 sat

    echo "== live updates between two servers on PostgreSQL, no other load; load average $(cut -d' ' -f1 /proc/loadavg)"
    pg_psql -d postgres -c "CREATE DATABASE bench_live"
    start_server "postgres://nimatron@127.0.0.1:$pg_port/bench_live"
    a="$addr"
    pa="$server"
    others+=("$pa")
    start_server "postgres://nimatron@127.0.0.1:$pg_port/bench_live"
    python3 scripts/live-latency.py "$a" "$addr" 250
    stop_server
    kill "$pa"
    wait "$pa" 2>/dev/null || true

    echo "== two servers on PostgreSQL, 200 players (think 0), 30 s: server A killed with SIGKILL after 6 s, PostgreSQL restarted with -m immediate after 10 s"
    pg_psql -d postgres -c "CREATE DATABASE bench_kill"
    pg_psql -d postgres -c "CHECKPOINT"
    url="postgres://nimatron@127.0.0.1:$pg_port/bench_kill"
    start_server "$url"
    a="$addr"
    pa="$server"
    others+=("$pa")
    start_server "$url"
    b="$addr"
    "$load" run --addr "$a,$b" --players 200 --seconds 30 --log "$work/acked.log" >"$work/load.txt" 2>/dev/null &
    loader=$!
    others+=("$loader")
    sleep 6
    kill -KILL "$pa"
    wait "$pa" 2>/dev/null || true
    sleep 4
    restart_began=$SECONDS
    pg_restart_immediate
    echo "PostgreSQL back after $((SECONDS - restart_began)) s"
    at_restart="$(pg_psql -d bench_kill -At -c 'SELECT count(*) FROM moves')"
    wait "$loader" || true
    cat "$work/load.txt"
    echo "moves stored after the restart: $(($(pg_psql -d bench_kill -At -c 'SELECT count(*) FROM moves') - at_restart))"
    "$load" verify --db "$url" --log "$work/acked.log"
    stop_server
    exit 0
fi

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
