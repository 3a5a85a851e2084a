#!/bin/bash
# Real kernels at their three tensor lengths (src/real/call_length.h,
# engine/report_lengths.h): what a report says of each kernel's other
# lengths is checked against 'gelu-acc compare', an independent count of
# the inputs whose bits differ, and each row of another length against its
# own 'gelu-acc sweep'.  On a CPU with AVX512_BF16, PyTorch's bfloat16 GELU
# is correctly rounded on 64 227 inputs through one-element tensors and on
# 48 914 through long ones (oneDNN takes long tensors there).
. "${top_srcdir:-.}/tests/tap.sh"

need_real_modules

# One float32 report on every 65536th input (the rows' and the lengths'
# domain), its backward section on every 2^20-th x.
check "a float32 report with real kernels at every length" \
    "$GELU_ACC" report --out "$tmp/r" --formats float32 --float32-domain stride:65536 \
        --float32-backward-domain stride:1048576

# Each long row's lengths, as (row, length, differing, compared).
lengths() {
    "$PYTHON" - "$1" <<'PY'
import json, re, sys
for row in json.load(open(sys.argv[1])):
    note = row.get('lengths')
    if not note or row.get('reference', '') not in ('gelu', 'gelu_grad', 'gelu_tanh_grad'):
        continue
    m = re.match(r'lengths 1 and 67: the same bits on (\d+) (inputs|pairs)$', note)
    if m:
        for l in ('1', '67'):
            print(row['impl'], l, 0, m.group(1))
        continue
    for clause in note.split('; '):
        m = re.match(r'length (\d+): (?:the same bits on (\d+)|(\d+) of (\d+)) (?:inputs|pairs)', clause)
        if not m:
            sys.exit('cannot read: ' + clause)
        print(row['impl'], m.group(1), m.group(3) or 0, m.group(2) or m.group(4))
PY
}

# compare's count of differing bits for each claim of the report.
agree() {
    local file=$1 domain=$2 backward=$3 n=0 bad=0
    while read -r impl len differ inputs; do
        "$GELU_ACC" compare $backward "$impl" "${impl}_len$len" --format float32 \
            --domain "$domain" --json > "$tmp/c.json" || { echo "compare $impl failed"; return 1; }
        got=$("$PYTHON" -c "import json,sys; c=json.load(open(sys.argv[1])); print(c['inputs'] - c['same_bits'], c['inputs'])" "$tmp/c.json")
        n=$((n + 1))
        if [ "$got" != "$differ $inputs" ]; then
            echo "$impl length $len: the report says $differ of $inputs differ, compare $got"
            bad=1
        fi
    done < <(lengths "$file")
    echo "$n claims"
    [ "$n" -gt 0 ] && [ $bad = 0 ]
}
check "every forward length claim agrees with gelu-acc compare" \
    agree "$tmp/r/float32-real.json" stride:65536 ""
check "every backward length claim agrees with gelu-acc compare --backward" \
    agree "$tmp/r/float32-backward-real.json" stride:1048576 --backward

# A row of another length: the figures of its own sweep.
same_as_sweep() {
    "$PYTHON" - "$tmp/r/float32-real.json" "$GELU_ACC" <<'PY'
import json, subprocess, sys
rows = [r for r in json.load(open(sys.argv[1]))
        if r['impl'].endswith(('_len1', '_len67')) and r['reference'] == 'gelu']
for r in rows:
    out = subprocess.run([sys.argv[2], 'sweep', '--impl', r['impl'], '--format', 'float32',
                          '--domain', r['domain'], '--json'], capture_output=True, check=True)
    s = json.loads(out.stdout)[0]
    for key in ('count', 'correctly_rounded', 'faithful', 'max_ulp', 'flushed_to_zero', 'nan'):
        if s[key] != r[key]:
            sys.exit('%s: %s %s in the report, %s in its sweep' % (r['impl'], key, r[key], s[key]))
    if 'length' not in r['call'] and 'element' not in r['call']:
        sys.exit('%s: the call does not name its length: %s' % (r['impl'], r['call']))
print(len(rows), 'rows of other lengths')
PY
}
check "each row of another length has the figures of its own sweep and names its length" \
    same_as_sweep

# One element per call skips oneDNN and ATen's vector loop alike: its
# scalar loop, the catalogue's models of it (doc/libraries.md).
same_bits() {
    "$GELU_ACC" compare "$1" "$2" --format float32 --domain stride:4096 --json |
        "$PYTHON" -c "import json,sys; c=json.load(sys.stdin); sys.exit(c['same_bits'] != c['inputs'] or c['inputs'] != 1 << 20)"
}
if have torch; then
    check "torch_erf_len1 = erf and torch_tanh_len1 = tanh_fma, float32, every 4096th input" \
        bash -c "$(declare -f same_bits); GELU_ACC='$GELU_ACC' PYTHON='$PYTHON';
                 same_bits erf torch_erf_len1 && same_bits tanh_fma torch_tanh_len1"
fi

if have torch && grep -qw avx512_bf16 /proc/cpuinfo; then
    cr() { "$GELU_ACC" sweep --impl "$1" --format bfloat16 --json |
           "$PYTHON" -c "import json,sys; print(json.load(sys.stdin)[0]['correctly_rounded'])"; }
    check "AVX512_BF16: torch_erf in bfloat16 is correctly rounded on 48914 inputs of long tensors" \
        test "$(cr torch_erf)" = 48914
    check "AVX512_BF16: ... and on 64227 inputs of one-element tensors" \
        test "$(cr torch_erf_len1)" = 64227
else
    skip "PyTorch's bfloat16 GELU by length on AVX512_BF16" "needs libtorch and a CPU with avx512_bf16"
fi
finish
