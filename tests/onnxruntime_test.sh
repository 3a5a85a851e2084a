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

# The manifest: 12 sections; float32 and float16 graded, bfloat16 unsupported
# (the bfloat16 section read whole, up to its blank line: its keys grow).
count_lines() { grep -c "$1" "$tmp/out/manifest"; }
check "the manifest lists 12 sections with their CPU, 8 graded and 4 unsupported (bfloat16)" \
    bash -c "$(declare -f count_lines); tmp=$tmp;
             [ \$(count_lines '^\[onnxruntime-') = 12 ] && [ \$(count_lines '^kernel = outputs:') = 8 ] &&
             [ \$(count_lines '^unsupported = ') = 4 ] && [ \$(count_lines '^version = 1.30.0\$') = 12 ] &&
             [ \$(count_lines '^cpu = .') = 12 ] && [ \$(count_lines '^isa = ') = 12 ] &&
             sed -n '/^\[onnxruntime-gelu-bfloat16\]/,/^\$/p' $tmp/out/manifest | grep -q '^unsupported = .*Could not find an implementation'"

# The files each graded section names grade again to the JSON it names.
check "every graded section's files grade again to its graded JSON" \
    bash -c "cd $tmp/out && for s in \$(sed -n 's/^kernel = outputs://p' manifest); do
                 f=\${s%.npy}; f=\${f##*-}; r=\$(grep -A5 \"^\\[\${s%.npy}\\]\" manifest | sed -n 's/^reference = //p')
                 $GELU_ACC grade --format \$f --inputs inputs-\$f.npy --outputs \$s --reference \$r \\
                     --name \${s%.npy} --json > again.json || exit 1
                 cmp again.json \${s%.npy}.json || exit 1
             done"

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
