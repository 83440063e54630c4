#!/usr/bin/env bash
# A test of scripts/lib/stages.sh, the stage machinery of scripts/test.sh:
# fake stages that pass, fail, skip and print each test runner's closing
# lines, then checks of the headers, the summary table, the totals and the
# exit status. Ends with 'stages test: N passed, N failed'.
set -euo pipefail
cd "$(dirname "$0")/../.."

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The fake run, in its own shell so that its summary's status is ours to read.
cat >"$work/run.sh" <<'RUN'
set -euo pipefail
. scripts/lib/stages.sh
cargo_like() {
    echo "running 3 tests"
    echo "test result: ok. 3 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.01s"
    echo "test result: ok. 12 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.20s"
}
pytest_like() {
    echo "tests/test_a.py ....s"
    echo "========================= 40 passed, 2 skipped in 1.23s ========================="
}
node_like() {
    printf 'ℹ tests 9\nℹ pass 8\nℹ fail 0\nℹ skipped 1\n'
}
failing() {
    echo "test result: FAILED. 4 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s"
    return 101
}
crashing() {
    echo "error: could not compile"
    return 3
}
skipping() {
    echo "== aarch64 tests skipped: rustup could not add the target"
}
plain() {
    echo "census: 5 passed, 0 failed"
}
pytest_quiet_like() {
    echo "........................................................................ [ 27%]"
    echo "261 passed in 27.61s"
    echo "python package: every check passed"
}
schemathesis_like() {
    printf '\033[1mTest cases:\033[0m\n'
    printf '  \033[1m2629\033[0m generated, \033[1m2629\033[0m passed, \033[1m23\033[0m skipped\n'
    echo "============================= 1 warning in 67.81s =============================="
}
schemathesis_failing() {
    echo "Test cases:"
    echo "  100 generated, 4 found 2 unique failures, 1 errored, 3 skipped"
    echo "=================== 2 failures, 1 warning in 9.00s ==================="
    return 1
}
stage "cargo-like" cargo_like
stage "pytest-like" pytest_like
stage "node-like" node_like
stage "failing" failing
stage "crashing" crashing
stage "skipping" skipping
stage "plain" plain
stage "pytest-quiet" pytest_quiet_like
stage "schemathesis" schemathesis_like
stage "schemathesis-failing" schemathesis_failing
stages_summary
RUN

status=0
bash "$work/run.sh" >"$work/out" 2>&1 || status=$?

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
has() { grep -qE -- "$1" "$work/out"; }
# A row of the table with its time (which depends on the machine) as T.
row() { grep -E "^$1 +$2 " "$work/out" | tr -s ' ' | sed -E 's/ [0-9]+:[0-9]{2} / T /'; }

check "the run fails when a stage failed" test "$status" -eq 1
check "each stage is announced with its number, name and time" \
    has '^==== stage 4: failing \(started [0-9]{2}:[0-9]{2}:[0-9]{2} UTC, [0-9]+:[0-9]{2} into the run\)$'
check "each stage's end says its result and time" has '^==== stage 1: cargo-like: ok in 0:0[0-9]$'
check "a stage's own output is shown" has '^tests/test_a.py \.\.\.\.s$'
check "the table has a header" has '^# +stage +result +time +passed +failed +skipped$'
check "cargo's counts are summed, ignored counting as skipped" \
    test "$(row 1 cargo-like)" = "1 cargo-like ok T 15 0 1"
check "pytest's closing line is read" test "$(row 2 pytest-like)" = "2 pytest-like ok T 40 0 2"
check "node's closing lines are read" test "$(row 3 node-like)" = "3 node-like ok T 8 0 1"
check "a failing stage shows its exit status and failures" \
    test "$(row 4 failing)" = "4 failing FAILED (exit 101) T 4 2 0"
check "a stage that fails without tests is marked failed" \
    test "$(row 5 crashing)" = "5 crashing FAILED (exit 3) T 0 0 0"
check "a stage that says it skipped is marked skipped" \
    test "$(row 6 skipping)" = "6 skipping skipped T 0 0 0"
check "a plain 'N passed, N failed' line is read" test "$(row 7 plain)" = "7 plain ok T 5 0 0"
check "pytest's quiet closing line is read" test "$(row 8 pytest-quiet)" = "8 pytest-quiet ok T 261 0 0"
check "schemathesis's test cases are read, colours and all" \
    test "$(row 9 schemathesis)" = "9 schemathesis ok T 2629 0 23"
check "schemathesis's failures and errors count as failed" \
    test "$(row 10 schemathesis-failing)" = "10 schemathesis-failing FAILED (exit 1) T 95 5 3"
check "the run went on past the failures to the last stage" has '^==== stage 10: schemathesis-failing: '
# 15 + 40 + 8 + 4 + 5 + 261 + 2629 + 95 passed; 2 + 5 failed tests and one
# crashed stage; 1 + 2 + 1 + 23 + 3 skipped.
check "the closing line totals every stage" has '^total: 3057 passed, 8 failed, 30 skipped$'

# And test.sh itself refuses an option it does not know, saying what it takes.
usage_status=0
scripts/test.sh --fast >"$work/usage" 2>&1 || usage_status=$?
check "an unknown option exits 2" test "$usage_status" -eq 2
check "and names --quick" grep -q -- "--quick" "$work/usage"

if [ "$failed" -ne 0 ]; then
    echo "--- the fake run's output:" >&2
    cat "$work/out" >&2
fi
echo "stages test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
