#!/usr/bin/env bash
# Run the fuzz targets in fuzz/ with libFuzzer on the nightly toolchain, each
# for SECONDS (default 60), and print executions and crashes per target.
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]
#
# Environment:
#   RUNS=N         stop each target after N executions instead of after
#                  SECONDS (SECONDS is then ignored; give 0)
#   SANITIZER=S    address (the default) or none; without AddressSanitizer
#                  the targets run about five times faster, and libFuzzer
#                  can no longer see a single large allocation (only the
#                  process's resident memory, limited to 2 GB)
#   TRACE_COMPARES=no
#                  build without libFuzzer's tracing of comparisons (faster;
#                  libFuzzer then no longer learns the values compared
#                  against)
#   LOGS=DIR       keep each target's whole libFuzzer log as DIR/TARGET.log
#   FORK=N         run N fuzzing processes side by side (libFuzzer's
#                  -fork=N, one per core); RUNS then counts the executions
#                  of all of them, and the run stops at the first crash.
#                  Each process is short-lived and starts by running its
#                  share of the corpus, which costs much where inputs are
#                  slow (web_api), so
#   JOBS=N         is the other way: N long-lived processes on one corpus
#                  (libFuzzer's -jobs=N -workers=N), each stopping after
#                  RUNS/N executions; each keeps its own log and final stats
#
# Installs cargo-fuzz from crates.io if it is missing. Every run reads the
# seeds in fuzz/corpus/TARGET/ and keeps the inputs it finds in
# fuzz/work/TARGET/ (not committed); a crash is saved under
# fuzz/artifacts/TARGET/ and the run goes on with the next target. Exits 1
# if any target crashed. What the targets check: docs/fuzzing.md.
set -euo pipefail
# LOGS is taken relative to where the script was called from.
keep_logs=
if [ -n "${LOGS:-}" ]; then keep_logs=$(mkdir -p "$LOGS" && cd "$LOGS" && pwd); fi
cd "$(dirname "$0")/../fuzz"

seconds=${1:-60}
shift || true
case $seconds in
'' | *[!0-9]*)
	echo "usage: scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]" >&2
	exit 2
	;;
esac

if ! rustup run nightly rustc --version >/dev/null 2>&1; then
	echo "fuzz.sh: the nightly toolchain is missing (rustup toolchain install nightly)" >&2
	exit 1
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
	echo "== installing cargo-fuzz"
	cargo install cargo-fuzz --locked
fi

if [ $# -gt 0 ]; then
	targets=("$@")
else
	mapfile -t targets < <(cargo +nightly fuzz list)
fi

runs=${RUNS:-}
sanitizer=${SANITIZER:-address}
case $sanitizer in
address | none) ;;
*)
	echo "fuzz.sh: SANITIZER must be address or none, not '$sanitizer'" >&2
	exit 2
	;;
esac
case $runs in
'') ;;
*[!0-9]* | 0*)
	echo "fuzz.sh: RUNS must be a positive whole number, not '$runs'" >&2
	exit 2
	;;
esac
if [ -n "$runs" ]; then
	stop=(-runs="$runs")
else
	stop=(-max_total_time="$seconds")
fi
fork=${FORK:-}
case $fork in
'') ;;
*[!0-9]* | 0*)
	echo "fuzz.sh: FORK must be a positive whole number, not '$fork'" >&2
	exit 2
	;;
*) stop+=(-fork="$fork") ;;
esac
jobs=${JOBS:-}
case $jobs in
'') ;;
*[!0-9]* | 0*)
	echo "fuzz.sh: JOBS must be a positive whole number, not '$jobs'" >&2
	exit 2
	;;
*)
	if [ -n "$fork" ] || [ -z "$runs" ]; then
		echo "fuzz.sh: JOBS needs RUNS, and not FORK" >&2
		exit 2
	fi
	stop=(-runs="$((runs / jobs))" -jobs="$jobs" -workers="$jobs")
	;;
esac

# Release code with debug assertions and overflow checks, AddressSanitizer
# on unless SANITIZER=none (cargo-fuzz's defaults). libFuzzer's limits: a
# single allocation over 256 MB is a crash (a reader must not trust a
# claimed size; this needs the sanitizer's allocator), so is resident
# memory over 2 GB, and so is an input that runs for more than 30 s.
build=(-s "$sanitizer")
case ${TRACE_COMPARES:-yes} in
yes) ;;
no) build+=(--no-trace-compares) ;;
*)
	echo "fuzz.sh: TRACE_COMPARES must be yes or no, not '$TRACE_COMPARES'" >&2
	exit 2
	;;
esac
echo "== building the targets (sanitizer: $sanitizer, trace compares: ${TRACE_COMPARES:-yes})"
if [ $# -gt 0 ]; then
	for t in "${targets[@]}"; do cargo +nightly fuzz build "${build[@]}" "$t"; done
else
	cargo +nightly fuzz build "${build[@]}"
fi

if [ -n "$keep_logs" ]; then
	logs=$keep_logs
else
	logs=$(mktemp -d)
	trap 'rm -rf "$logs"' EXIT
fi
summary=()
failed=0
for t in "${targets[@]}"; do
	if [ -n "$runs" ]; then echo "== $t: $runs executions"; else echo "== $t: ${seconds}s"; fi
	mkdir -p "work/$t" "artifacts/$t"
	status=0
	start=$SECONDS
	# The server under test in web_api keeps caches and a runtime for the
	# whole run, so the leak check after an input spends most of the time
	# scanning the heap (perf: 47%); it is off there, four times faster.
	# Its inputs range from microseconds (a refused request) to tens of
	# milliseconds (a search to its limit, a sequence to 1 000): libFuzzer
	# schedules the quicker ones more often (up to 30 times), so that a
	# long run's corpus of slow searches does not slow every mutation.
	extra=()
	if [ "$t" = web_api ]; then extra=(-detect_leaks=0 -entropic_scale_per_exec_time=1); fi
	cargo +nightly fuzz run "${build[@]}" "$t" "work/$t" "corpus/$t" -- \
		"${stop[@]}" -malloc_limit_mb=256 -rss_limit_mb=2048 -timeout=30 \
		-print_final_stats=1 "${extra[@]}" >"$logs/$t.log" 2>&1 || status=$?
	elapsed=$((SECONDS - start))
	# libFuzzer's last line (coverage, corpus, peak memory) and final stats,
	# as each target ends.
	grep -E '^#[0-9]+[[:space:]]+DONE|^stat::' "$logs/$t.log" || true
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$logs/$t.log" | tail -1)
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$logs/$t.log" | tail -1)
	# This run's own process logs (JOBS), never those of an earlier run.
	job_logs=()
	if [ -n "$jobs" ]; then
		# Each process wrote fuzz-J.log here; its final stats are its own.
		execs=0
		for j in $(seq 0 $((jobs - 1))); do
			[ -f "fuzz-$j.log" ] || continue
			cp "fuzz-$j.log" "$logs/$t-job$j.log"
			job_logs+=("$logs/$t-job$j.log")
			grep -E '^#[0-9]+[[:space:]]+DONE|^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)' "fuzz-$j.log" | sed "s/^/job $j: /" || true
			e=$(sed -n 's/^stat::number_of_executed_units: *//p' "fuzz-$j.log" | tail -1)
			execs=$((execs + ${e:-0}))
			rm -f "fuzz-$j.log"
		done
		rate=$((execs / (SECONDS - start > 0 ? SECONDS - start : 1)))
		if grep -qsE 'deadly signal|Test unit written to .*/(crash|timeout|oom|leak)-' "${job_logs[@]}" /dev/null; then
			status=1
		fi
	fi
	if [ -n "$fork" ]; then
		# The processes' own stats stay in their logs; the parent's last
		# progress line ("#RUNS: cov: … exec/s: …") and its exit line.
		grep -E '^#[0-9]+: |^INFO: (fuzzed for|exiting)' "$logs/$t.log" | tail -3 || true
		last=$(grep -E '^#[0-9]+: ' "$logs/$t.log" | tail -1)
		execs=$(sed -n 's/^#\([0-9]*\): .*/\1/p' <<<"$last")
		rate=$(sed -n 's/.* exec\/s: \([0-9]*\).*/\1/p' <<<"$last")
	fi
	if [ "$status" -eq 0 ]; then
		result="no crash"
	else
		failed=1
		artifact=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$logs/$t.log" "${job_logs[@]}" | tail -1)
		if [ -z "$artifact" ] && grep -qs 'libFuzzer: run interrupted' "$logs/$t.log" "${job_logs[@]}"; then
			result="stopped before the end (interrupted), no crash"
		else
			result="CRASH (exit $status) ${artifact:-see the log below}"
			tail -n 60 "$logs/$t.log"
		fi
	fi
	# The time includes the check that the build is fresh (a second or so).
	summary+=("$(printf '%-14s %6ss %12s execs %8s execs/s  %s' "$t" "$elapsed" "${execs:-?}" "${rate:-?}" "$result")")
done

echo
echo "== summary ($(date -u +%Y-%m-%d), sanitizer $sanitizer, $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg))"
printf '%s\n' "${summary[@]}"
exit "$failed"
