#!/bin/bash
# The models a page claims equal to its real kernels (real/model_claims.h,
# engine/report_proofs.h): each check a report records is counted again by
# 'gelu-acc compare' of the same two kernels on the same inputs (an
# independent count of the inputs whose bits differ); every claim holds on
# this machine (tests/real_models_test proves the same claims on more
# inputs); the JSON, CSV and pages carry the same check.
. "${top_srcdir:-.}/tests/tap.sh"

need_real_modules

check "a float32 and bfloat16 report with real kernels" \
    "$GELU_ACC" report --out "$tmp/r" --formats float32,bfloat16 --float32-domain stride:65536 \
        --float32-backward-domain stride:1048576 --bfloat16-backward-domain stride:4096

# Each check, as (kernel, model, differing, compared, domain); fails on a
# claim recorded as not checked.
claims() {
    "$PYTHON" - "$1" <<'PY'
import json, sys
for row in json.load(open(sys.argv[1])):
    p = row.get('model_proof')
    if p is None or row['reference'] != 'gelu':
        continue
    if not p['checked']:
        sys.exit('%s: %s not checked: %s' % (row['impl'], p['model'], p['why']))
    print(row['impl'], p['model'], p['differ'], p['inputs'], row['domain'])
PY
}

agree() {
    local format=$1 n=0 bad=0
    claims "$tmp/r/$format-real.json" > "$tmp/claims" || { cat "$tmp/claims"; return 1; }
    while read -r kernel model differ inputs domain; do
        "$GELU_ACC" compare "$model" "$kernel" --format "$format" --domain "$domain" --json \
            > "$tmp/c.json" || { echo "compare $model $kernel failed"; return 1; }
        got=$("$PYTHON" -c "import json,sys; c=json.load(open(sys.argv[1])); print(c['inputs'] - c['same_bits'], c['inputs'])" "$tmp/c.json")
        n=$((n + 1))
        if [ "$got" != "$differ $inputs" ]; then
            echo "$kernel = $model: the report says $differ of $inputs differ, compare $got"
            bad=1
        elif [ "$differ" != 0 ]; then
            echo "$kernel = $model: $differ of $inputs differ (real_models_test should fail too)"
            bad=1
        fi
    done < "$tmp/claims"
    echo "$n claims"
    [ "$n" -gt 0 ] && [ $bad = 0 ]
}
for format in float32 bfloat16; do
    check "every $format check agrees with gelu-acc compare, and holds" agree $format
done

# The CSV's model_proof column and the Markdown table say what the JSON says.
same_everywhere() {
    "$PYTHON" - "$tmp/r" <<'PY'
import csv, json, sys
d = sys.argv[1]
for fmt in ('float32', 'bfloat16'):
    rows = [r for r in json.load(open('%s/%s-real.json' % (d, fmt)))
            if 'model_proof' in r and r['reference'] == 'gelu']
    by_csv = {r['impl']: r['model_proof'] for r in csv.DictReader(open('%s/%s-real.csv' % (d, fmt)))
              if r['region'] == 'all' and r['reference'] == 'gelu'}
    page = open('%s/%s.md' % (d, fmt)).read()
    for r in rows:
        p = r['model_proof']
        text = 'the same bits on %d inputs' % p['inputs']
        if by_csv.get(r['impl']) != '%s: %s' % (p['model'], text):
            sys.exit('%s %s: CSV says %r' % (fmt, r['impl'], by_csv.get(r['impl'])))
        if '| `%s` | `%s` | %s |' % (r['impl'], p['model'], text) not in page:
            sys.exit('%s %s: not on the page' % (fmt, r['impl']))
    print(fmt, len(rows), 'checks')
PY
}
check "the CSV and the page record each check" same_everywhere

finish
