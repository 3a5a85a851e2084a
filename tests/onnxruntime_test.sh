#!/bin/bash
# tools/onnxruntime/gelu-ort.mjs end to end, when node and the pinned
# onnxruntime-node are installed ('make real-onnxruntime' installs it):
# its hand-encoded models load, its .npy files are what gelu-acc grades, and
# ONNX Runtime 1.30's known values come out where they should.
. "${top_srcdir:-.}/tests/tap.sh"
src=${top_srcdir:-.}
ort=$src/tools/onnxruntime
# An absolute path: the checks run in other directories.
GELU_ACC=$(cd "$(dirname "$GELU_ACC")" && pwd)/$(basename "$GELU_ACC")

if ! command -v node >/dev/null || [ ! -f "$ort/node_modules/onnxruntime-node/package.json" ]; then
    echo "1..0 # SKIP node or tools/onnxruntime/node_modules (make real-onnxruntime installs it) missing"
    exit 0
fi

# x = -5.5, -8, 1, -inf, NaN, then 16-bit formats use every input.
printf '0xc0b00000\n0xc1000000\n0x3f800000\n0xff800000\n0x7fc00000\n' > "$tmp/points"
check "gelu-ort.mjs runs every variant and format" \
    node "$ort/gelu-ort.mjs" --gelu-acc "$GELU_ACC" --out "$tmp/out" --float32-domain "file:$tmp/points"

# The manifest's sections, as "name format inputs outputs reference path lengths"
# lines (measured ones), or "name format unsupported".
sections() {
    "$PYTHON" - "$tmp/out/manifest" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
for block in text.split('\n\n'):
    m = re.search(r'^\[(.*)\]$', block, re.M)
    if not m:
        continue
    kv = dict(re.findall(r'^(\w+) = (.*)$', block, re.M))
    if 'unsupported' in kv:
        print(m.group(1), kv['format'], 'unsupported', kv['unsupported'])
    else:
        print(m.group(1), kv['format'], kv['inputs'], kv['kernel'][len('outputs:'):],
              kv['reference'], '|', kv.get('path', ''), '|', kv.get('lengths', ''))
PY
}

# 12 operator sections (float32 and float16 graded, bfloat16 unsupported),
# each graded one on long runs with its other lengths' note, and one more
# section per length that differs; every section names its CPU.
count_lines() { grep -c "$1" "$tmp/out/manifest"; }
manifest_ok() {
    sections > "$tmp/sections" || return 1
    local long len unsupported
    long=$(grep -c '| long tensors: runs of up to 1048576 elements, padded to a multiple of 64 | length' "$tmp/sections")
    len=$(grep -c '^onnxruntime-[a-z-]*-len\(1\|67\)-[a-z0-9]* ' "$tmp/sections")
    unsupported=$(grep -c ' unsupported ' "$tmp/sections")
    echo "$long long runs, $len other lengths, $unsupported unsupported"
    [ "$long" = 8 ] && [ "$unsupported" = 4 ] &&
        [ "$(count_lines '^\[onnxruntime-')" = $((12 + len)) ] &&
        [ "$(count_lines '^version = 1.30.0$')" = $((12 + len)) ] &&
        [ "$(count_lines '^cpu = .')" = $((12 + len)) ] && [ "$(count_lines '^isa = ')" = $((12 + len)) ] &&
        grep -q '^onnxruntime-gelu-bfloat16 bfloat16 unsupported .*Could not find an implementation' "$tmp/sections"
}
check "the manifest: 12 operators with their CPU, 8 graded on long runs with their lengths, 4 unsupported (bfloat16)" \
    manifest_ok

# The files each graded section names grade again to the JSON it names.
grade_again() {
    cd "$tmp/out" || return 1
    while read -r name format inputs outputs reference rest; do
        [ "$inputs" = unsupported ] && continue
        "$GELU_ACC" grade --format "$format" --inputs "$inputs" --outputs "$outputs" \
            --reference "$reference" --name "$name" --json > again.json || return 1
        cmp again.json "$name.json" || return 1
    done < "$tmp/sections"
}
check "every graded section's files grade again to its graded JSON" grade_again

# Each long run's note against gelu-acc compare of its outputs with those of
# each length that differs (the same inputs for float16).
lengths_agree() {
    cd "$tmp/out" || return 1
    grep '^onnxruntime-[a-z-]*-len\(1\|67\)-float16 ' "$tmp/sections" | while read -r name format inputs outputs reference rest; do
        long=${name/-len1-/-}; long=${long/-len67-/-}
        len=${name#*-len}; len=${len%%-*}
        differ=$("$GELU_ACC" compare "outputs:$long.npy" "outputs:$outputs" --inputs "$inputs" \
                     --format "$format" --reference "$reference" --json |
                 "$PYTHON" -c "import json,sys; c=json.load(sys.stdin); print(c['inputs'] - c['same_bits'])")
        grep "^$long " "$tmp/sections" | grep -q "length $len: $differ of 65536 inputs differ (row $name)" ||
            { echo "$name: compare counts $differ"; return 1; }
    done
}
check "each float16 length that differs: its count in the note = gelu-acc compare of the two outputs" \
    lengths_agree

# ONNX Runtime 1.30 on the CPU: gelu(-5.5) = -1.639e-7 (the truth is
# -1.044e-7), -0 at -8, NaN at -inf, the exact Gelu and the contrib Gelu agree;
# approximate = tanh gives 0.8412 at 1 where the exact form gives 0.8413.
check "float32 Gelu: -1.639e-7 at -5.5, -0 at -8, NaN at -inf, contrib Gelu the same; tanh form 0.8412 at 1" \
    node --input-type=module -e "
import { openNpy, readChunk } from '$ort/npy.mjs';
const read = (f) => { const n = openNpy('$tmp/out/' + f); return new Float32Array(readChunk(n, 0, n.length).buffer); };
const [y, ms, tanh] = ['gelu', 'ms-gelu', 'gelu-tanh'].map((v) => read('onnxruntime-' + v + '-float32.npy'));
const ok = y[0].toPrecision(4) === '-1.639e-7' && Object.is(y[1], -0) && y[2].toPrecision(4) === '0.8413'
  && Number.isNaN(y[3]) && Number.isNaN(y[4]) && y.every((v, i) => Object.is(v, ms[i]))
  && tanh[2].toPrecision(4) === '0.8412';
if (!ok) { console.log(Array.from(y), Array.from(ms), Array.from(tanh)); process.exit(1); }"
finish
