#!/usr/bin/env bash
# The GNU parallel recipe of docs/census.md, run for real: a census of the
# 3-digit octal codes to n = 1000 in 4 shards under `parallel`, merged, must
# equal the unsharded census byte for byte (Markdown and JSON).
#
# Installs Debian's `parallel` if it is missing, and builds the binary.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v parallel >/dev/null 2>&1; then
    echo "== installing parallel"
    if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
    $sudo apt-get update
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y parallel
fi

echo "== cargo build"
cargo build --locked -p nimatron-cli --bin nimatron
nimatron="$PWD/target/debug/nimatron"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"

echo "== 4 shards under GNU parallel"
parallel --will-cite --halt now,fail=1 -j 2 \
    "$nimatron" census --digits 3 --to 1000 --shard {}/4 --out shard-{}.jsonl ::: 1 2 3 4
"$nimatron" census merge shard-*.jsonl --out merged.md
"$nimatron" census merge --json shard-*.jsonl --out merged.json

echo "== the unsharded census"
"$nimatron" census --digits 3 --to 1000 >whole.md
"$nimatron" census --digits 3 --to 1000 --json >whole.json

# Each check counted, so that the run's summary shows them.
passed=0
failed=0
check() {
    local what=$1
    shift
    if "$@"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAILED: $what" >&2
    fi
}
lines="$(cat shard-*.jsonl | wc -l)"
check "the shards hold 512 records (found $lines)" test "$lines" -eq 512
check "the merged Markdown table equals the unsharded one" cmp merged.md whole.md
check "the merged JSON table equals the unsharded one" cmp merged.json whole.json
for shard in 1 2 3 4; do
    check "shard $shard/4 wrote its 128 codes" test "$(wc -l <shard-$shard.jsonl)" -eq 128
done
echo "census: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
echo "== census under GNU parallel: 512 codes, merged table equals the unsharded one"
