#!/usr/bin/env bash
# The aarch64 wheel, imported and tested: the package's pytest suite run by
# Debian's arm64 Python under QEMU's user-mode emulation, against the
# manylinux_2_28 aarch64 wheel that scripts/python-wheels.sh builds. It
# shows that the wheel loads and answers correctly on the processor class
# of Graviton and Apple silicon; QEMU's times say nothing about speed there.
#
# Installs what it needs on a fresh machine: Debian's qemu-user, the arm64
# architecture in dpkg (to download, never install, Debian's arm64
# python3.11 and the libraries it links), and arm64 wheels of the test
# requirements from PyPI (pinned in crates/nimatron-py/requirements-dev.txt).
# The arm64 files are unpacked under target/aarch64-python, not installed.
#
# Two tests are left out, for reasons of the emulation, not of the wheel:
# one sends SIGINT to a child interpreter 1 s after starting it, and an
# emulated interpreter has not finished importing NumPy by then; the other
# runs mypy on the package's stubs (the same files on every platform), and
# mypy's own compiled arm64 wheel stops with an internal error under QEMU.
#
# Usage: scripts/python-aarch64-tests.sh [WHEEL]
#   (default: the aarch64 wheel in target/wheels)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
crate=$root/crates/nimatron-py
wheel=${1:-$(ls "$root"/target/wheels/nimatron-*-manylinux_*_aarch64.whl 2>/dev/null | head -1)}
if [ -z "$wheel" ] || [ ! -f "$wheel" ]; then
    echo "no aarch64 wheel given or in target/wheels: run scripts/python-wheels.sh first" >&2
    exit 2
fi
wheel=$(cd "$(dirname "$wheel")" && pwd)/$(basename "$wheel")
dir=$root/target/aarch64-python
sysroot=$dir/root
site=$dir/site

if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
if [ ! -x /usr/bin/qemu-aarch64 ]; then
    echo "== installing qemu-user"
    $sudo apt-get update
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y qemu-user
fi

# Debian's arm64 Python 3.11 and the shared libraries it and NumPy load.
packages=(python3.11-minimal libpython3.11-minimal libpython3.11-stdlib libc6 libgcc-s1
    libstdc++6 zlib1g libexpat1 libffi8 libssl3 libbz2-1.0 liblzma5)
if [ ! -x "$sysroot/usr/bin/python3.11" ]; then
    if ! dpkg --print-foreign-architectures | grep -qx arm64; then
        echo "== adding the arm64 architecture to dpkg (for apt-get download)"
        $sudo dpkg --add-architecture arm64
        $sudo apt-get update
    fi
    rm -rf "$dir/debs" "$sysroot"
    mkdir -p "$dir/debs" "$sysroot"
    echo "== downloading Debian's arm64 python3.11"
    (cd "$dir/debs" && apt-get download "${packages[@]/%/:arm64}")
    for deb in "$dir"/debs/*.deb; do dpkg-deb -x "$deb" "$sysroot"; done
fi

# The test requirements as arm64 wheels, unpacked into one directory.
requirements=()
for name in numpy pytest tqdm; do
    requirements+=("$(grep -i "^$name==" "$crate/requirements-dev.txt")")
done
stamp="$site/.requirements"
if [ "$(cat "$stamp" 2>/dev/null)" != "${requirements[*]}" ]; then
    echo "== downloading arm64 wheels: ${requirements[*]}"
    rm -rf "$site" "$dir/wheels"
    mkdir -p "$site"
    python3 -m pip download --quiet --dest "$dir/wheels" --only-binary=:all: \
        --platform manylinux_2_28_aarch64 --platform manylinux2014_aarch64 \
        --python-version 3.11 --implementation cp "${requirements[@]}"
    for w in "$dir"/wheels/*.whl; do python3 -m zipfile -e "$w" "$site"; done
    echo "${requirements[*]}" > "$stamp"
fi
rm -rf "$site/nimatron" "$site"/nimatron-*.dist-info
python3 -m zipfile -e "$wheel" "$site"

# An interpreter command that child processes (sys.executable) reach too.
python=$dir/python
cat > "$python" <<EOF
#!/bin/sh
PYTHONHOME='$sysroot/usr' PYTHONPATH='$site' QEMU_LD_PREFIX='$sysroot' \\
    exec qemu-aarch64 -0 '$python' '$sysroot/usr/bin/python3.11' "\$@"
EOF
chmod +x "$python"

echo "== $(basename "$wheel") under qemu-aarch64"
"$python" -c 'import platform, nimatron; print("  ", platform.machine(), platform.python_version(), nimatron.__file__)'
start=$(date +%s)
cd "$crate"
"$python" -m pytest -q -p no:cacheprovider tests \
    --deselect tests/test_interrupt.py::test_an_interrupted_limit_error_leaves_a_clean_traceback \
    --deselect tests/test_display_and_pickle.py::test_user_game_is_generic_in_the_stubs
echo "== the aarch64 wheel's tests took $(( $(date +%s) - start )) s"
