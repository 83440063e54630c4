#!/usr/bin/env bash
# Benchmarks of the Python package (crates/nimatron-py/benches/bench.py):
# Grundy sequences from Python against the CLI, a million-heap NumPy
# analysis against the Rust scan, a user-defined game of 10^5 positions.
# Builds the CLI, the Rust bench and the wheel first (release).
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$(pwd)/target}
venv=${NIMATRON_PY_VENV:-$CARGO_TARGET_DIR/py-venv}
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import nimatron' 2>/dev/null; then
    scripts/python-tests.sh
fi
cargo build --release --locked -p nimatron-cli
echo "== Rust scan: cargo bench -p nimatron --bench nim_scan (10^6 heaps)"
scan=$(NIM_SCAN_SIZES=1000000 cargo bench --locked -p nimatron --bench nim_scan 2>/dev/null | tee /dev/stderr |
    awk '$1 == 1000000 && $2 == "normal" { print $4 }')
echo "== Python"
"$venv/bin/python" crates/nimatron-py/benches/bench.py "$CARGO_TARGET_DIR/release/nimatron" "$scan"
