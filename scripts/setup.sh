#!/bin/sh
# Install what a fresh Debian 12 machine lacks, then configure and build.
# Usage: scripts/setup.sh [configure options...]   (e.g. --enable-werror)
set -eu
cd "$(dirname "$0")/.."

packages="build-essential autoconf automake libtool pkg-config libmpfr-dev libgmp-dev libcmocka-dev
          libtorch-dev libdnnl-dev libsleef-dev libeigen3-dev"
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
