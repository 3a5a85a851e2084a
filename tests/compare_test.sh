#!/bin/bash
# gelu-acc compare end to end: the bfloat16 table and counts, recounted
# independently (tests/compare_recount.py: the sides' outputs from
# tests/compare_dump, MPFR's exact values from 'gelu-acc truth'); Markdown
# tables of a constant width; --fail-on-worse and --max-worsened on a kernel
# mutated at one input; outputs: sides; bad input refused with nothing
# printed.  --backward: bfloat16 pairs recounted likewise (compare_dump
# --backward writes the pairs and a model's dx, compare_recount.py
# --backward computes the exact dx with mpmath).
. "${top_srcdir:-.}/tests/tap.sh"
src=${top_srcdir:-.}
dump=${abs_top_builddir:-.}/tests/compare_dump
plugins=$GELU_ACC_PLUGIN_DIR

check "compare prints the bucket table and the counts" bash -c '
    "$0" compare erf erf_torch_bf16 --format bfloat16 > "$1/text" &&
    grep -q "^compare A = erf, B = erf_torch_bf16 on bfloat16" "$1/text" &&
    grep -q "input by input: B improved [0-9]*, worsened [0-9]*, unchanged" "$1/text" &&
    grep -q "^  correctly rounded  *65210  *99.503  *64227  *98.003$" "$1/text" &&
    grep -q "^  total  *65536  *100.000  *65536  *100.000$" "$1/text" &&
    grep -q "worst regressions (B worse than A)" "$1/text" &&
    grep -q "ranges of x where B is worse" "$1/text"' "$GELU_ACC" "$tmp"

# The figures compare prints as JSON, as lines the recount prints too.
figures() {
    all_figures "$1" "$2" --format bfloat16
}
all_figures() {
    "$GELU_ACC" compare "$@" --json | "$PYTHON" -c '
import json, sys
d = json.load(sys.stdin)
for k in ("improved", "worsened", "unchanged"):
    print(k, d[k])
for side in "ab":
    for k, v in d["buckets"][side].items():
        print(side, k, v["inputs"])
print("ranges", d["worse_ranges"]["total"])
print("ranges_worsened", d["worse_ranges"]["worsened"])
for r in d["worse_ranges"]["listed"]:
    print("range", r["first_index"], r["last_index"], r["worsened"])
total = [sum(v["percent"] * 1000 for v in d["buckets"][s].values()) for s in "ab"]
assert [round(t) for t in total] == [100000, 100000], total
' | sort
}

# The recount's lines, with the zero counts it leaves out.
recount() {
    "$dump" "$1" bfloat16 "$tmp/$1.raw" && "$dump" "$2" bfloat16 "$tmp/$2.raw" &&
    "$PYTHON" "$src/tests/compare_recount.py" "$tmp/truth" "$tmp/$1.raw" "$tmp/$2.raw" \
        > "$tmp/counted" &&
    figures "$1" "$2" | while read -r line; do
        grep -q "^${line% *} " "$tmp/counted" || echo "${line% *} 0"
    done | cat - "$tmp/counted" | sort
}

check "MPFR's truth of every bfloat16 input" \
    bash -c '"$0" truth --format bfloat16 --all --exact --oracle mpfr > "$1/truth"' "$GELU_ACC" "$tmp"
for pair in "erf erf_torch_bf16" "erf_dnnl erf_torch_bf16" "erf_torch_bf16 erf"; do
    set -- $pair
    check "compare $1 $2: counts, buckets and ranges recounted from the outputs and MPFR" \
        diff <(figures "$1" "$2") <(recount "$1" "$2")
done
both_ways() {
    figures "$1" "$2" > "$tmp/both" && grep -q "^improved [1-9]" "$tmp/both" &&
    grep -q "^worsened [1-9]" "$tmp/both"
}
check "the recounted pairs hold improvements and regressions" both_ways erf_dnnl erf_torch_bf16

# Markdown: every row of a table has its header's number of cells.
# (md_tables.py FILE: the check, for the forward and the backward tables)
cat > "$tmp/md_tables.py" <<'PY'
import re, sys
cells = lambda line: len(re.split(r"(?<!\\)\|", line.strip())) - 2
width, tables = None, 0
for line in open(sys.argv[1]):
    if not line.startswith("|"):
        width = None
        continue
    if width is None:
        width, tables = cells(line), tables + 1
    assert cells(line) == width, line
    assert line.rstrip().endswith("|"), line
assert tables == 2, tables
PY
check "--markdown: tables of a constant width, the title names both sides" bash -c '
    "$0" compare erf erf_torch_bf16 --format bfloat16 --markdown > "$1/md" &&
    head -1 "$1/md" | grep -q "^#### .*\`erf\` (A) vs \`erf_torch_bf16\` (B)" &&
    grep -q "^\*\*B improved 0 inputs, worsened 1013, left 64523 unchanged\*\*" "$1/md" &&
    "$2" "$1/md_tables.py" "$1/md"
' "$GELU_ACC" "$tmp" "$PYTHON"

# outputs: sides over one inputs file; B mutated at x = 1 (index 0x3f80),
# where erf's output is correctly rounded, to the next encoding.
"$GELU_ACC" inputs --format bfloat16 -o "$tmp/in.raw" --kind raw
"$dump" erf bfloat16 "$tmp/a.raw"
"$PYTHON" -c '
import sys
b = bytearray(open(sys.argv[1], "rb").read())
i = 2 * 0x3f80
assert b[i:i + 2] == bytes([0x57, 0x3f])   # erf(1) = 0x3f57, correctly rounded
b[i] += 1
open(sys.argv[2], "wb").write(b)
open(sys.argv[3], "wb").write(b[:-2])
' "$tmp/a.raw" "$tmp/mutated.raw" "$tmp/short.raw"
check "--fail-on-worse: exit 1 on a kernel mutated at one input" bash -c '
    st=0; "$0" compare outputs:"$1/a.raw" outputs:"$1/mutated.raw" --inputs "$1/in.raw" \
        --format bfloat16 --fail-on-worse > "$1/out" 2> "$1/err" || st=$?
    [ $st -eq 1 ] && grep -q "worsened 1, unchanged 65535" "$1/out" &&
    grep -q "^    \[1, 1\]: 1 input worse$" "$1/out" &&
    grep -q "B is worse than A on 1 inputs (--fail-on-worse)" "$1/err" &&
    grep -q "x = 1 (0x3f80), exact 0.841344746: A 0.8398 (0x3f57) 0.3843 ulp, B 0.8438 (0x3f58) 0.6157 ulp" "$1/out"' \
    "$GELU_ACC" "$tmp"
check "--fail-on-worse: exit 0 on the same kernel twice (outputs, catalogue, both)" bash -c '
    "$0" compare outputs:"$1/a.raw" outputs:"$1/a.raw" --inputs "$1/in.raw" --format bfloat16 \
        --fail-on-worse > /dev/null &&
    "$0" compare erf outputs:"$1/a.raw" --inputs "$1/in.raw" --format bfloat16 --fail-on-worse \
        | grep -q "improved 0, worsened 0, unchanged 65536" &&
    "$0" compare erf erf --format bfloat16 --fail-on-worse > /dev/null' "$GELU_ACC" "$tmp"
check "the mutated input the other way round is an improvement" bash -c '
    "$0" compare outputs:"$1/mutated.raw" erf --inputs "$1/in.raw" --format bfloat16 \
        --fail-on-worse | grep -q "improved 1, worsened 0, unchanged 65535"' "$GELU_ACC" "$tmp"
check "--max-worsened N: 0 at N = the count, 1 below it" bash -c '
    "$0" compare erf erf_torch_bf16 --format bfloat16 --max-worsened 1013 > /dev/null &&
    st=0; "$0" compare erf erf_torch_bf16 --format bfloat16 --max-worsened 1012 > /dev/null \
        2> "$1/err" || st=$?
    [ $st -eq 1 ] && grep -q "more than --max-worsened 1012" "$1/err"' "$GELU_ACC" "$tmp"

# Bad input: exit 2, a message naming what is wrong, nothing on stdout.
refused() {
    local message=$1
    shift
    expect_status 2 "$GELU_ACC" compare "$@" && stderr_has "$message" &&
    { [ ! -s "$tmp/out" ] || { echo "stdout not empty:"; cat "$tmp/out"; false; }; }
}
check "an unknown side" refused "unknown implementation 'nosuch'" erf nosuch --format bfloat16
check "a side without the format" refused "has no bfloat16 version" erf lut_f16 --format bfloat16
check "one side only" refused "give two sides" erf --format bfloat16
check "an outputs file of another length" refused "short.raw" \
    outputs:"$tmp/a.raw" outputs:"$tmp/short.raw" --inputs "$tmp/in.raw" --format bfloat16
check "an outputs file of another dtype" refused "dtype '<f4' found" \
    outputs:"$src/tests/data/npy/f32.npy" erf --inputs "$tmp/in.raw" --format bfloat16
check "--inputs without an outputs: side" refused "goes with an outputs:FILE side" \
    erf erf_torch_bf16 --inputs "$tmp/in.raw" --format bfloat16
check "--domain with --inputs" refused "--domain cannot go with it" \
    erf outputs:"$tmp/a.raw" --inputs "$tmp/in.raw" --domain all --format bfloat16
check "a bad domain" refused "domain" erf erf_torch_bf16 --format bfloat16 --domain nonsense:1
check "--max-worsened takes a count" refused "--max-worsened takes a count" \
    erf erf --format bfloat16 --max-worsened -1

check "float32: the same bytes for 1, 2 and 3 threads (ranges across chunks included)" bash -c '
    for t in 1 2 3; do
        "$0" compare erf tanh_factored --format float32 --domain stride:4096 --threads $t \
            --json > "$1/threads$t" || exit 1
    done
    grep -q "\"total\": [1-9]" "$1/threads1" &&
    cmp "$1/threads1" "$1/threads2" && cmp "$1/threads1" "$1/threads3"' "$GELU_ACC" "$tmp"

# Snapshots: sweep --save-outputs, then the snapshot as side A.
check "sweep --save-outputs: the outputs compare_dump writes, as .npy and raw" bash -c '
    "$0" sweep --impl erf --format bfloat16 --save-outputs "$1/snap.npy" > /dev/null &&
    "$0" sweep --impl erf --format bfloat16 --save-outputs "$1/snap.raw" > /dev/null &&
    cmp "$1/snap.raw" "$1/a.raw" && "$0" inputs --format bfloat16 -o "$1/in.npy" &&
    "$0" grade --format bfloat16 --inputs "$1/in.npy" --outputs "$1/snap.npy" | grep -q "65536: correctly rounded 99.502 %"' \
    "$GELU_ACC" "$tmp"
check "a snapshot as side A: the figures of the kernel it recorded" bash -c '
    figures() { sed "/\"sides\"/,\$d" | tail -n +3; }
    "$0" compare erf erf_torch_bf16 --format bfloat16 --json | figures > "$1/direct" &&
    "$0" compare outputs:"$1/snap.npy" erf_torch_bf16 --inputs "$1/in.npy" --format bfloat16 \
        --json | figures > "$1/snapped" &&
    grep -q "\"worsened\": 1013" "$1/direct" && diff "$1/direct" "$1/snapped"' "$GELU_ACC" "$tmp"
check "--save-outputs refuses more than 2^26 inputs, shards and --input-format" bash -c '
    st=0; "$0" sweep --impl erf --format float32 --domain all --save-outputs "$1/big.raw" \
        2> "$1/err" || st=$?
    [ $st -eq 2 ] && grep -q "at most 2^26 inputs" "$1/err" && [ ! -e "$1/big.raw" ] &&
    st=0; "$0" sweep --impl erf --format bfloat16 --shard 1/2 --partial "$1/p" \
        --save-outputs "$1/s.raw" 2> "$1/err" || st=$?
    [ $st -eq 2 ] && grep -q "not with --shard" "$1/err" && [ ! -e "$1/s.raw" ] &&
    st=0; "$0" sweep --format float8_e4m3fn --input-format bfloat16 --save-outputs "$1/s.raw" \
        2> "$1/err" || st=$?
    [ $st -eq 2 ] && grep -q "not with --input-format" "$1/err"' "$GELU_ACC" "$tmp"

# --backward: two backward models over bfloat16 pairs.
pairs=pairs:random:20000:7
backward_figures() {
    all_figures --backward "$@" --format bfloat16 | grep -v " 0$"
}
backward_recount() {
    "$dump" --backward "$1" bfloat16 $pairs "$tmp/$1" && "$dump" --backward "$2" bfloat16 $pairs "$tmp/$2" &&
    "$PYTHON" "$src/tests/compare_recount.py" --backward "$tmp/$1.x" "$tmp/$1.dy" "$tmp/$1.dx" \
        "$tmp/$2.dx" | grep -v " 0$" | sort
}
check "--backward: a model against itself, nothing worse (--fail-on-worse exits 0)" bash -c '
    "$0" compare --backward pytorch_gelu_backward pytorch_gelu_backward --format bfloat16 \
        --domain pairs:random:100000 --fail-on-worse > "$1/out" &&
    grep -q "^compare --backward A = pytorch_gelu_backward, B = pytorch_gelu_backward on bfloat16 against gelu_grad" "$1/out" &&
    grep -q "pair by pair: B improved 0, worsened 0, unchanged 100000 (same bits 100000," "$1/out" &&
    grep -q "^  total  *100000  *100.000  *100000  *100.000$" "$1/out"' "$GELU_ACC" "$tmp"
if "$PYTHON" -c "import mpmath" 2> /dev/null; then
    for pair in "pytorch_gelu_backward pytorch_gelu_backward_native" \
                "pytorch_gelu_backward jax_gelu_backward"; do
        set -- $pair
        check "--backward $1 $2: counts, buckets and ranges by x recounted from the outputs and mpmath" \
            diff <(backward_figures "$1" "$2" --domain $pairs) <(backward_recount "$1" "$2")
    done
    backward_figures pytorch_gelu_backward pytorch_gelu_backward_native --domain $pairs \
        > "$tmp/backward_both"
    check "--backward: the recounted pairs hold improvements, regressions and ranges" bash -c '
        grep -q "^improved [1-9]" "$0" && grep -q "^worsened [1-9]" "$0" && grep -q "^range " "$0"' \
        "$tmp/backward_both"
else
    echo "ok $((tap_count += 1)) - # SKIP --backward recounts: no mpmath for $PYTHON"
fi
check "--backward: outputs: sides over --inputs and --dy-inputs, the figures of the models" bash -c '
    [ -s "$1/pytorch_gelu_backward.dx" ] || "$3" --backward pytorch_gelu_backward bfloat16 $2 "$1/pytorch_gelu_backward"
    [ -s "$1/pytorch_gelu_backward_native.dx" ] || "$3" --backward pytorch_gelu_backward_native bfloat16 $2 "$1/pytorch_gelu_backward_native"
    figures() { sed -n "/\"inputs\"/,/\"sides\"/p"; }
    "$0" compare --backward pytorch_gelu_backward pytorch_gelu_backward_native --format bfloat16 \
        --domain $2 --json | figures > "$1/models" &&
    "$0" compare --backward outputs:"$1/pytorch_gelu_backward.dx" pytorch_gelu_backward_native \
        --inputs "$1/pytorch_gelu_backward.x" --dy-inputs "$1/pytorch_gelu_backward.dy" \
        --format bfloat16 --json | figures > "$1/outputs" &&
    grep -q "\"worsened\": [1-9]" "$1/models" && diff "$1/models" "$1/outputs"' \
    "$GELU_ACC" "$tmp" "$pairs" "$dump"
check "--backward --fail-on-worse: exit 1 when a pair got worse" bash -c '
    st=0; "$0" compare --backward pytorch_gelu_backward pytorch_gelu_backward_native \
        --format bfloat16 --domain $2 --fail-on-worse > /dev/null 2> "$1/err" || st=$?
    [ $st -eq 1 ] && grep -q "B is worse than A on [1-9][0-9]* inputs" "$1/err"' "$GELU_ACC" "$tmp" "$pairs"
check "--backward --markdown: tables of a constant width, x, dy and exact dx in the regressions" bash -c '
    "$0" compare --backward pytorch_gelu_backward pytorch_gelu_backward_native --format bfloat16 \
        --domain $3 --markdown > "$1/md" &&
    head -1 "$1/md" | grep -q "^#### GELU backward accuracy: \`pytorch_gelu_backward\` (A) vs \`pytorch_gelu_backward_native\` (B), bfloat16 against gelu_grad, 20000 pairs" &&
    grep -q "^| x | dy | exact dx | A output | A ulp | B output | B ulp |$" "$1/md" &&
    "$2" "$1/md_tables.py" "$1/md"
' "$GELU_ACC" "$tmp" "$PYTHON" "$pairs"
check "--backward: the same bytes for 1 and 3 threads over several chunks of pairs" bash -c '
    for t in 1 3; do
        "$0" compare --backward pytorch_gelu_backward jax_gelu_backward --format bfloat16 \
            --domain pairs:random:200000 --threads $t --json > "$1/bthreads$t" || exit 1
    done
    grep -q "\"by\": \"x\", \"total\": [1-9]" "$1/bthreads1" && cmp "$1/bthreads1" "$1/bthreads3"' \
    "$GELU_ACC" "$tmp"
check "sweep --backward --save-outputs: a snapshot of pairs and dx, compared as side A" bash -c '
    figures() { sed -n "/\"inputs\"/,/\"sides\"/p"; }
    "$0" sweep --backward --impl pytorch_gelu_backward --format bfloat16 --domain $2 \
        --save-outputs "$1/release.npy" > /dev/null &&
    cmp <(tail -c 40000 "$1/release.x.npy") "$1/pytorch_gelu_backward.x" &&
    cmp <(tail -c 40000 "$1/release.npy") "$1/pytorch_gelu_backward.dx" &&
    "$0" compare --backward outputs:"$1/release.npy" pytorch_gelu_backward_native \
        --inputs "$1/release.x.npy" --dy-inputs "$1/release.dy.npy" --format bfloat16 --json \
        | figures > "$1/snapped" && diff "$1/models" "$1/snapped" &&
    st=0; "$0" sweep --backward --impl pytorch_gelu_backward --format bfloat16 \
        --save-outputs "$1/all.npy" 2> "$1/err" || st=$?
    [ $st -eq 2 ] && grep -q "at most 2^26" "$1/err" && [ ! -e "$1/all.npy" ]' \
    "$GELU_ACC" "$tmp" "$pairs"
check "--backward: a forward kernel refused" refused "side A (erf) is a forward kernel" \
    --backward erf pytorch_gelu_backward --format bfloat16
check "a backward kernel without --backward refused" refused "is a backward kernel: compare backward kernels with --backward" \
    pytorch_gelu_backward erf --format bfloat16
check "--backward: sides of different derivatives refused" refused "approximate different derivatives" \
    --backward pytorch_gelu_backward pytorch_gelu_backward_tanh --format bfloat16 --domain pairs:random:10
check "--backward: outputs: without --dy-inputs refused" refused "give --inputs X_FILE and --dy-inputs DY_FILE" \
    --backward outputs:"$tmp/a.raw" pytorch_gelu_backward --inputs "$tmp/in.raw" --format bfloat16
check "--dy without --backward refused" refused "--dy and --dy-inputs go with --backward" \
    erf erf --format bfloat16 --dy 2

if [ -d "$plugins" ]; then
    check "a side that crashes: exit 1, its inputs named, nothing printed" bash -c '
        st=0; "$0" compare erf "$1/crashing.so:crashing_gelu_f32" --format float32 \
            --domain range:1:4:4096 > "$2/out" 2> "$2/err" || st=$?
        [ $st -eq 1 ] && [ ! -s "$2/out" ] && grep -q "side B (plugin:.*crashing.*) failed" "$2/err" &&
        grep -q "on inputs 0x40" "$2/err"' "$GELU_ACC" "$plugins" "$tmp"
    check "--backward: plugin kernels declared backward; one with sign errors is worse" bash -c '
        "$0" compare --backward "$1/backward.so:backward_exact_bf16" \
            "$1/backward.so:backward_wrong_sign_bf16" --format bfloat16 \
            --domain pairs:random:100000 > "$2/out" &&
        grep -q "pair by pair: B improved 0, worsened [1-9][0-9]*, " "$2/out" &&
        grep -q "wrong sign of 0: 0, sign errors: [1-9]" "$2/out" &&
        st=0; "$0" compare --backward pytorch_gelu_backward "$1/declared.so:declared_gelu_bf16" \
            --format bfloat16 --domain pairs:random:10 > "$2/out" 2> "$2/err" || st=$?
        [ $st -eq 2 ] && [ ! -s "$2/out" ] && grep -q "declared a forward kernel" "$2/err"' \
        "$GELU_ACC" "$plugins" "$tmp"
    check "float32: a plugin against the catalogue over a stride" bash -c '
        "$0" compare erf "$1/good.so:good_gelu_f32" --format float32 --domain stride:65536 \
            --json | "$2" -c "
import json, sys
d = json.load(sys.stdin)
assert d[\"inputs\"] == 65536 and d[\"improved\"] + d[\"worsened\"] + d[\"unchanged\"] == 65536, d
"' "$GELU_ACC" "$plugins" "$PYTHON"
fi

finish
