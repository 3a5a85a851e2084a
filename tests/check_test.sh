#!/bin/bash
# Regression testing end to end: baselines with plugins, a regressed kernel,
# a crashing and a hanging kernel, graded output files and their errors.
. "${top_srcdir:-.}/tests/tap.sh"
src=${top_srcdir:-.}
plugins=$GELU_ACC_PLUGIN_DIR
data=$src/tests/data/npy

if [ ! -d "$plugins" ] || [ ! -d "$GELU_ACC_EXAMPLE_DIR" ]; then
    echo "1..0 # SKIP plugins not built (GELU_ACC_PLUGIN_DIR, GELU_ACC_EXAMPLE_DIR)"
    exit 0
fi

# The example plugin against its committed baseline (paths are relative to
# the baseline file: put the built library where it expects it).
mkdir "$tmp/example"
cp "$src/examples/plugin/gelu_tanh_fast.baseline" "$tmp/example/"
ln -s "$GELU_ACC_EXAMPLE_DIR" "$tmp/example/.libs"
check "example plugin meets its committed baseline" \
    "$GELU_ACC" check --baseline "$tmp/example/gelu_tanh_fast.baseline"

# Record a baseline for the good kernel, then point it at the regressed one,
# which is one ulp high at x = 1 (0x3f800000) and nowhere else.
cat > "$tmp/good.baseline" <<END
[kernel]
kernel = plugin:$plugins/good.so:good_gelu_f32
format = float32
domain = range:0.99:1.01
END
check "--update-baseline records the good kernel" \
    "$GELU_ACC" check --baseline "$tmp/good.baseline" --update-baseline
check "the recorded baseline passes" "$GELU_ACC" check --baseline "$tmp/good.baseline"
sed 's/good\.so:good_gelu_f32/regressed.so:regressed_gelu_f32/' "$tmp/good.baseline" > "$tmp/regressed.baseline"
check "a regressed kernel fails with exit 1, naming the metric and the input" \
    bash -c "$(declare -f expect_status); tmp=$tmp; expect_status 1 $GELU_ACC check --baseline $tmp/regressed.baseline &&
             grep -q 'max_ulp' $tmp/out && grep -q 'worst input 0x3f800000' $tmp/out && grep -q '^FAIL kernel' $tmp/out"
check "--update-baseline keeps the file when a kernel fails" \
    bash -c "cp $tmp/regressed.baseline $tmp/keep && sed 's/range:0.99:1.01/range:1.999:2.001/' $tmp/keep > $tmp/crash.baseline &&
             sed -i 's/regressed\.so:regressed_gelu_f32/crashing.so:crashing_gelu_f32/' $tmp/crash.baseline &&
             cp $tmp/crash.baseline $tmp/crash.before; ! $GELU_ACC check --baseline $tmp/crash.baseline --update-baseline >/dev/null; cmp $tmp/crash.before $tmp/crash.baseline"

# A crashing kernel beside a good one: the crash is reported with its inputs
# (x in [2, 3) raises SIGSEGV) and the good kernel is still judged.
cat > "$tmp/two.baseline" <<END
[crash]
kernel = plugin:$plugins/crashing.so:crashing_gelu_f32
format = float32
domain = range:1.999:2.001
max_ulp = 1

[good]
kernel = plugin:$plugins/good.so:good_gelu_f32
format = float32
domain = range:1.999:2.001
max_ulp = 1
END
check "a crashing kernel is reported and the run goes on to a verdict" \
    bash -c "$(declare -f expect_status); tmp=$tmp; expect_status 1 $GELU_ACC check --baseline $tmp/two.baseline &&
             grep -q '^FAIL crash: the kernel killed by signal 11' $tmp/out && grep -q 'inputs 0x40000000\.\.' $tmp/out &&
             grep -q '^PASS good' $tmp/out"
printf '0x3f800000\n0x3fc00000\n0x40000000\n' > "$tmp/three"
check "a hanging kernel times out, naming the input" \
    bash -c "$(declare -f expect_status); tmp=$tmp; expect_status 1 $GELU_ACC sweep --kernel $plugins/hanging.so:hanging_gelu_f32 --format float32 --domain file:$tmp/three --timeout 1 &&
             grep -q 'timed out' $tmp/out && grep -q '0x3fc00000' $tmp/out"
check "a plugin that cannot be loaded: exit 2" \
    bash -c "$(declare -f expect_status stderr_has); tmp=$tmp; expect_status 2 $GELU_ACC sweep --kernel $tmp/none.so:k --format float32 && stderr_has 'none.so'"

# Graded outputs.
check "inputs writes a .npy that grade reads back" \
    bash -c "$GELU_ACC inputs --format bfloat16 --domain range:-1:1 -o $tmp/in.npy && $GELU_ACC grade --format bfloat16 --inputs $tmp/in.npy --outputs $tmp/in.npy --json > $tmp/g.json &&
             $PYTHON -c 'import json; r = json.load(open(\"$tmp/g.json\"))[0]; assert r[\"count\"] == 2 * (0x3f80 + 1), r[\"count\"]'"
check "inputs refuses to overwrite without --force" \
    bash -c "$(declare -f expect_status stderr_has); tmp=$tmp; expect_status 2 $GELU_ACC inputs --format bfloat16 -o $tmp/in.npy && stderr_has 'force'"
check "NumPy's own float32 file is graded (y = x: 16 inputs)" \
    bash -c "$GELU_ACC grade --format float32 --inputs $data/f32.npy --outputs $data/f32.npy --json | $PYTHON -c 'import json,sys; assert json.load(sys.stdin)[0][\"count\"] == 16'"
for bad in "f32_truncated.npy:truncated" "f32_be.npy:big-endian" "f64.npy:<f8" "f32_2d_fortran.npy:shape" "f32_trailing.npy:trailing"; do
    file=${bad%%:*} word=${bad#*:}
    check "grade rejects $file with exit 2 ('$word')" \
        bash -c "$(declare -f expect_status stderr_has); tmp=$tmp; expect_status 2 $GELU_ACC grade --format float32 --inputs $data/f32.npy --outputs $data/$file && stderr_has '$word' && stderr_has '$file'"
done
check "grade rejects files of different lengths" \
    bash -c "$(declare -f expect_status stderr_has); tmp=$tmp; head -c 60 /dev/zero > $tmp/raw15; expect_status 2 $GELU_ACC grade --format float32 --inputs $data/f32.npy --outputs $tmp/raw15 && stderr_has 'raw15'"
check "grade rejects a float16 file given as bfloat16" \
    bash -c "$(declare -f expect_status stderr_has); tmp=$tmp; expect_status 2 $GELU_ACC grade --format bfloat16 --inputs $data/f16.npy --outputs $data/f16.npy && stderr_has '<f2'"

# Graded outputs from another program: exact GELU in double, evaluated by
# Python, must grade exactly as the catalogue's 'double' entry sweeps (every
# figure but the names).  200000 inputs: many chunks, read as the sweep goes.
same_figures='
import json, sys
g, s = (json.load(open(p))[0] for p in sys.argv[1:])
names = {"impl", "models", "formula", "computes", "domain", "shape"}
diff = [k for k in s if k not in names and g.get(k) != s[k]]
assert not diff and g["count"] == 200000, [(k, g.get(k), s[k]) for k in diff]
# the shape: graded outputs cannot run -x (odd), and neither domain is ordered
gs, ss = g["shape"], s["shape"]
assert gs["odd"] is None and ss["odd"] is not None and gs["monotone"] is None is ss["monotone"]
assert all(gs[k] == ss[k] for k in ("minimum", "truth_minimum", "sign_errors", "first_sign_error"))'
check "outputs computed in Python grade like the 'double' sweep" \
    bash -c "$GELU_ACC inputs --format float32 --domain random:200000 -o $tmp/r.npy &&
             $PYTHON $src/tests/gelu_double.py $tmp/r.npy $tmp/r.raw &&
             $GELU_ACC grade --format float32 --inputs $tmp/r.npy --outputs $tmp/r.raw --json > $tmp/g.json &&
             $GELU_ACC sweep --impl double --format float32 --domain random:200000 --json > $tmp/s.json &&
             $PYTHON -c '$same_figures' $tmp/g.json $tmp/s.json"

# grade streams its files: 2^26 float32 elements (two 256 MiB arrays) grade
# under a 128 MiB address-space limit.  Sanitizer builds reserve terabytes of
# address space, so the limit cannot apply to them.
if ldd "$GELU_ACC" 2>/dev/null | grep -q 'lib[at]san'; then
    echo "ok $((tap_count += 1)) - # SKIP grade's memory under a limit: sanitizer build"
else
    check "grade reads 2 x 256 MiB of float32 under a 128 MiB memory limit" \
        bash -c "$GELU_ACC inputs --format float32 --domain stride:64 -o $tmp/big.npy &&
                 (ulimit -v 131072 && $GELU_ACC grade --format float32 --inputs $tmp/big.npy --outputs $tmp/big.npy --json > $tmp/big.json) &&
                 $PYTHON -c 'import json; assert json.load(open(\"$tmp/big.json\"))[0][\"count\"] == 2**26' &&
                 rm $tmp/big.npy"
fi

# Malformed baselines: exit 2 with file and line.
printf '[a]\nkernel = erf\nformat = float16\nmax_ulp = lots\n' > "$tmp/bad.baseline"
check "a malformed baseline names its line" \
    bash -c "$(declare -f expect_status stderr_has); tmp=$tmp; expect_status 2 $GELU_ACC check --baseline $tmp/bad.baseline && stderr_has 'bad.baseline:4'"
printf 'kernel = erf\n' > "$tmp/bad2.baseline"
check "a setting outside a section is refused" \
    bash -c "$(declare -f expect_status stderr_has); tmp=$tmp; expect_status 2 $GELU_ACC check --baseline $tmp/bad2.baseline && stderr_has 'bad2.baseline:1'"
finish
