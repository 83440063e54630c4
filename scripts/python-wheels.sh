#!/usr/bin/env bash
# Release wheels of the Python package for Linux: manylinux_2_28 wheels for
# x86_64 and aarch64, built on this machine without a container (maturin
# links with Zig, from PyPI, against glibc 2.28's symbols), stripped, with
# the package's metadata; each checked with `auditwheel show` (the
# manylinux tag it earns) and `twine check` (the metadata PyPI shows).
#
# macOS and Windows wheels need those systems' linkers: a release builds
# them in CI (.github/workflows/wheels.yml; see docs/python.md).
#
# Needs python3 (3.9 or later), rustup and network access to PyPI and to
# rustup's servers on the first run. The tools are pinned in
# crates/nimatron-py/requirements-wheels.txt and installed into
# target/py-wheels-venv.
#
# Usage: scripts/python-wheels.sh [OUT_DIR]   (default: target/wheels)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
crate=crates/nimatron-py
out=${1:-$root/target/wheels}
mkdir -p "$out"
out=$(cd "$out" && pwd)
venv=${NIMATRON_WHEELS_VENV:-$root/target/py-wheels-venv}
requirements=$crate/requirements-wheels.txt
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$root/target}
targets=(x86_64-unknown-linux-gnu aarch64-unknown-linux-gnu)
compatibility=manylinux_2_28

. scripts/lib/py-venv.sh
py_venv "$venv" "$requirements"
export PATH=$venv/bin:$PATH

for target in "${targets[@]}"; do
    rustup target add "$target" >/dev/null
done

started=$(date +%s)
rm -f "$out"/nimatron-*.whl
for target in "${targets[@]}"; do
    echo "== maturin build --release --zig --target $target --compatibility $compatibility"
    (cd "$crate" && maturin build --release --quiet --zig --target "$target" \
        --compatibility "$compatibility" --interpreter "$venv/bin/python" --out "$out")
done
# The sdist too: what `pip install` builds on a platform without a wheel.
echo "== maturin sdist"
(cd "$crate" && maturin sdist --out "$out" >/dev/null)

echo "== the wheels"
status=0
for wheel in "$out"/nimatron-*.whl; do
    name=$(basename "$wheel")
    size=$(du -k "$wheel" | cut -f1)
    echo "-- $name ($size KiB)"
    verdict=$(auditwheel show "$wheel" 2>&1 | tr '\n' ' ' | sed 's/  */ /g')
    echo "   auditwheel: $verdict"
    case "$verdict" in
    *"consistent with the following platform tag: \"$compatibility"*) ;;
    *)
        echo "   not $compatibility" >&2
        status=1
        ;;
    esac
    # Stripped: no debug sections in the extension module (its section
    # headers; the bytes ".debug_info" are in any Rust library, as the
    # name std's backtrace reader looks for).
    if python3 - "$wheel" <<'EOF'
import struct, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    so = [n for n in z.namelist() if n.endswith(".so")]
    data = z.read(so[0])
assert data[:6] == b"\x7fELF\x02\x01", "not a 64-bit little-endian ELF file"
(shoff,) = struct.unpack_from("<Q", data, 0x28)
shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
def header(i):
    name, _, _, _, offset = struct.unpack_from("<IIQQQ", data, shoff + i * shentsize)
    return name, offset
_, strings = header(shstrndx)
names = [data[strings + n : data.index(b"\0", strings + n)].decode() for n, _ in map(header, range(shnum))]
sys.exit(1 if any(n.startswith(".debug") for n in names) or ".text" not in names else 0)
EOF
    then
        echo "   stripped: no .debug sections"
    else
        echo "   debug info left in the extension module" >&2
        status=1
    fi
done
# The licence texts: in each wheel's .dist-info/licenses and in the sdist.
for dist in "$out"/nimatron-*.whl "$out"/nimatron-*.tar.gz; do
    if python3 - "$dist" <<'EOF'
import sys, tarfile, zipfile
path = sys.argv[1]
if path.endswith(".whl"):
    names = zipfile.ZipFile(path).namelist()
else:
    names = tarfile.open(path).getnames()
missing = [f for f in ["LICENSE-MIT", "LICENSE-APACHE"] if not any(n.endswith("/" + f) for n in names)]
sys.exit(f"missing: {missing}" if missing else 0)
EOF
    then
        echo "-- $(basename "$dist"): LICENSE-MIT and LICENSE-APACHE inside"
    else
        echo "   $(basename "$dist") lacks a licence text" >&2
        status=1
    fi
done
twine check --strict "$out"/nimatron-*.whl "$out"/nimatron-*.tar.gz || status=1
echo "== wheels took $(( $(date +%s) - started )) s; they are in $out"
exit $status
