#!/bin/bash
# Backward kernels from shared libraries (ABI 2) and graded backward outputs,
# end to end: a kernel faithful by construction measures faithful on every
# pair, a kernel with the sign flipped around x0 shows exactly those sign
# errors, a crash and a read past dy are contained and named by pair, ABI 1
# libraries still load forward kernels and are refused for backward ones,
# and 'grade --backward' grades x, dy and dx files written here.
. "${top_srcdir:-.}/tests/tap.sh"
plugins=$GELU_ACC_PLUGIN_DIR

if [ ! -d "$plugins" ]; then
    echo "1..0 # SKIP plugins not built (GELU_ACC_PLUGIN_DIR)"
    exit 0
fi
helpers="$(declare -f expect_status stderr_has); tmp=$tmp; plugins=$plugins"
lib=$plugins/backward.so
# json FIELD-TEST: the JSON in $tmp/out satisfies a Python assertion on d.
json_all='import json,sys; d = json.load(open(sys.argv[1])); a = d["all"]'

# 1. Faithful by construction (tests/plugins/backward.c: the double
#    evaluation is within 2^-40 of dy*gelu'(x), so every dx is faithful).
for f in bfloat16:bf16 float16:f16 float32:f32; do
    check "backward_exact_${f#*:}: every one of 300000 random ${f%:*} pairs faithful, no sign error" \
        bash -c "$helpers; expect_status 0 $GELU_ACC sweep --backward --json --kernel $lib:backward_exact_${f#*:} --format ${f%:*} --domain pairs:random:300000:5 &&
                 $PYTHON -c '$json_all; assert a[\"pairs\"] == 300000 == a[\"faithful\"] and a[\"sign_errors\"] == a[\"nan_outputs\"] == a[\"not_nan\"] == a[\"zero_sign\"] == 0 and \"failed\" not in d, d' $tmp/out"
done
check "a plugin backward sweep prints the same bytes with 1 and 2 threads" \
    bash -c "$GELU_ACC sweep --backward --json --kernel $lib:backward_wrong_sign_bf16 --format bfloat16 --domain pairs:random:200000:7 --threads 1 > $tmp/a &&
             $GELU_ACC sweep --backward --json --kernel $lib:backward_wrong_sign_bf16 --format bfloat16 --domain pairs:random:200000:7 --threads 2 > $tmp/b && cmp $tmp/a $tmp/b"

# 2. Broken kernels.  The bfloat16 values in (-0.76, -0.74) are -0.7421875,
#    -0.74609375, -0.75, -0.75390625 and -0.7578125 (spacing 2^-8): five sign
#    errors with dy = 1, none of them at x0 itself (not a bfloat16).
check "backward_wrong_sign_bf16: 5 sign errors, the root region unfaithful on [-0.7578125, -0.7421875]" \
    bash -c "$helpers; expect_status 0 $GELU_ACC sweep --backward --json --kernel $lib:backward_wrong_sign_bf16 --format bfloat16 --domain range:-0.8:-0.7 --dy 1 &&
             $PYTHON -c '$json_all; assert a[\"sign_errors\"] == 5 == d[\"root\"][\"sign_errors\"] and d[\"root_unfaithful\"] == [-0.7578125, -0.7421875] and a[\"faithful\"] == a[\"pairs\"] - 5, d' $tmp/out"
# range:2.5:3.5 in bfloat16 steps of 2^-6: x = 3 is pair 32.
check "backward_crash_bf16: exit 1, the crash narrowed down to pair 32 (x = 3, dy = 2)" \
    bash -c "$helpers; expect_status 1 $GELU_ACC sweep --backward --kernel $lib:backward_crash_bf16 --format bfloat16 --domain range:2.5:3.5 --dy 2 &&
             grep -q 'pairs 32 to 32 (x = 0x4040, dy = 0x4000): killed by signal 11' $tmp/out"
check "backward_crash_bf16: --json names the failed pairs" \
    bash -c "$helpers; expect_status 1 $GELU_ACC sweep --backward --json --kernel $lib:backward_crash_bf16 --format bfloat16 --domain range:2.5:3.5 --dy 2 &&
             $PYTHON -c '$json_all; assert d[\"failed\"] == {\"batches\": 1, \"pairs\": 65, \"first\": 32, \"last\": 32, \"x\": \"0x4040\", \"dy\": \"0x4000\"}, d' $tmp/out"
check "backward_overrun_bf16: a read of dy[n] is caught on its guard page" \
    bash -c "$helpers; expect_status 1 $GELU_ACC sweep --backward --kernel $lib:backward_overrun_bf16 --format bfloat16 --domain range:2.5:3.5 --dy 2 &&
             grep -q 'touching dy\[n + 0\], past the end of its input array' $tmp/out"

# 3. Declarations and ABI versions.
check "a forward kernel is refused by --backward" \
    bash -c "$helpers; expect_status 2 $GELU_ACC sweep --backward --kernel $lib:backward_gelu_bf16 --format bfloat16 --domain pairs:random:10 && stderr_has 'declared a forward kernel'"
check "a backward kernel is refused by a forward sweep" \
    bash -c "$helpers; expect_status 2 $GELU_ACC sweep --kernel $lib:backward_exact_bf16 --format bfloat16 && stderr_has 'declared a backward kernel'"
check "a backward kernel declared bfloat16 is refused as float16" \
    bash -c "$helpers; expect_status 2 $GELU_ACC sweep --backward --kernel $lib:backward_exact_bf16 --format float16 --domain pairs:random:10 && stderr_has 'declared bfloat16'"
check "an ABI 1 library still loads its forward kernel" \
    bash -c "$helpers; expect_status 0 $GELU_ACC sweep --json --kernel $plugins/abi_v1.so:v1_gelu_f32 --format float32 --domain range:1:1.001 &&
             $PYTHON -c 'import json,sys; r = json.load(open(sys.argv[1]))[0]; assert r[\"count\"] > 0 and not r[\"failed\"], r' $tmp/out"
check "an ABI 1 library is refused for a backward kernel" \
    bash -c "$helpers; expect_status 2 $GELU_ACC sweep --backward --kernel $plugins/abi_v1.so:v1_other_f32 --format float32 && stderr_has 'ABI 1, which has no backward kernels'"
check "an ABI above 2 is refused for a backward kernel too" \
    bash -c "$helpers; expect_status 2 $GELU_ACC sweep --backward --kernel $plugins/future_abi.so:future_gelu_f32 --format float32 && stderr_has 'built for kernel ABI 3; this gelu-acc loads ABI 1 to 2'"
check "--kernel and --impl together are a usage error" \
    bash -c "$helpers; expect_status 2 $GELU_ACC sweep --backward --kernel $lib:backward_exact_bf16 --impl jax_gelu_backward --format bfloat16"

# 4. grade --backward on files written here: x (.npy, uint16), dy (raw) and
#    dx (.npy) in bfloat16, dx computed in double by Python (faithful, as the
#    plugin), with one element's sign flipped: x = -0.75, dy = 1, the last.
cat > "$tmp/write.py" <<'END'
import math, struct, sys
d = sys.argv[1]
def bf16(v):                      # nearest float, then nearest bfloat16: faithful
    u = struct.unpack('<I', struct.pack('<f', v))[0]
    return (u + 0x7fff + ((u >> 16) & 1)) >> 16
def val(b):
    return struct.unpack('<f', struct.pack('<I', b << 16))[0]
def grad(x):
    return 0.5 * math.erfc(-x / math.sqrt(2)) + x * math.exp(-0.5 * x * x) / math.sqrt(2 * math.pi)
xs, dys = [], []
for k in range(0, 65536, 37):      # x with |x| < 30, dy in [2^-20, 2^60), both signs
    if abs(val(k)) < 30 and val(k) == val(k):
        xs.append(k)
        dys.append(((k * 2654435761) >> 7) % 0x2800 + 0x3580 | (k & 1) << 15)
xs.append(0xbf40); dys.append(0x3f80)
dx = [bf16(val(y) * grad(val(x))) for x, y in zip(xs, dys)]
dx[-1] ^= 0x8000
def npy(path, a):
    head = "{'descr': '<u2', 'fortran_order': False, 'shape': (%d,), }" % len(a)
    head += ' ' * (63 - (10 + len(head)) % 64) + '\n'
    with open(path, 'wb') as f:
        f.write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(head)) + head.encode())
        f.write(struct.pack('<%dH' % len(a), *a))
npy(d + '/x.npy', xs)
npy(d + '/dx.npy', dx)
open(d + '/dy.raw', 'wb').write(struct.pack('<%dH' % len(dys), *dys))
open(d + '/dy_short.raw', 'wb').write(struct.pack('<%dH' % (len(dys) - 1), *dys[:-1]))
open(d + '/count', 'w').write(str(len(xs)))
END
$PYTHON "$tmp/write.py" "$tmp"
n=$(cat "$tmp/count")
check "grade --backward: $n pairs, all faithful but the one flipped, which is the one sign error and the worst pair" \
    bash -c "$helpers; expect_status 0 $GELU_ACC grade --backward --json --format bfloat16 --x $tmp/x.npy --dy $tmp/dy.raw --dx $tmp/dx.npy &&
             $PYTHON -c '$json_all; assert a[\"pairs\"] == $n and a[\"faithful\"] == $n - 1 and a[\"sign_errors\"] == 1 and a[\"worst\"][\"index\"] == $n - 1 and a[\"worst\"][\"x\"] == \"0xbf40\", d' $tmp/out"
check "grade --backward: a dy file one element short is refused, naming both files" \
    bash -c "$helpers; expect_status 2 $GELU_ACC grade --backward --format bfloat16 --x $tmp/x.npy --dy $tmp/dy_short.raw --dx $tmp/dx.npy && stderr_has dy_short.raw && stderr_has x.npy"
check "grade --backward: a uint16 .npy is not float16 (wrong dtype), naming the file" \
    bash -c "$helpers; expect_status 2 $GELU_ACC grade --backward --format float16 --x $tmp/x.npy --dy $tmp/dy.raw --dx $tmp/dx.npy && stderr_has x.npy"
check "grade --backward: a missing --dy is a usage error" \
    bash -c "$helpers; expect_status 2 $GELU_ACC grade --backward --format bfloat16 --x $tmp/x.npy --dx $tmp/dx.npy"

# 5. Baselines.  range:-0.796875:-0.703125 holds the 25 bfloat16 values
#    k/256, k = 180..204, five of them in (-0.76, -0.74): recorded for the
#    faithful kernel, the sign-flipping one exceeds two bounds.  Its worst
#    pair: a flipped dx is 2|d(x)| off; d(-0.75) ~ -7.7e-4 and d(-0.75390625)
#    ~ -9.1e-4 share ulp 2^-18, so x = -0.75390625 (0xbf41), dx = -true.
mkdir -p "$tmp/base"
cp "$lib" "$tmp/base/"
cat > "$tmp/base/backward.baseline" <<END
[wrong]
kernel = plugin:backward.so:backward_wrong_sign_bf16
format = bfloat16
reference = gelu_grad
domain = range:-0.796875:-0.703125
dy = 1
sign_errors = 0
faithful = 25
root.sign_errors = 0
END
check "check: a backward kernel that flips signs fails its baseline (exit 1), naming the bounds" \
    bash -c "$helpers; expect_status 1 $GELU_ACC check --baseline $tmp/base/backward.baseline &&
             grep -qxE 'wrong: sign_errors 0 -> 5; worst pair x = 0xbf41, dy = 0x3f80: dx = 0x3(...), true 0xb\\1' $tmp/out &&
             grep -q '^wrong: faithful 25 -> 20' $tmp/out && grep -q '^wrong: root.sign_errors 0 -> 5' $tmp/out &&
             grep -q '^FAIL wrong (bfloat16, backward, gelu_grad, 25 pairs)' $tmp/out"
cat > "$tmp/base/update.baseline" <<END
[exact]
kernel = plugin:backward.so:backward_exact_bf16
format = bfloat16
reference = gelu_grad
domain = pairs:random:20000:3

[jax]
kernel = jax_gelu_backward
format = float16
reference = gelu_grad
domain = range:-1:1
dy = 0.5

[forward]
kernel = erf
format = bfloat16
domain = range:1:2
END
check "check --update-baseline records backward kernels (dy, their bounds), which then pass" \
    bash -c "$helpers; expect_status 0 $GELU_ACC check --baseline $tmp/base/update.baseline --update-baseline &&
             grep -qx 'dy = 0.5' $tmp/base/update.baseline && grep -qx 'faithful = 20000' $tmp/base/update.baseline &&
             grep -qx 'root.sign_errors = 0' $tmp/base/update.baseline && grep -q '^core.max_ulp' $tmp/base/update.baseline &&
             expect_status 0 $GELU_ACC check --baseline $tmp/base/update.baseline && grep -q '^PASS exact (bfloat16, backward' $tmp/out &&
             grep -q '^PASS forward (bfloat16, gelu' $tmp/out"
# refused where they are written
bad_baseline() {
    printf '[k]\nkernel = %s\nformat = bfloat16\n%s\n' "$1" "$2" > "$tmp/base/bad.baseline"
    expect_status 2 "$GELU_ACC" check --baseline "$tmp/base/bad.baseline" && stderr_has "$3"
}
check "a baseline refuses dy for a forward kernel" \
    bash -c "$helpers; $(declare -f bad_baseline); GELU_ACC=$GELU_ACC; bad_baseline erf 'dy = 1' \"'dy' applies only to a backward kernel\""
check "a baseline refuses a forward bound for a backward kernel" \
    bash -c "$helpers; $(declare -f bad_baseline); GELU_ACC=$GELU_ACC; bad_baseline jax_gelu_backward \$'reference = gelu_grad\nzero_below = none' \"'zero_below' is no bound of a backward kernel\""
check "a baseline refuses a backward reference after the bounds" \
    bash -c "$helpers; $(declare -f bad_baseline); GELU_ACC=$GELU_ACC; bad_baseline jax_gelu_backward \$'max_ulp = 1\nreference = gelu_grad' 'must come before the bounds'"
check "a baseline refuses a backward kernel of outputs:" \
    bash -c "$helpers; $(declare -f bad_baseline); GELU_ACC=$GELU_ACC; bad_baseline outputs:dx.npy \$'inputs = x.npy\nreference = gelu_grad' 'grade --backward'"
finish
