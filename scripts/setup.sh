#!/bin/sh
# Install what a fresh Debian 12 machine lacks for building and testing,
# then configure and build.
# Usage: scripts/setup.sh [--fuzzing] [configure options...]   (e.g. --enable-werror)
# --fuzzing also installs clang and its runtimes for tests/fuzz/run-fuzzers.sh.
#
# Required (the build and 'make check'): the compiler and Autotools, MPFR,
# GMP, CMocka, Python 3 with NumPy and pytest (examples/pytest).  For the
# checks that skip without them: PyTorch (python3-torch: the Python module's
# tensor tests, examples/pytest's findings on torch's GELU), chromium and
# fonts-liberation (the HTML render check), valgrind (.ci/run) and sollya
# (the proof of the vector oracle's approximation errors, make vec-oracle-supnorm);
# OpenMPI (libopenmpi-dev openmpi-bin) for ./configure --with-mpi and its tests.
set -eu
cd "$(dirname "$0")/.."

required="build-essential autoconf automake libtool pkg-config libmpfr-dev libgmp-dev
libcmocka-dev python3 python3-numpy python3-pytest"
optional="python3-torch chromium fonts-liberation valgrind libtorch-dev libdnnl-dev libsleef-dev libeigen3-dev
libopenmpi-dev openmpi-bin sollya"
if [ "${1:-}" = --fuzzing ]; then
    required="$required clang libclang-rt-14-dev"  # libFuzzer, ASan and UBSan for clang
    shift
fi

missing() {
    for p in "$@"; do
        dpkg -s "$p" >/dev/null 2>&1 || printf ' %s' "$p"
    done
}
need=$(missing $required)
want=$(missing $optional)
if [ -n "$need$want" ]; then
    if [ "$(id -u)" -ne 0 ]; then
        echo "setup: missing Debian packages:$need$want" >&2
        echo "setup: run as root, or: sudo apt-get install -y$need$want" >&2
        exit 2
    fi
    export DEBIAN_FRONTEND=noninteractive
    apt="apt-get -o DPkg::Lock::Timeout=900 -y -q"
    $apt update
    if [ -n "$need" ]; then
        echo "setup: installing$need"
        $apt install $need
    fi
    if [ -n "$want" ]; then
        echo "setup: installing$want"
        $apt install $want ||
            echo "setup: could not install$want: the checks that need them will be skipped" >&2
    fi
fi

# A git checkout has no configure yet; a release tarball has one.
[ -f configure ] && [ configure -nt configure.ac ] || ./autogen.sh
[ -f Makefile ] && [ config.status -nt configure ] || ./configure "$@"
make -j"$(nproc)"
