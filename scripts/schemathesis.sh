#!/usr/bin/env bash
# schemathesis against a live `nimatron serve`, driven by the server's own
# OpenAPI document (/api/openapi.json).
#
#   scripts/schemathesis.sh [EXAMPLES_PER_OPERATION]   (default 100)
#
# Installs what it needs on a fresh machine: Debian's python3-venv if
# Python cannot make a virtual environment, then the pinned schemathesis of
# scripts/schemathesis-requirements.txt into target/schemathesis-venv. Builds
# the binary, starts the server on a free loopback port with a fresh
# database, runs every operation of the document in every phase
# (examples, coverage, fuzzing, stateful) with the checks below, and stops
# the server. A JUnit report and the server's log are left in
# target/schemathesis/. Extra arguments after the count go to
# `schemathesis run` (e.g. --seed 1, --include-path /api/analyze).
set -euo pipefail
cd "$(dirname "$0")/.."

examples="${1:-100}"
shift || true
out="target/schemathesis"
venv="target/schemathesis-venv"
requirements="scripts/schemathesis-requirements.txt"

if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
if ! command -v python3 >/dev/null || ! python3 -c 'import venv, ensurepip' 2>/dev/null; then
    echo "== installing python3-venv"
    $sudo apt-get update
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y python3 python3-venv
fi
if ! cmp -s "$requirements" "$venv/requirements.txt"; then
    echo "== installing schemathesis into $venv"
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$requirements"
    cp "$requirements" "$venv/requirements.txt"
fi
"$venv/bin/schemathesis" --version

echo "== cargo build"
cargo build --locked -p nimatron-cli --bin nimatron
binary="${CARGO_TARGET_DIR:-target}/debug/nimatron"

mkdir -p "$out"
log="$out/server.log"
. scripts/serve-for-tests.sh
start_server "$binary" "$log"

# Real identifiers for the run (see scripts/schemathesis.toml), so that
# generated requests reach the operations instead of bouncing off as 404
# (no such game) or 409 (not now): an online game of Nim, so that joining
# and the analysis consent apply (its id, its creator's token, its invite);
# a game against the computer whose player has moved and left the
# computer to move (for POST .../computer-move); a game at one screen a
# dozen moves in (for POST .../undo); and a finished one (for POST
# .../rematch), each with its seat token.
eval "$(
    "$venv/bin/python" - "$url" <<'PY'
import json, shlex, sys, urllib.request

url = sys.argv[1]


def post(path, body, token=None):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = "Bearer " + token
    request = urllib.request.Request(
        url + path, data=json.dumps(body).encode(), headers=headers, method="POST"
    )
    return json.load(urllib.request.urlopen(request, timeout=30))


def export(name, value):
    print(f"export {name}={shlex.quote(value)}")


online = post("/api/games", {"game": "nim", "opponent": "online"})
export("NIMATRON_GAME_ID", online["game"]["id"])
export("NIMATRON_SEAT_TOKEN", online["token"])
export("NIMATRON_INVITE", online["invite"])

computer = post("/api/games", {"game": "nim", "position": "9 9 9", "opponent": "computer"})
cid, ctoken = computer["game"]["id"], computer["token"]
post(f"/api/games/{cid}/moves", {"move": "A 1", "reply": False}, ctoken)
export("NIMATRON_COMPUTER_GAME", cid)
export("NIMATRON_COMPUTER_TOKEN", ctoken)

local = post("/api/games", {"game": "nim", "position": "9 9 9 9", "opponent": "local"})
lid, ltoken = local["game"]["id"], local["token"]
for heap in "ABCD":
    for _ in range(3):
        post(f"/api/games/{lid}/moves", {"move": f"{heap} 1"}, ltoken)
export("NIMATRON_UNDO_GAME", lid)
export("NIMATRON_UNDO_TOKEN", ltoken)

over = post("/api/games", {"game": "nim", "position": "3 4 5", "opponent": "local"})
oid, otoken = over["game"]["id"], over["token"]
post(f"/api/games/{oid}/resign", {}, otoken)
export("NIMATRON_OVER_GAME", oid)
export("NIMATRON_OVER_TOKEN", otoken)
PY
)"
echo "== games for the run: online $NIMATRON_GAME_ID, computer $NIMATRON_COMPUTER_GAME, one screen $NIMATRON_UNDO_GAME, finished $NIMATRON_OVER_GAME"

# The checks: no 5xx; every status, content type, header and body as the
# document says; malformed requests refused with a 4xx; methods the
# document does not list refused with 405; a move without its seat token
# refused.
checks="not_a_server_error,status_code_conformance,content_type_conformance"
checks="$checks,response_headers_conformance,response_schema_conformance"
checks="$checks,negative_data_rejection,missing_required_header"
checks="$checks,unsupported_method,ignored_auth"

# One worker: with two, schemathesis's generator sometimes failed inside
# Python 3.11's own parser ("AST constructor recursion depth mismatch"),
# a fault of the tool, not of the server.
echo "== schemathesis against $url ($examples examples per operation)"
start=$(date +%s)
status=0
"$venv/bin/schemathesis" --config-file scripts/schemathesis.toml \
    run "$url/api/openapi.json" \
    --checks "$checks" \
    --max-examples "$examples" \
    --workers 1 \
    --request-timeout 20 \
    --report junit --report-dir "$out" \
    "$@" || status=$?
echo "== schemathesis took $(( $(date +%s) - start )) s (exit $status)"
if ! kill -0 "$server" 2>/dev/null; then
    echo "the server died during the run; its log is $log" >&2
    exit 1
fi
exit "$status"
