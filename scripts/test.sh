#!/usr/bin/env bash
# Every test, in stages, each announced with its name and time, and a table
# of the stages at the end (result, time, tests passed, failed, skipped).
#
#   scripts/test.sh           everything (about 45 minutes on 2 cores; what
#                             CI runs after its lints)
#   scripts/test.sh --quick   the Rust tests only (cargo test --workspace;
#                             a few minutes once built): while you work
#
# The full run goes on past a failing stage, so the table shows them all,
# and exits 1 if any stage failed. Besides cargo it installs what it needs
# on a fresh machine: Debian packages with apt (so it needs root or sudo):
# gcc-aarch64-linux-gnu and qemu-user, python3-venv, parallel, chromium,
# postgresql (scripts/postgres-tests.sh runs a throw-away cluster);
# with rustup the aarch64 target and the nightly toolchain with miri and
# rust-src (the Miri and AddressSanitizer stages; they say they skipped
# where rustup cannot fetch them); from PyPI the Python package's tools and
# schemathesis (into target/); from npm playwright-core (node_modules/).
# A full run leaves about 5 GB in target/.
set -euo pipefail
cd "$(dirname "$0")/.."

quick=0
case "${1:-}" in
    --quick) quick=1 ;;
    "") ;;
    -h | --help)
        sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'
        exit 0
        ;;
    *)
        echo "scripts/test.sh: unknown option '$1' (use --quick for the Rust tests only, or nothing for every test)" >&2
        exit 2
        ;;
esac

. scripts/lib/stages.sh

stage "Rust tests (cargo test --workspace)" cargo test --workspace --locked
if [ "$quick" -eq 0 ]; then
    stage "the stage summary's own test" scripts/tests/stages-test.sh
    stage "unsafe code under Miri (nightly)" scripts/miri-tests.sh
    stage "vector kernels under AddressSanitizer (nightly)" scripts/sanitizer-tests.sh --quick
    stage "PostgreSQL: storage suite, two servers, kill test" scripts/postgres-tests.sh
    stage "Grundy engine on aarch64 under qemu" scripts/aarch64-tests.sh
    stage "Python package (pytest, mypy)" scripts/python-tests.sh
    stage "census under GNU parallel" scripts/census-parallel-test.sh
    stage "browser tests (Chromium)" scripts/browser-tests.sh
    stage "web API against OpenAPI (schemathesis)" scripts/schemathesis.sh 100
fi
stages_summary
