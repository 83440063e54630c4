# Stages of a long test run, each announced with its name and the time, and
# a table at the end: every stage's result, time, and the tests it passed,
# failed and skipped, read from its output. Sourced by scripts/test.sh (and
# by scripts/tests/stages-test.sh, which runs it on fake stages).
#
#   stage NAME COMMAND [ARG...]   run one stage; a failure is recorded and
#                                 the run goes on to the next stage
#   stages_summary                print the table and a closing
#                                 'total: N passed, N failed, N skipped'
#                                 line; return 1 if a stage failed
#
# The counts are read from the lines test runners close with: cargo test's
# "test result: ... N passed; N failed; N ignored", pytest's
# "=== N passed, N skipped in ..." (or, with -q, "N passed in ..."), node
# --test's "ℹ pass N" (or TAP's "# pass N"), schemathesis's "N generated,
# N passed, N skipped" (or "N generated, N found N unique failures"), and a plain
# "N passed, N failed[, N skipped]" line. A stage that prints a line
# starting "SKIPPED:" (or, as scripts/aarch64-tests.sh does, "== ... skipped:")
# counts as skipped. STAGES_LOG_DIR (default: a temporary directory) keeps
# each stage's output.

STAGES_NAMES=()
STAGES_RESULTS=()
STAGES_SECONDS=()
STAGES_PASSED=()
STAGES_FAILED=()
STAGES_SKIPPED=()
STAGES_LOG_DIR="${STAGES_LOG_DIR:-$(mktemp -d)}"
STAGES_STARTED=$(date +%s)

# "m:ss" for a number of seconds.
stages_clock() {
    printf '%d:%02d' $(($1 / 60)) $(($1 % 60))
}

# Prints "PASSED FAILED SKIPPED" as read from the output in file $1.
stages_count() {
    # Colours are taken out first (a runner that thinks it writes to a
    # terminal adds them).
    sed 's/\x1b\[[0-9;]*m//g' "$1" | awk '
        /test result: / {
            for (i = 1; i <= NF; i++) {
                w = $(i + 1); sub(/[;,]$/, "", w)
                if (w == "passed") p += $i
                if (w == "failed") f += $i
                if (w == "ignored") s += $i
            }
            next
        }
        # pytest: "=== 40 passed, 2 skipped in 1.23s ===", or with -q
        # "261 passed in 27.61s".
        /^(=+ )?[0-9]+ (passed|failed|skipped|error|errors|xfailed|deselected)([ ,].*)? in [0-9.]+s/ {
            for (i = 1; i <= NF; i++) {
                w = $(i + 1); sub(/[;,]$/, "", w)
                if (w == "passed") p += $i
                if (w == "failed" || w == "error" || w == "errors") f += $i
                if (w == "skipped" || w == "xfailed" || w == "deselected") s += $i
            }
            next
        }
        # schemathesis: "  2629 generated, 2629 passed, 23 skipped", or with
        # failures "  2629 generated, 3 found 2 unique failures, 1 errored".
        /^ *[0-9]+ generated(, |$)/ {
            gen = $1; sp = 0; fl = 0; er = 0; sk = 0
            for (i = 2; i <= NF; i++) {
                w = $(i + 1); sub(/[;,]$/, "", w)
                if (w == "passed") sp = $i
                if (w == "found") fl = $i
                if (w == "errored") er = $i
                if (w == "skipped") sk = $i
            }
            p += (sp > 0 ? sp : gen - fl - er); f += fl + er; s += sk
            next
        }
        /^(ℹ|#) (pass|fail|skipped|todo) [0-9]+$/ {
            if ($2 == "pass") p += $3
            if ($2 == "fail") f += $3
            if ($2 == "skipped" || $2 == "todo") s += $3
            next
        }
        /^[A-Za-z]+: [0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$/ || /^[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$/ {
            for (i = 1; i <= NF; i++) {
                w = $(i + 1); sub(/[;,]$/, "", w)
                if (w == "passed") p += $i
                if (w == "failed") f += $i
                if (w == "skipped") s += $i
            }
            next
        }
        END { printf "%d %d %d\n", p, f, s }
    '
}

stage() {
    local name=$1
    shift
    local index=$((${#STAGES_NAMES[@]} + 1))
    local log
    log="$STAGES_LOG_DIR/$(printf '%02d' "$index")-$(printf '%s' "$name" | tr -c 'A-Za-z0-9_.-' '_').log"
    local start
    start=$(date +%s)
    echo
    echo "==== stage $index: $name (started $(date -u +%H:%M:%S) UTC, $(stages_clock $((start - STAGES_STARTED))) into the run)"
    local status=0
    # The stage's output goes to the terminal as it comes, and to its log.
    set +e
    ( "$@" ) 2>&1 | tee "$log"
    status=${PIPESTATUS[0]}
    set -e
    local took=$(($(date +%s) - start))
    local counts
    counts=$(stages_count "$log")
    local passed failed skipped
    read -r passed failed skipped <<<"$counts"
    local result
    if [ "$status" -ne 0 ]; then
        result="FAILED (exit $status)"
    elif grep -qE '^SKIPPED:|^== .*skipped:' "$log"; then
        result="skipped"
    else
        result="ok"
    fi
    echo "==== stage $index: $name: $result in $(stages_clock "$took")"
    STAGES_NAMES+=("$name")
    STAGES_RESULTS+=("$result")
    STAGES_SECONDS+=("$took")
    STAGES_PASSED+=("$passed")
    STAGES_FAILED+=("$failed")
    STAGES_SKIPPED+=("$skipped")
    return 0
}

stages_summary() {
    local i total_p=0 total_f=0 total_s=0 any_failed=0
    echo
    echo "==== summary ($(stages_clock $(($(date +%s) - STAGES_STARTED))) in all; logs in $STAGES_LOG_DIR)"
    printf '%-4s %-34s %-18s %7s %7s %7s %7s\n' "#" "stage" "result" "time" "passed" "failed" "skipped"
    for i in "${!STAGES_NAMES[@]}"; do
        printf '%-4s %-34s %-18s %7s %7s %7s %7s\n' "$((i + 1))" "${STAGES_NAMES[$i]}" "${STAGES_RESULTS[$i]}" \
            "$(stages_clock "${STAGES_SECONDS[$i]}")" "${STAGES_PASSED[$i]}" "${STAGES_FAILED[$i]}" "${STAGES_SKIPPED[$i]}"
        total_p=$((total_p + STAGES_PASSED[i]))
        total_f=$((total_f + STAGES_FAILED[i]))
        total_s=$((total_s + STAGES_SKIPPED[i]))
        case "${STAGES_RESULTS[$i]}" in FAILED*) any_failed=1 ;; esac
    done
    # A stage that failed without a failing test (a build error, a crash)
    # still counts as one failure in the closing line.
    for i in "${!STAGES_NAMES[@]}"; do
        case "${STAGES_RESULTS[$i]}" in
            FAILED*) if [ "${STAGES_FAILED[$i]}" -eq 0 ]; then total_f=$((total_f + 1)); fi ;;
        esac
    done
    echo "total: $total_p passed, $total_f failed, $total_s skipped"
    return "$any_failed"
}
