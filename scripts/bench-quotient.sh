#!/usr/bin/env bash
# Time and memory of misère quotients: misère Kayles, 0.137 and Dawson's
# Kayles, then every two-digit octal code (0.d1d2 and 4.d1d2, 128 codes).
#
#   scripts/bench-quotient.sh [SECONDS_PER_CODE] [TO]
#
# Each code runs `nimatron quotient CODE --to TO --json` with
# --max-seconds SECONDS_PER_CODE (default 20; TO defaults to 40) and
# --max-states 50000000. The named games go to 100. Prints a Markdown table
# (order, the heap from which the quotient stopped changing, whether its
# period is proven, time, peak memory, or where a limit stopped it) and a
# summary, headed by the processor and the date.
#
# BASELINE=/path/to/nimatron runs another build of the same command
# alongside, one line each, for an A/B comparison in one run (the two run
# one after the other, each on the same core when `taskset` is there).
#
# BUILDS="name=path ..." runs exactly those builds (e.g. a baseline alone on
# one core while the new build runs on the other).
# CODES="0.16 4.77" runs those codes (to TO) instead of the list above;
# CORE=N pins the runs to that core (default: the last one).
#
# Needs /usr/bin/time (GNU time, Debian's `time`) and python3. Not part of
# the test suite.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-20}
to=${2:-40}
for v in "$seconds" "$to"; do
	case $v in
	'' | *[!0-9]*)
		echo "usage: scripts/bench-quotient.sh [SECONDS_PER_CODE] [TO]" >&2
		exit 2
		;;
	esac
done
if [ ! -x /usr/bin/time ]; then
	echo "bench-quotient.sh: /usr/bin/time (GNU time) is missing: apt-get install time" >&2
	exit 1
fi

cargo build --release -q -p nimatron-cli
builds=("new=target/release/nimatron")
if [ -n "${BASELINE:-}" ]; then builds+=("baseline=$BASELINE"); fi
if [ -n "${BUILDS:-}" ]; then read -r -a builds <<<"$BUILDS"; fi
pin=()
if command -v taskset >/dev/null; then pin=(taskset -c "${CORE:-$(($(nproc) - 1))}"); fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One run: prints "| code | build | to | order | stable from | proven | s | MiB |"
# or the limit that stopped it.
run() {
	local name=$1 bin=$2 code=$3 n=$4
	local status=0
	"${pin[@]}" /usr/bin/time -f '%e %M' -o "$tmp/time" \
		"$bin" quotient "octal:$code" --to "$n" --json --max-seconds "$seconds" \
		--max-states 50000000 >"$tmp/out" 2>"$tmp/err" || status=$?
	python3 - "$name" "$code" "$n" "$status" "$tmp/out" "$tmp/err" "$tmp/time" <<'EOF'
import json, re, sys
name, code, n, status, out, err, timef = sys.argv[1:]
wall, rss = open(timef).read().split()[-2:]
mib = int(rss) / 1024
if status == "0":
    d = json.load(open(out))
    proven = f"yes (period {d['period']} from {d['preperiod']})" if d["proven"] else "no"
    print(f"| {code} | {name} | {n} | {d['order']} | {d['stable_from']} | {proven} | {float(wall):.2f} | {mib:.0f} | finished |")
else:
    text = open(err).read().strip().splitlines()
    msg = text[-1] if text else f"exit {status}"
    m = re.search(r"while adding heap (\d+) \(the quotient of the smaller heaps has (\d+) elements\)", msg)
    why = "time limit" if "time limit" in msg else "state limit" if "positions" in msg else msg
    if m:
        print(f"| {code} | {name} | {n} | {m.group(2)} (heaps to {int(m.group(1)) - 1}) | | | {float(wall):.2f} | {mib:.0f} | {why} at heap {m.group(1)} |")
    else:
        print(f"| {code} | {name} | {n} | | | | {float(wall):.2f} | {mib:.0f} | {why} |")
EOF
}

echo "# misère quotients, $(date -u +%Y-%m-%d), $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# --max-seconds $seconds, --max-states 50000000"
echo
echo "| code | build | to | order | stable from | proven | s | MiB | result |"
echo "|---|---|---|---|---|---|---|---|---|"
codes=()
for lead in 0 4; do
	for d1 in 0 1 2 3 4 5 6 7; do
		for d2 in 0 1 2 3 4 5 6 7; do codes+=("$lead.$d1$d2"); done
	done
done
all=(0.77 0.137 0.07 "${codes[@]}")
if [ -n "${CODES:-}" ]; then read -r -a all <<<"$CODES"; fi
for code in "${all[@]}"; do
	n=$to
	case $code in 0.77 | 0.137 | 0.07) n=100 ;; esac
	for b in "${builds[@]}"; do
		run "${b%%=*}" "${b#*=}" "$code" "$n" | tee -a "$tmp/table"
	done
done

echo
for b in "${builds[@]}"; do
	name=${b%%=*}
	rows=$(grep -F "| $name | $to |" "$tmp/table" || true)
	total=$(grep -c . <<<"$rows" || true)
	finished=$(grep -c '| finished |' <<<"$rows" || true)
	proven=$(grep -c '| yes (period' <<<"$rows" || true)
	echo "$name: of $total codes run to $to, $finished reached it ($proven with a proven period), $((total - finished)) stopped at a limit"
done
