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

if [ ! -x "$venv/bin/python" ]; then
    if ! python3 -m venv --help >/dev/null 2>&1 || ! python3 -c 'import ensurepip' >/dev/null 2>&1; then
        echo "== installing python3-venv (apt)"
        if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi
        $sudo apt-get update -qq
        $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
    fi
    echo "== creating $venv"
    rm -rf "$venv"
    python3 -m venv "$venv"
fi
# Install the pinned tools when the requirements changed since last time.
stamp=$venv/.requirements
if ! cmp -s "$requirements" "$stamp"; then
    echo "== pip install -r $requirements"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements"
    cp "$requirements" "$stamp"
fi

echo "== maturin build (release, abi3)"
wheels=$CARGO_TARGET_DIR/py-wheels
rm -rf "$wheels"
(cd "$crate" && "$venv/bin/maturin" build --release --quiet \
    --interpreter "$venv/bin/python" --out "$wheels")
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    --force-reinstall --no-deps "$wheels"/nimatron-*.whl

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
