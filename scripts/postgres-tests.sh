#!/usr/bin/env bash
# The PostgreSQL tests (issue #54), against a real PostgreSQL: a throw-away
# cluster in a temporary directory, run by an unprivileged user, stopped and
# removed at the end (on failure too).
#
#   1. the storage suite (tests/store.rs) against PostgreSQL: the same tests
#      that `cargo test` runs against SQLite;
#   2. the API's seat, take-back, resign, consent and rematch tests and the
#      racing clients (tests/actions.rs, tests/concurrency.rs) on PostgreSQL;
#   3. two app servers on one database (tests/multi_server.rs): moves
#      serialised across servers, live updates between them within 100 ms;
#      a bad database URL refused at start;
#   4. `nimatron db migrate` from SQLite, and the kill test: two debug-build
#      servers under the load generator, one killed with SIGKILL and
#      PostgreSQL restarted with `pg_ctl restart -m immediate` in the middle,
#      then more players on the server left; every acknowledged move must
#      then be in the database.
#
# Installs Debian's `postgresql` with apt if its server programs are missing
# (scripts/lib/postgres.sh). Run as root (as CI is), the cluster runs as the
# `postgres` system user the package makes (or `nobody`): initdb refuses
# root; otherwise as the caller. About 2-4 minutes
# once built. Usage: scripts/postgres-tests.sh
set -euo pipefail
cd "$(dirname "$0")/.."

. scripts/lib/postgres.sh
pg_setup

work="$(mktemp -d)"
servers=()

cleanup() {
    local status=$?
    for p in "${servers[@]}"; do kill "$p" 2>/dev/null || true; done
    pg_stop
    if [ "$status" -ne 0 ] && [ -f "$work/postgres.log" ]; then
        echo "-- the end of PostgreSQL's log:"
        tail -n 20 "$work/postgres.log"
    fi
    rm -rf "$work"
}
trap cleanup EXIT

pg_start "$work"
echo "== a throw-away cluster in $work, port $pg_port"
port="$pg_port"
admin="$pg_admin"
psql() { pg_psql "$@"; }

export NIMATRON_TEST_POSTGRES="$admin"
echo "== the storage suite, the API's actions and racing clients, two servers: on PostgreSQL"
cargo test -p nimatron-web --locked --test store --test actions --test concurrency -- --test-threads 4
# --nocapture: the live-update test prints the delays it measured.
cargo test -p nimatron-web --locked --test multi_server -- --test-threads 4 --nocapture

echo "== nimatron db migrate, and the kill test with two servers"
cargo build -p nimatron-cli --bin nimatron -p nimatron-web --example load --locked -q
bin=./target/debug/nimatron
load=./target/debug/examples/load

# A SQLite database with games in it, moved to PostgreSQL.
sqlite="$work/site.sqlite3"
"$bin" serve --addr 127.0.0.1:0 --db "$sqlite" >"$work/sqlite-serve.log" 2>&1 &
servers+=($!)
addr=""
for _ in $(seq 1 300); do
    addr="$(grep -o '127\.0\.0\.1:[0-9]*' "$work/sqlite-serve.log" | head -n 1 || true)"
    [ -n "$addr" ] && break
    sleep 0.1
done
[ -n "$addr" ] || { cat "$work/sqlite-serve.log"; exit 1; }
"$load" run --addr "$addr" --players 8 --seconds 3 --log "$work/sqlite-acked.log" >/dev/null 2>&1
kill "${servers[0]}"; wait "${servers[0]}" 2>/dev/null || true
servers=()
psql -d postgres -c "CREATE DATABASE migrated"
migrated="postgres://nimatron@127.0.0.1:$port/migrated"
"$bin" db migrate --from "$sqlite" --to "$migrated" | tee "$work/migrate.txt"
grep -q '^copied [1-9][0-9]* games' "$work/migrate.txt"
"$load" verify --db "$migrated" --log "$work/sqlite-acked.log"
"$bin" db migrate --from "$sqlite" --to "$migrated" | grep -q '^copied 0 games.*[1-9][0-9]* already there'

# Two servers, one database; one killed, PostgreSQL restarted.
psql -d postgres -c "CREATE DATABASE killtest"
# What the tests above wrote, on the disk now: the restart's recovery then
# has this run's changes alone to replay and sync.
psql -d postgres -c "CHECKPOINT"
url="postgres://nimatron@127.0.0.1:$port/killtest"
start_server() { # LOG: sets $addr
    "$bin" serve --addr 127.0.0.1:0 --db "$url" >"$1" 2>&1 &
    servers+=($!)
    addr=""
    for _ in $(seq 1 300); do
        addr="$(grep -o '127\.0\.0\.1:[0-9]*' "$1" | head -n 1 || true)"
        [ -n "$addr" ] && break
        sleep 0.1
    done
    [ -n "$addr" ] || { cat "$1"; exit 1; }
}
start_server "$work/a.log"
a="$addr"
start_server "$work/b.log"
b="$addr"
"$load" run --addr "$a,$b" --players 40 --seconds 12 --think-ms 20 --log "$work/acked.log" >"$work/load.txt" 2>/dev/null &
loader=$!
sleep 4
kill -KILL "${servers[0]}"
echo "server A killed with SIGKILL"
sleep 2
restart_began=$SECONDS
pg_restart_immediate
at_restart="$(psql -d killtest -At -c 'SELECT count(*) FROM moves')"
echo "PostgreSQL restarted with -m immediate, back after $((SECONDS - restart_began)) s ($at_restart moves stored)"
wait "$loader"
cat "$work/load.txt"
# Then more players on server B, which must carry on without a restart of
# its own.
"$load" run --addr "$b" --players 20 --seconds 5 --think-ms 20 --log "$work/acked-after.log" 2>/dev/null
"$load" verify --db "$url" --log "$work/acked.log" | tee "$work/verify.txt"
grep -q 'missing or different: 0;' "$work/verify.txt"
"$load" verify --db "$url" --log "$work/acked-after.log" | tee "$work/verify-after.txt"
grep -q 'missing or different: 0;' "$work/verify-after.txt"
at_end="$(psql -d killtest -At -c 'SELECT count(*) FROM moves')"
echo "moves stored after the restart: $((at_end - at_restart))"
[ -s "$work/acked-after.log" ] && [ "$at_end" -gt "$at_restart" ] ||
    { echo "server B stored no move after PostgreSQL's restart" >&2; exit 1; }
echo "scripted: 2 passed, 0 failed"
