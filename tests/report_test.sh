#!/bin/bash
# The committed 16-bit reports are exactly what the program writes now
# (regenerate with 'make report' after a change that moves a figure).
. "${top_srcdir:-.}/tests/tap.sh"
reports=${top_srcdir:-.}/reports

check "16-bit reports regenerate" \
    "$GELU_ACC" report --out "$tmp/r" --formats bfloat16,float16
for f in bfloat16 float16; do
    check "$f plots match the committed ones" \
        bash -c "cd '$tmp/r/plots' && for svg in $f-*.svg; do cmp \"\$svg\" '$reports/plots/'\"\$svg\" || exit 1; done &&
                 [ \$(ls $f-*.svg | wc -l) -eq \$(cd '$reports/plots' && ls $f-*.svg | wc -l) ]"
    for ext in md csv json html; do
        check "$f.$ext matches the committed report" \
            diff -u "$reports/$f.$ext" "$tmp/r/$f.$ext"
    done
    check "$f.json is valid JSON with the documented keys" \
        python3 -c "
import json, sys
rows = json.load(open('$tmp/r/$f.json'))
keys = {'impl','format','reference','count','correctly_rounded','faithful','max_ulp',
        'max_ulp_input','mean_ulp','max_rel','max_abs','flushed_to_zero','nan','inf',
        'faithful_interval','regions'}
assert rows and all(keys <= set(r) for r in rows), 'missing keys'
assert all(r['count'] == 65536 for r in rows)
assert all(sum(g['count'] for g in r['regions'].values()) == 65536 for r in rows)
"
done
finish
