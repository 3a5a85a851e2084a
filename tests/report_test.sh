#!/bin/bash
# The committed 16-bit reports are exactly what the program writes now
# (regenerate with 'make report' after a change that moves a figure).
. "${top_srcdir:-.}/tests/tap.sh"
reports=${top_srcdir:-.}/reports

# The real libraries' figures (a page's <!-- machine --> line and its
# <!-- real libraries --> section, FORMAT-real.*) depend on the CPU's vector
# dispatch and the libraries built: compared only where the machine line
# matches the committed one, left out elsewhere.
machine_line() {
    sed -n '/^<!-- machine -->$/,/^<!-- \/machine -->$/p' "$1"
}
without_real() {
    sed '/^<!-- machine -->$/,/^<!-- \/machine -->$/d; /^<!-- real libraries -->$/,/^<!-- \/real libraries -->$/d' "$1"
}

# The backward sections: make report measures every (x, dy) pair, this test
# the default sample, so a section (and its CSV, JSON and heat maps) is
# compared only where the committed one measured the same domain.
backward_domain() {
    "$PYTHON" -c "import json, sys; print(json.load(open(sys.argv[1]))[0]['domain'])" "$1" 2>/dev/null
}
without_backward() {
    sed '/^<!-- backward -->$/,/^<!-- \/backward -->$/d' "$1"
}
# page FILE: FILE as compared (its backward section left out when $same_backward is no).
page() {
    if [ "$same_backward" = yes ]; then cat "$1"; else without_backward "$1"; fi
}

# ONNX Runtime's rows, as make report adds them, where node and the pinned
# package are installed (make real-onnxruntime): 16-bit inputs take seconds.
ort=${top_srcdir:-.}/tools/onnxruntime
outside=()
if command -v node >/dev/null && [ -f "$ort/node_modules/onnxruntime-node/package.json" ] &&
   node "$ort/gelu-ort.mjs" --gelu-acc "$GELU_ACC" --out "$tmp/ort" --formats bfloat16,float16 >/dev/null; then
    outside=(--real-outputs "$tmp/ort/manifest")
fi

# backward_worst COMMITTED SAMPLE FORMAT: whatever the committed section's
# domain (make report: every pair, or every float32 x), each of its rows'
# worst pair measured again alone (x as a one-value range, dy fixed) gives
# the same dx, true dx and ulp error, and the sample's rows do no worse.
backward_worst() {
    "$PYTHON" - "$1" "$2" "$GELU_ACC" "$3" <<'PY'
import json, struct, subprocess, sys
committed, sample, prog, fmt = sys.argv[1:]
def value(hexbits):  # an encoding as an exact decimal
    b = int(hexbits, 16)
    if fmt == 'bfloat16':
        return repr(struct.unpack('<f', struct.pack('<I', b << 16))[0])
    if fmt == 'float16':
        return repr(struct.unpack('<e', struct.pack('<H', b))[0])
    return repr(struct.unpack('<f', struct.pack('<I', b))[0])
rows = json.load(open(committed))
assert rows
for row in rows:
    w = row['all']['worst']
    x = value(w['x'])
    alone = json.loads(subprocess.run(
        [prog, 'sweep', '--backward', '--impl', row['impl'], '--format', fmt, '--reference',
         row['reference'], '--domain', 'range:%s:%s' % (x, x), '--dy', value(w['dy']), '--json'],
        check=True, capture_output=True, text=True).stdout)['all']
    assert alone['pairs'] == 1, (row['impl'], alone)
    got = alone['worst']
    assert (got['x'], got['dy'], got['dx'], got['true_dx'], got['ulp']) == \
        (w['x'], w['dy'], w['dx'], w['true_dx'], w['ulp']), (row['impl'], w, got)
for row in json.load(open(sample)):
    full = [r for r in rows if (r['impl'], r['reference']) == (row['impl'], row['reference'])]
    assert len(full) == 1, row['impl']
    m = lambda v: float('inf') if v == 'inf' else v
    assert m(row['all']['max_ulp']) <= m(full[0]['all']['max_ulp']), row['impl']
    assert m(row['all']['max_dy_ulp']) <= m(full[0]['all']['max_dy_ulp']), row['impl']
PY
}

check "16-bit reports regenerate" \
    "$GELU_ACC" report --out "$tmp/r" --formats bfloat16,float16 "${outside[@]}"
for f in bfloat16 float16; do
    same_backward=no
    [ "$(backward_domain "$reports/$f-backward.json")" = "$(backward_domain "$tmp/r/$f-backward.json")" ] &&
        same_backward=yes
    plots="$f-*.svg"
    [ $same_backward = yes ] || plots="$f-[!b]*.svg"  # without the backward heat maps
    check "$f plots match the committed ones" \
        bash -c "cd '$tmp/r/plots' && for svg in $plots; do cmp \"\$svg\" '$reports/plots/'\"\$svg\" || exit 1; done &&
                 [ \$(ls $plots | wc -l) -eq \$(cd '$reports/plots' && ls $plots | wc -l) ]"
    for ext in csv json; do
        check "$f.$ext matches the committed report" \
            diff -u "$reports/$f.$ext" "$tmp/r/$f.$ext"
    done
    if [ $same_backward = yes ]; then
        for ext in csv json; do
            check "$f-backward.$ext matches the committed report" \
                diff -u "$reports/$f-backward.$ext" "$tmp/r/$f-backward.$ext"
        done
    else
        skip "$f backward section" "committed on '$(backward_domain "$reports/$f-backward.json")', this run on '$(backward_domain "$tmp/r/$f-backward.json")'"
    fi
    check "$f-backward.json: every worst pair measured alone gives its figures" \
        backward_worst "$reports/$f-backward.json" "$tmp/r/$f-backward.json" "$f"
    check "$f.md has a real-libraries section" grep -q '^## Real libraries$' "$tmp/r/$f.md"
    if [ "$(machine_line "$reports/$f.md")" = "$(machine_line "$tmp/r/$f.md")" ]; then
        for file in $f.md $f.html $f-real.csv $f-real.json; do
            check "$file matches the committed report (same machine and libraries)" \
                diff -u <(page "$reports/$file") <(page "$tmp/r/$file")
        done
    else
        for ext in md html; do
            check "$f.$ext matches the committed report, real libraries left out" \
                diff -u <(without_real "$reports/$f.$ext" | page /dev/stdin) \
                        <(without_real "$tmp/r/$f.$ext" | page /dev/stdin)
        done
        # Another machine: each real row the same, or different where the
        # CPUs' extensions or the library versions differ, named in the log.
        echo "# $f real rows: committed on '$(machine_line "$reports/$f.md" | sed -n 2p)', this run on '$(machine_line "$tmp/r/$f.md" | sed -n 2p)'"
        check "$f real rows agree with the committed ones where the CPU extensions and library versions do" \
            "$PYTHON" "${top_srcdir:-.}/tests/real_rows.py" "$reports/$f-real.json" "$reports/$f.md" \
                "$tmp/r/$f-real.json" "$tmp/r/$f.md"
        grep -v ': same figures$' "$tmp/check.out" | sed 's/^/# /'
    fi
    check "$f-real.json and .csv: every real row names its CPU, extensions, library, version, call and path; the models' rows none" \
        "$PYTHON" -c "
import csv, json
keys = ['cpu', 'isa', 'library', 'version', 'call', 'path']
rows = json.load(open('$tmp/r/$f-real.json'))
assert rows and all(isinstance(r.get(k), str) and r[k] for r in rows for k in keys), 'a real row lacks a key'
assert all('avx2' in r['isa'].split() for r in rows if r['impl'].startswith('eigen_avx2')), 'isa'
table = list(csv.DictReader(open('$tmp/r/$f-real.csv', newline='')))
assert table and all(r[k] for r in table for k in keys), 'a real CSV row lacks a column'
by_impl = {(r['impl'], r['reference']): r for r in rows}
assert all(all(r[k] == by_impl[(r['impl'], r['reference'])][k] for k in keys) for r in table), 'CSV and JSON differ'
assert not any(k in r for r in json.load(open('$tmp/r/$f.json')) for k in keys), 'a model row names a machine'
assert 'cpu' not in open('$tmp/r/$f.csv').readline().split(','), 'the models CSV names a machine'
"
    check "$f.json is valid JSON with the documented keys" \
        "$PYTHON" -c "
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

# The small formats: exhaustive (at most 256 encodings), no real library, so
# every file of their pages is reproduced byte for byte on any machine.
small="float8_e4m3fn float8_e5m2 float6_e2m3 float6_e3m2 float4_e2m1"
check "small-format reports regenerate" \
    "$GELU_ACC" report --out "$tmp/small" --formats "$(echo $small | tr ' ' ,)"
for f in $small; do
    for ext in md html csv json; do
        check "$f.$ext matches the committed report" diff -u "$reports/$f.$ext" "$tmp/small/$f.$ext"
    done
    check "$f plots match the committed ones" \
        bash -c "cd '$tmp/small/plots' && for svg in $f-*.svg; do cmp \"\$svg\" '$reports/plots/'\"\$svg\" || exit 1; done &&
                 [ \$(ls $f-*.svg | wc -l) -eq \$(cd '$reports/plots' && ls $f-*.svg | wc -l) ]"
    check "$f has no real-library files" test ! -e "$tmp/small/$f-real.csv" -a ! -e "$tmp/small/$f-real.json"
done
# Each page names its truth's overflow convention: the format's own.
check "float8_e4m3fn.md names saturation" grep -q 'overflow convention satfinite' "$tmp/small/float8_e4m3fn.md"
check "float8_e5m2.md names infinity" grep -q 'overflow convention infinity' "$tmp/small/float8_e5m2.md"
check "float4_e2m1.html names saturation" grep -q 'overflow convention satfinite' "$tmp/small/float4_e2m1.html"
check "the small-format tables cover every encoding" \
    "$PYTHON" -c "
import json
for f, bits in [('float8_e4m3fn', 8), ('float8_e5m2', 8), ('float6_e2m3', 6), ('float6_e3m2', 6), ('float4_e2m1', 4)]:
    rows = json.load(open('$tmp/small/%s.json' % f))
    assert rows and all(r['count'] == 2**bits and r['domain'] == 'all' for r in rows), f
    assert all(sum(g['count'] for g in r['regions'].values()) == 2**bits for r in rows), f
"
# A report of some formats keeps the others in the index, in the report's order.
check "the index lists the 16-bit pages and the small ones, in order" \
    bash -c "grep -o 'href=\"[a-z0-9_]*\.html\"' '$tmp/small/index.html' | uniq | tr '\n' ' ' |
             grep -q 'facts.html\" href=\"float8_e4m3fn.html\" href=\"float8_e5m2.html\" href=\"float6_e2m3.html\" href=\"float6_e3m2.html\" href=\"float4_e2m1.html\"'"
# The audits' pages, where the report's directory has them, are linked.
check "the index links the audit pages it finds, and no other" \
    bash -c "printf '# audit\\n' > '$tmp/small/audit-float32-gelu_tanh.md' &&
             '$GELU_ACC' report --formats float4_e2m1 --out '$tmp/small' &&
             grep -q 'href=\"audit-float32-gelu_tanh.md\"' '$tmp/small/index.html' &&
             ! grep -q 'href=\"audit-float32-gelu.md\"' '$tmp/small/index.html'"
# --formats all (make report) is the default list and float64: the index of
# a small run of it lists what the committed one does.
check "--formats all writes every format's page" \
    "$GELU_ACC" report --formats all --out "$tmp/all" --float32-domain stride:1048576 \
    --float64-domain random:1000 --no-backward
check "--formats all lists the formats of the committed index, in its order" \
    bash -c "[ \"\$(grep -o 'href=\"[a-z0-9_]*\.html\"' '$tmp/all/index.html' | uniq)\" = \
               \"\$(grep -o 'href=\"[a-z0-9_]*\.html\"' '$reports/index.html' | uniq)\" ]"
check "index.html of the committed reports lists every format in the report's order" \
    bash -c "[ \"\$(grep -o 'href=\"[a-z0-9_]*\.html\"' '$reports/index.html' | uniq | sed 's/href=\"//; s/\.html\"//' | tr '\n' ,)\" = \
               facts,bfloat16,float16,float32,float8_e4m3fn,float8_e5m2,float6_e2m3,float6_e3m2,float4_e2m1,float64, ]"

# The committed float32 report is exhaustive (2^32 inputs, about 90 min to
# regenerate with the real libraries), so it is checked on a sample: every
# 65536th encoding plus the worst input of every row.  A sample can only do as
# well as the whole, and where it holds the whole's worst input it must find
# exactly that figure.  The real libraries' rows (float32-real.json) are
# checked so where the machine line matches; rows graded from files (ONNX
# Runtime, on their own domain) are not measured by the sample.
check "the committed float32 report is exhaustive, called real libraries included" \
    "$PYTHON" -c "
import json
rows = json.load(open('$reports/float32.json'))
rows += [r for r in json.load(open('$reports/float32-real.json')) if r['models'].find('run outside') < 0]
assert rows and all(r['domain'] == 'all' and r['count'] == 2**32 for r in rows)
assert all(sum(g['count'] for g in r['regions'].values()) == 2**32 for r in rows)
"
"$PYTHON" -c "
import json
worst = set(range(0, 2**32, 65536))
for r in json.load(open('$reports/float32.json')) + json.load(open('$reports/float32-real.json')):
    if r['domain'] != 'all':
        continue
    for g in [r] + list(r['regions'].values()):
        for k in ('max_ulp_input', 'max_rel_input', 'max_abs_input'):
            if g.get(k):
                worst.add(int(g[k], 16))
print('\\n'.join('0x%08x' % w for w in sorted(worst)))
" > "$tmp/f32-sample.txt"
check "float32 report on the sample" \
    "$GELU_ACC" report --out "$tmp/s" --formats float32 --float32-domain "file:$tmp/f32-sample.txt"
# agree FULL PART: every row of PART that FULL has agrees with it.
agree() {
    "$PYTHON" -c "
import json
full = [r for r in json.load(open('$1')) if r['domain'] == 'all']
part = json.load(open('$2'))
# Implementations added since the exhaustive report was last made ('make
# report') are not in it yet: named here, checked once it is remade.
keys = [(r['impl'], r['reference']) for r in full]
for r in part:
    if (r['impl'], r['reference']) not in keys:
        print('# not in the committed float32 report yet:', r['impl'], r['reference'])
part = [r for r in part if (r['impl'], r['reference']) in keys]
assert keys == [(r['impl'], r['reference']) for r in part]
def signed(h):  # an encoding as an ordered key
    v = int(h, 16)
    return -(v & 0x7fffffff) if v >> 31 else v
for rf, rp in zip(full, part):
    for name, f, p in [('all', rf, rp)] + [(g, rf['regions'][g], rp['regions'][g]) for g in rf['regions']]:
        where = '%s/%s/%s' % (rf['impl'], rf['reference'], name)
        assert p['count'] <= f['count'], where
        for k in ('flushed_to_zero', 'nan', 'inf', 'wrong_zero_sign', 'not_nan'):
            assert p[k] <= f[k], (where, k)
        assert p['count'] - p['correctly_rounded'] <= f['count'] - f['correctly_rounded'], where
        assert p['count'] - p['faithful'] <= f['count'] - f['faithful'], where
        for k in ('max_ulp', 'max_rel', 'max_abs'):
            if f[k + '_input']:  # the sample holds it: the same worst point
                assert (p[k], p[k + '_input']) == (f[k], f[k + '_input']), (where, k, p[k], f[k])
        fi, pi = f['faithful_interval'], p['faithful_interval']
        if fi is not None and pi is not None:  # the sample's is at least as wide
            assert fi['lo'] is None or pi['lo'] is None or signed(pi['lo']) <= signed(fi['lo']), where
            assert fi['hi'] is None or pi['hi'] is None or signed(pi['hi']) >= signed(fi['hi']), where
        if f['zero_below'] and p['zero_below']:
            assert signed(p['zero_below']) >= signed(f['zero_below']), where
"
}
check "the float32 sample agrees with the committed exhaustive report" \
    agree "$reports/float32.json" "$tmp/s/float32.json"
# The committed float32 backward section is every float32 x with dy = 1
# (make report); the sample report measured every 65536th x.
check "the committed float32 backward section is every float32 x" \
    "$PYTHON" -c "
import json
rows = json.load(open('$reports/float32-backward.json'))
assert rows and all(r['domain'] == 'all' and r['all']['pairs'] == 2**32 for r in rows)
"
check "float32-backward.json: every worst pair measured alone gives its figures" \
    backward_worst "$reports/float32-backward.json" "$tmp/s/float32-backward.json" float32
if [ "$(machine_line "$reports/float32.md" | sed 's/; run elsewhere and graded from files: .*\.$/./')" = \
     "$(machine_line "$tmp/s/float32.md" | sed 's/; run elsewhere and graded from files: .*\.$/./')" ]; then
    check "the real libraries' float32 sample agrees with the committed exhaustive rows" \
        agree "$reports/float32-real.json" "$tmp/s/float32-real.json"
else
    skip "float32 real-library rows" "committed on another machine or with other libraries"
fi
finish
