#!/bin/bash
# Fuzz every parser for a bounded time: builds the tracked sources with
# clang, libFuzzer, AddressSanitizer and UBSan in a scratch directory, then
# runs each harness of tests/fuzz for FUZZ_SECONDS (default 20) from its
# committed corpus.  Exits 1 on a finding (a crash, a sanitizer report, a
# harness assertion, a leak or a timeout), naming the harness and the input
# saved for it; such an input belongs in tests/fuzz/corpus/HARNESS/ once
# fixed.  Needs clang and libclang-rt-14-dev (scripts/setup.sh --fuzzing).
# Usage: tests/fuzz/run-fuzzers.sh [HARNESS...]     (default: all of them)
# FUZZ_BUILD_DIR: the scratch directory (default build/fuzz, emptied first).
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${FUZZ_SECONDS:-20}
scratch=${FUZZ_BUILD_DIR:-build/fuzz}
harnesses=("$@")
if [ ${#harnesses[@]} -eq 0 ]; then
    for f in tests/fuzz/fuzz_*.c; do
        h=${f#tests/fuzz/fuzz_}
        harnesses+=("${h%.c}")
    done
fi

# A separate copy of the sources: Automake refuses a second, out-of-tree
# build of a configured tree.
rm -rf "$scratch"
mkdir -p "$scratch"
git ls-files -z --cached --others --exclude-standard | xargs -0 tar -cf - | tar -xf - -C "$scratch"
cd "$scratch"
./autogen.sh >/dev/null 2>&1
./configure --enable-fuzzing CC=clang >configure.out 2>&1 || { tail -5 configure.out; exit 2; }
# (each harness target pulls in the libraries it links)
make -j"$(nproc)" "${harnesses[@]/#/tests/fuzz/fuzz_}" >/dev/null

# One harness per core at a time (libFuzzer runs on one), each for the
# full FUZZ_SECONDS; the verdicts printed in the harnesses' order.
fuzz_one() {
    local h=$1 log=findings/$1.log
    mkdir -p "corpus/$h"
    ./tests/fuzz/fuzz_"$h" -max_total_time="$seconds" -max_len=8192 -timeout=10 \
        -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="findings/$h-" \
        "corpus/$h" "tests/fuzz/corpus/$h" >"$log" 2>&1
    echo $? > "findings/$h.status"
}
mkdir -p findings
jobs_at_once=$(nproc)
for h in "${harnesses[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs_at_once" ]; do
        wait -n || true
    done
    fuzz_one "$h" &
done
wait

status=0
for h in "${harnesses[@]}"; do
    log=findings/$h.log
    if [ "$(cat "findings/$h.status")" = 0 ]; then
        runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
        echo "fuzz $h: ${seconds} s, ${runs:-?} executions, no finding"
    else
        echo "fuzz $h: FINDING (log $scratch/$log):"
        grep -E "ERROR|fuzz assertion|runtime error|Test unit written" "$log" | head -5
        status=1
    fi
done
exit $status
