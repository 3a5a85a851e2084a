#!/bin/bash
# The committed 16-bit reports are exactly what the program writes now
# (regenerate with 'make report' after a change that moves a figure).
. "${top_srcdir:-.}/tests/tap.sh"
reports=${top_srcdir:-.}/reports

# skip DESCRIPTION REASON: a TAP skip.
skip() {
    tap_count=$((tap_count + 1))
    echo "ok $tap_count # SKIP $1: $2"
}

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

check "16-bit reports regenerate" \
    "$GELU_ACC" report --out "$tmp/r" --formats bfloat16,float16
for f in bfloat16 float16; do
    check "$f plots match the committed ones" \
        bash -c "cd '$tmp/r/plots' && for svg in $f-*.svg; do cmp \"\$svg\" '$reports/plots/'\"\$svg\" || exit 1; done &&
                 [ \$(ls $f-*.svg | wc -l) -eq \$(cd '$reports/plots' && ls $f-*.svg | wc -l) ]"
    for ext in csv json; do
        check "$f.$ext matches the committed report" \
            diff -u "$reports/$f.$ext" "$tmp/r/$f.$ext"
    done
    check "$f.md has a real-libraries section" grep -q '^## Real libraries$' "$tmp/r/$f.md"
    if [ "$(machine_line "$reports/$f.md")" = "$(machine_line "$tmp/r/$f.md")" ]; then
        for file in $f.md $f.html $f-real.csv $f-real.json; do
            check "$file matches the committed report (same machine and libraries)" \
                diff -u "$reports/$file" "$tmp/r/$file"
        done
    else
        for ext in md html; do
            check "$f.$ext matches the committed report, real libraries left out" \
                diff -u <(without_real "$reports/$f.$ext") <(without_real "$tmp/r/$f.$ext")
        done
        skip "$f real-library figures" "committed on '$(machine_line "$reports/$f.md" | sed -n 2p)', this run on '$(machine_line "$tmp/r/$f.md" | sed -n 2p)'"
    fi
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

# The committed float32 report is exhaustive (2^32 inputs, about 15 min to
# regenerate), so it is checked on a sample: every 65536th encoding plus the
# worst input of every row.  A sample can only do as well as the whole, and
# where it holds the whole's worst input it must find exactly that figure.
check "the committed float32 report is exhaustive" \
    "$PYTHON" -c "
import json
rows = json.load(open('$reports/float32.json'))
assert rows and all(r['domain'] == 'all' and r['count'] == 2**32 for r in rows)
assert all(sum(g['count'] for g in r['regions'].values()) == 2**32 for r in rows)
"
"$PYTHON" -c "
import json
worst = set(range(0, 2**32, 65536))
for r in json.load(open('$reports/float32.json')):
    for g in [r] + list(r['regions'].values()):
        for k in ('max_ulp_input', 'max_rel_input', 'max_abs_input'):
            if g.get(k):
                worst.add(int(g[k], 16))
print('\\n'.join('0x%08x' % w for w in sorted(worst)))
" > "$tmp/f32-sample.txt"
check "float32 report on the sample" \
    "$GELU_ACC" report --out "$tmp/s" --formats float32 --float32-domain "file:$tmp/f32-sample.txt"
check "the float32 sample agrees with the committed exhaustive report" \
    "$PYTHON" -c "
import json
full = json.load(open('$reports/float32.json'))
part = json.load(open('$tmp/s/float32.json'))
# Implementations added since the exhaustive report was last made ('make
# report', 15 min) are not in it yet: named here, checked once it is remade.
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
finish
