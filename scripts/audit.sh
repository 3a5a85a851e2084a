#!/bin/sh
# The exhaustive oracle audit (doc/audit.md): every float32 input, gelu,
# gelu_tanh and their derivatives gelu_grad and gelu_tanh_grad, the
# MPFR-only oracle against the fast one.  About 6 CPU hours for gelu, twice
# that for a derivative (MPFR evaluates erfc and exp there), so it runs in
# 64 shards per function, most about 1/64 of the work, and can be stopped
# at any moment: a finished shard's state
# file is kept in audit-shards/float32-FUNCTION/ (commit it), an unfinished one
# resumes from its checkpoint, and a later run, in another session or on
# another machine, does only what is missing.  When every shard of a
# function is there, the merged result is written to
# reports/audit-float32-FUNCTION.md.
# Usage: scripts/audit.sh [gelu|gelu_tanh|gelu_grad|gelu_tanh_grad]...
# (default: all four; GELU_ACC: the program;
# THREADS: threads per shard, default all)
set -eu
cd "$(dirname "$0")/.."
gelu_acc=${GELU_ACC:-./gelu-acc}
shards=64
threads=${THREADS:+--threads $THREADS}
[ $# -gt 0 ] || set -- gelu gelu_tanh gelu_grad gelu_tanh_grad
for fn in "$@"; do
    case $fn in gelu|gelu_tanh|gelu_grad|gelu_tanh_grad) ;; *) echo "audit.sh: unknown function '$fn'" >&2; exit 2 ;; esac
    dir=audit-shards/float32-$fn
    mkdir -p "$dir"
    k=1
    while [ $k -le $shards ]; do
        state=$dir/shard-$k-of-$shards
        if [ ! -f "$state" ]; then
            echo "audit.sh: $fn, shard $k of $shards" >&2
            # exit status 3: a disagreement, kept in the state file and merged below
            "$gelu_acc" audit --function "$fn" --format float32 --domain all $threads \
                --shard $k/$shards --partial "$state" --checkpoint "$state.checkpoint" ||
                [ $? -eq 3 ]
            rm -f "$state.checkpoint"
            # where and from what each shard came: shards of one function may be
            # run in several sessions, by several builds, on several machines
            printf '%s shard %d of %d: %s, commit %s, %s, %s CPUs\n' \
                "$(date -u +%Y-%m-%dT%H:%MZ)" $k $shards "$("$gelu_acc" --version | head -n 1)" \
                "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)" \
                "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)" \
                "$(nproc 2>/dev/null || echo '?')" >> "$dir/LOG"
        fi
        k=$((k + 1))
    done
    page=reports/audit-float32-$fn.md
    "$gelu_acc" audit --merge --out "$page" "$dir"/shard-*-of-$shards
    if [ -f "$dir/LOG" ]; then
        { printf '\n## How the shards were run\n\nFrom %s (one line per finished shard):\n\n```\n' "$dir/LOG"
          cat "$dir/LOG"; printf '```\n'; } >> "$page"
    fi
done
