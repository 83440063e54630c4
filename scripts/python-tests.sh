#!/usr/bin/env bash
# The Python package: build the abi3 wheel of crates/nimatron-py with
# maturin, install it into target/py-venv, then run pytest on
# crates/nimatron-py/tests and mypy --strict on the examples.
#
# Needs only python3 (3.9 or later) and the Rust toolchain; everything else
# comes from PyPI, pinned in crates/nimatron-py/requirements-dev.txt. On a
# Debian machine whose python3 lacks venv, python3-venv is installed with
# apt. Re-runs reuse the virtual environment and cargo's build.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
crate=crates/nimatron-py
venv=${NIMATRON_PY_VENV:-$root/target/py-venv}
requirements=$crate/requirements-dev.txt
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$root/target}

. scripts/lib/py-venv.sh
py_venv "$venv" "$requirements"

echo "== maturin build (release, abi3)"
wheels=$CARGO_TARGET_DIR/py-wheels
rm -rf "$wheels"
(cd "$crate" && "$venv/bin/maturin" build --release --quiet \
    --interpreter "$venv/bin/python" --out "$wheels")
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    --force-reinstall --no-deps "$wheels"/nimatron-*.whl

echo "== the wheel carries the licence texts, the workspace's own"
for f in LICENSE-MIT LICENSE-APACHE; do
    cmp "$f" "$crate/$f" || { echo "$crate/$f differs from the workspace's $f" >&2; exit 1; }
done
"$venv/bin/python" - "$wheels"/nimatron-*.whl <<'EOF'
import sys, zipfile
names = zipfile.ZipFile(sys.argv[1]).namelist()
for f in ["LICENSE-MIT", "LICENSE-APACHE"]:
    assert any(n.endswith(".dist-info/licenses/" + f) for n in names), f"{f} is not in the wheel: {names}"
EOF

echo "== pytest $crate/tests"
# Run from the tests folder so that `import nimatron` is the installed wheel.
(cd "$crate/tests" && "$venv/bin/python" -m pytest -q -p no:cacheprovider .)

echo "== mypy --strict on the examples (against the package's stubs)"
(cd "$crate" && "$venv/bin/python" -m mypy --strict --no-incremental examples)

echo "== vermin: the package, examples and tests need no Python newer than 3.9"
# (mypy no longer checks a 3.9 target; the wheel is abi3 for 3.9 and later.)
"$venv/bin/vermin" --no-tips --quiet --violations -t=3.9- \
    "$crate/python" "$crate/examples" "$crate/tests"

echo "== the examples run"
for example in "$crate"/examples/*.py; do
    "$venv/bin/python" "$example" >/dev/null
done
echo "python package: every check passed"
