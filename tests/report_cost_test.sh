#!/bin/bash
# What each format of a report cost (engine/report_cost.h): one line per
# format on standard output, never in the pages; the catalogue's models
# count as kernels, the library workers' CPU time too where real kernels
# ran; a shard says its line is its share.
. "${top_srcdir:-.}/tests/tap.sh"

# The cost lines of a run as "format models workers cpu kernels", one each.
costs() {
    sed -n 's/^report: \([a-z0-9_]*\)\( (this shard)\)\{0,1\}: \([0-9.]*\) CPU-s, of which the kernels \([0-9.]*\) (models \([0-9.]*\), library workers \([0-9.]*\)).*/\1 \5 \6 \3 \4/p' "$1"
}

models_only() {
    GELU_ACC_REAL_DIR="$tmp/none" "$GELU_ACC" report --out "$tmp/m" --formats float32,float4_e2m1 \
        --float32-domain stride:256 --no-backward > "$tmp/m.out" || return 1
    costs "$tmp/m.out" > "$tmp/m.costs"
    cat "$tmp/m.out"
    [ "$(wc -l < "$tmp/m.out")" = 2 ] && [ "$(cut -d' ' -f1 "$tmp/m.costs" | tr '\n' ' ')" = "float32 float4_e2m1 " ] &&
        awk '$1 == "float32" { exit !($2 > 0 && $3 == 0 && $5 == $2 && $4 >= $5 / 2) }' "$tmp/m.costs"
}
check "one cost line per format; the models' time is float32's kernels, no workers" models_only
check "the cost is not in the pages (they stay byte-reproducible)" \
    bash -c "! grep -rq 'CPU-s' '$tmp/m'"

if have torch; then
    with_workers() {
        "$GELU_ACC" report --out "$tmp/w" --formats float32 --float32-domain stride:65536 \
            --no-backward > "$tmp/w.out" || return 1
        cat "$tmp/w.out"
        costs "$tmp/w.out" | awk '{ exit !($3 > 0 && $5 > $2) }'
    }
    check "the library workers' CPU time counts as the kernels' where real kernels ran" with_workers
else
    skip "the library workers' CPU time" "the torch module was not built"
fi

check "a shard's line says it is the shard's share" \
    bash -c "GELU_ACC_REAL_DIR='$tmp/none' '$GELU_ACC' report --formats float4_e2m1 --shard 1/2 \
                 --partial '$tmp/p1' | grep -q '^report: float4_e2m1 (this shard): '"
finish
