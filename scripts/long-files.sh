#!/usr/bin/env bash
# The Rust source files longer than a limit before their tests: the lines
# before the first `#[cfg(test)]` at the start of a line (the whole file
# when it has none), largest first. Exits 1 if any file is over. A file
# in a `tests/` folder (an integration test) is all tests, so it is not
# counted.
#
# Usage: scripts/long-files.sh [LIMIT]   (default 1200)
set -euo pipefail
cd "$(dirname "$0")/.."
limit=${1:-1200}
case "$limit" in
'' | *[!0-9]*)
	echo "usage: scripts/long-files.sh [LIMIT] (a whole number of lines)" >&2
	exit 2
	;;
esac
over=$(git ls-files '*.rs' ':!:tests/*' ':!:*/tests/*' | while read -r f; do
	awk -v f="$f" '/^#\[cfg\(test\)\]/ { n = NR - 1; exit } END { if (n == "") n = NR; print n, f }' "$f"
done | awk -v limit="$limit" '$1 > limit' | sort -rn)
if [ -n "$over" ]; then
	echo "$over"
	exit 1
fi
echo "no Rust source file has more than $limit lines before its tests"
