#!/bin/sh
# Install what a fresh Debian 12 machine lacks, then configure and build.
# Usage: scripts/setup.sh [--fuzzing] [configure options...]   (e.g. --enable-werror)
# --fuzzing also installs the optional packages of tests/fuzz/run-fuzzers.sh.
set -eu
cd "$(dirname "$0")/.."

packages="build-essential autoconf automake libtool pkg-config libmpfr-dev libgmp-dev libcmocka-dev"
optional_fuzzing="clang libclang-rt-14-dev"   # libFuzzer, ASan and UBSan runtimes for clang
if [ "${1:-}" = --fuzzing ]; then
    packages="$packages $optional_fuzzing"
    shift
fi
missing=""
for p in $packages; do
    dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
if [ -n "$missing" ]; then
    if [ "$(id -u)" -ne 0 ]; then
        echo "setup: missing Debian packages:$missing" >&2
        echo "setup: run as root, or: sudo apt-get install -y$missing" >&2
        exit 2
    fi
    echo "setup: installing$missing"
    apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q $missing
fi

./autogen.sh
[ -f Makefile ] && [ config.status -nt configure ] || ./configure "$@"
make -j"$(nproc)"
