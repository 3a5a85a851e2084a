#!/bin/sh
# Generate configure and Makefile.in from configure.ac and Makefile.am
# (and install build-aux/, automake's TAP driver included).
set -eu
cd "$(dirname "$0")"
autoreconf -fi
