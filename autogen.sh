#!/bin/sh
# Generate configure and Makefile.in from configure.ac and Makefile.am.
set -eu
cd "$(dirname "$0")"
autoreconf -fi
# automake does not install its TAP driver by itself.
for dir in /usr/share/automake-*; do
    if [ -f "$dir/tap-driver.sh" ]; then
        cp "$dir/tap-driver.sh" build-aux/tap-driver.sh
        break
    fi
done
test -f build-aux/tap-driver.sh || { echo "autogen: automake's tap-driver.sh not found" >&2; exit 1; }
