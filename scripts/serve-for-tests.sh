# Sourced by the scripts that test a live server (browser-tests.sh,
# schemathesis.sh): `start_server BINARY LOG` starts `BINARY serve` on a
# free loopback port with a fresh database in a temporary directory, waits
# until it prints its URL, and sets `$url` (and `$server`, its process). The
# server is stopped and its database removed when the calling script exits.
# If the server dies or prints no URL, its log is shown and the script exits 1.

start_server() {
    local binary="$1" log="$2"
    server_work="$(mktemp -d)"
    "$binary" serve --addr 127.0.0.1:0 --db "$server_work/tests.sqlite3" >"$log" 2>&1 &
    server=$!
    trap stop_server EXIT
    url=""
    for _ in $(seq 1 200); do
        url="$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$log" | head -n 1 || true)"
        [ -n "$url" ] && return 0
        if ! kill -0 "$server" 2>/dev/null; then
            cat "$log" >&2
            echo "the server did not start" >&2
            exit 1
        fi
        sleep 0.1
    done
    cat "$log" >&2
    echo "the server printed no URL" >&2
    exit 1
}

stop_server() {
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
    rm -rf "$server_work"
}
