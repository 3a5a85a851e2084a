#!/bin/bash
# The backward sections of 'gelu-acc report': every figure of
# FORMAT-backward.json is what 'gelu-acc sweep --backward --json' measures on
# the same domain (another path through the program), the CSV holds the same
# counts, the pages show the section and the bfloat16 heat maps (well-formed
# SVG), --no-backward leaves it all out, and bad options are refused with
# exit status 2.  The heat map's bins add up to the sweep's totals:
# tests/backward_heat_test.
. "${top_srcdir:-.}/tests/tap.sh"

bf=pairs:random:20000:3
f16=pairs:random:15000:4
f32=stride:1048576
check "a report with small backward domains" \
    "$GELU_ACC" report --out "$tmp/r" --formats bfloat16,float16,float32 \
    --float32-domain stride:1048576 --bfloat16-backward-domain $bf \
    --float16-backward-domain $f16 --float32-backward-domain $f32

# same_as_sweep FORMAT DOMAIN: each row of FORMAT-backward.json equals the
# sweep's JSON of that model, reference and domain, key for key.
same_as_sweep() {
    local f=$1 domain=$2
    "$PYTHON" - "$tmp/r/$f-backward.json" "$GELU_ACC" "$f" "$domain" <<'PY'
import json, subprocess, sys
path, prog, fmt, domain = sys.argv[1:]
rows = json.load(open(path))
assert rows, 'no rows'
for row in rows:
    out = subprocess.run([prog, 'sweep', '--backward', '--impl', row['impl'], '--format', fmt,
                          '--domain', domain, '--reference', row['reference'], '--json'],
                         check=True, capture_output=True, text=True).stdout
    alone = json.loads(out)
    assert row == alone, (row['impl'], row['reference'], row, alone)
    assert row['domain'] == domain
print(len(rows), 'rows')
PY
}
check "bfloat16-backward.json = sweep --backward on the same pairs" same_as_sweep bfloat16 $bf
check "float16-backward.json = sweep --backward on the same pairs" same_as_sweep float16 $f16
check "float32-backward.json = sweep --backward on the same x, dy = 1" same_as_sweep float32 $f32

# Every model of the format against its derivative, the tanh forms against
# exact gelu' too; the CSV's counts are the JSON's.
rows_and_csv() {
    "$PYTHON" - "$tmp/r" <<'PY'
import csv, json, sys
d = sys.argv[1]
for fmt, models, tanh in [('bfloat16', 10, 5), ('float16', 10, 5), ('float32', 6, 3)]:
    rows = json.load(open('%s/%s-backward.json' % (d, fmt)))
    assert len(rows) == models + tanh, (fmt, len(rows))
    assert sum(r['reference'] == 'gelu_tanh_grad' for r in rows) == tanh, fmt
    assert len({(r['impl'], r['reference']) for r in rows}) == len(rows), fmt
    table = list(csv.DictReader(open('%s/%s-backward.csv' % (d, fmt))))
    assert len(table) == 2 * len(rows), fmt
    for r in rows:
        for region in ('all', 'root'):
            c = [t for t in table if (t['impl'], t['reference'], t['region'])
                 == (r['impl'], r['reference'], region)]
            assert len(c) == 1, (fmt, r['impl'], region)
            for key in ('pairs', 'correctly_rounded', 'faithful', 'sign_errors', 'zero_sign'):
                assert int(c[0][key]) == r[region][key], (fmt, r['impl'], region, key)
PY
}
check "the rows of each format, and the CSV's counts are the JSON's" rows_and_csv

for f in bfloat16 float16 float32; do
    check "$f.md and .html have the backward section" \
        bash -c "grep -q '^## Backward: dx = dy·gelu′(x)$' '$tmp/r/$f.md' &&
                 grep -q '<h2 id=\"backward\">' '$tmp/r/$f.html' &&
                 grep -q 'href=\"#backward\"' '$tmp/r/$f.html'"
done
heat_maps() {
    local n
    n=$(ls "$tmp/r/plots" | grep -c '^bfloat16-backward-heat-.*\.svg$')
    [ "$n" -eq 4 ] || { echo "$n heat maps"; return 1; }
    ! ls "$tmp/r/plots" | grep -q '^float16-backward-heat' || return 1
    for svg in "$tmp"/r/plots/bfloat16-backward-heat-*.svg; do
        "$PYTHON" -c "import sys, xml.etree.ElementTree as t; t.parse(sys.argv[1])" "$svg" || return 1
        grep -qF "](plots/${svg##*/})" "$tmp/r/bfloat16.md" || return 1
        grep -qF "src=\"plots/${svg##*/}\"" "$tmp/r/bfloat16.html" || return 1
    done
}
check "bfloat16 has 4 heat maps, well-formed and shown by both pages" heat_maps

no_backward() {
    "$GELU_ACC" report --out "$tmp/n" --formats bfloat16 --no-backward >/dev/null &&
    ! grep -q backward "$tmp/n/bfloat16.md" && [ ! -e "$tmp/n/bfloat16-backward.json" ] &&
    [ ! -e "$tmp/n/bfloat16-backward.csv" ] && ! ls "$tmp/n/plots" | grep -q backward
}
check "--no-backward leaves the section and its files out" no_backward

# The real libraries' rows (FORMAT-backward-real.json): each, without its
# library keys, equals 'sweep --backward --impl NAME' on the same pairs (the
# kernel run alone, in other worker processes), names its library, version,
# call, path and machine as that sweep does and as its CSV row does, and the page's subsection lists the rows and what was not
# measured (a kernel not run here among them), between the real-libraries
# markers.  With no module built, only the list.
real_rows() {
    "$PYTHON" - "$tmp/r" "$GELU_ACC" "$bf" "$f16" "$f32" <<'PY'
import csv, json, subprocess, sys
d, prog = sys.argv[1:3]
domains = dict(zip(('bfloat16', 'float16', 'float32'), sys.argv[3:]))
for fmt, domain in domains.items():
    rows = json.load(open('%s/%s-backward-real.json' % (d, fmt)))
    page = open('%s/%s.md' % (d, fmt)).read()
    sub = page[page.index("### Real libraries' backward kernels"):page.index('<!-- /backward -->')]
    assert page.count('<!-- real libraries -->') == 2, fmt  # forward and backward
    assert sub.rstrip().endswith('<!-- /real libraries -->'), fmt
    assert '#### Not measured here' in sub and 'XNNPACK' in sub, fmt
    for row in rows:
        real = {k: row.pop(k) for k in ('cpu', 'isa', 'library', 'version', 'call', 'path')}
        row.pop('lengths', None)  # a long row's other lengths: real_lengths_test.sh
        assert real['library'] and real['version'] and real['cpu'] and real['isa'], (fmt, row['impl'])
        assert '| `%s` |' % row['impl'] in sub, (fmt, row['impl'])
        # a row of another length: on the lengths' pairs, which its page names
        other_length = row['impl'].endswith(('_len1', '_len67'))
        assert other_length or row['domain'] == domain, (fmt, row['impl'], row['domain'])
        assert not other_length or 'Pairs: `%s`' % row['domain'] in sub, (fmt, row['impl'])
        out = subprocess.run([prog, 'sweep', '--backward', '--impl', row['impl'], '--format', fmt,
                              '--domain', row['domain'], '--reference', row['reference'], '--json'],
                             check=True, capture_output=True, text=True).stdout
        swept = json.loads(out)  # with the same machine keys as the report's row
        swept_real = {k: swept.pop(k) for k in real}
        assert row == swept, (fmt, row['impl'], row, out)
        assert real == swept_real, (fmt, row['impl'], real, swept_real)
    # the CSV's rows carry the same machine keys, as the forward real CSV
    by_csv = {(r['impl'], r['region']): r
              for r in csv.DictReader(open('%s/%s-backward-real.csv' % (d, fmt)))}
    for row in json.load(open('%s/%s-backward-real.json' % (d, fmt))):
        c = by_csv[(row['impl'], 'all')]
        assert all(c[k] == row[k] for k in ('cpu', 'isa', 'library', 'version', 'call', 'path')), \
            (fmt, row['impl'], c)
    print(fmt, len(rows), 'real rows')
PY
}
check "FORMAT-backward-real.json = sweep --backward of each real kernel on the same pairs" real_rows
check "the small formats have no backward section" \
    bash -c "'$GELU_ACC' report --out '$tmp/s' --formats float4_e2m1 >/dev/null &&
             ! grep -q Backward '$tmp/s/float4_e2m1.md' && [ ! -e '$tmp/s/float4_e2m1-backward.json' ]"

refused() {
    local text=$1
    shift
    expect_status 2 "$@" && stderr_has "$text"
}
check "a bad backward domain is refused, the option named" \
    refused "--bfloat16-backward-domain pairs:nonsense" "$GELU_ACC" report --out "$tmp/x1" \
    --formats bfloat16 --bfloat16-backward-domain pairs:nonsense
check "pairs:all is refused for float32" \
    refused "--float32-backward-domain" "$GELU_ACC" report --out "$tmp/x2" --formats float32 \
    --float32-domain stride:1048576 --float32-backward-domain pairs:all
# A shard records the backward options and measures its share of the sections.
no_backward_shard() {
    "$GELU_ACC" report --formats bfloat16 --partial "$tmp/p" --no-backward &&
    "$GELU_ACC" merge --out "$tmp/merged" "$tmp/p" > /dev/null &&
    test -s "$tmp/merged/bfloat16.md" -a ! -e "$tmp/merged/bfloat16-backward.json" &&
    ! grep -q '^## Backward' "$tmp/merged/bfloat16.md"
}
check "--no-backward in a shard: the merged pages have no backward section" no_backward_shard
finish
