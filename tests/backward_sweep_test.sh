#!/bin/bash
# Backward sweeps: deterministic for any thread count, pair domains count
# what they say, bad input refused with exit status 2.
. "${top_srcdir:-.}/tests/tap.sh"

bw() { "$GELU_ACC" sweep --backward --json "$@"; }

check "bfloat16 pairs:random: 1 thread = 2 threads" \
    bash -c "$(declare -f bw); GELU_ACC=$GELU_ACC; bw --impl pytorch_gelu_backward_native --format bfloat16 --domain pairs:random:1500000:3 --threads 1 > $tmp/a && bw --impl pytorch_gelu_backward_native --format bfloat16 --domain pairs:random:1500000:3 --threads 2 > $tmp/b && cmp $tmp/a $tmp/b"
check "float32 pairs:random: 1 thread = 2 threads" \
    bash -c "$(declare -f bw); GELU_ACC=$GELU_ACC; bw --impl llmc_gelu_backward --format float32 --domain pairs:random:100000:9 --threads 1 > $tmp/a && bw --impl llmc_gelu_backward --format float32 --domain pairs:random:100000:9 --threads 2 > $tmp/b && cmp $tmp/a $tmp/b"
check "pairs:random:N measures N pairs" \
    bash -c "[ \"\$($GELU_ACC sweep --backward --json --impl jax_gelu_backward --format float16 --domain pairs:random:1234 | $PYTHON -c 'import json,sys; print(json.load(sys.stdin)[\"all\"][\"pairs\"])')\" = 1234 ]"
check "an x domain with --dy measures every x in [1, 2] (129 bfloat16 values)" \
    bash -c "[ \"\$($GELU_ACC sweep --backward --json --impl quick_gelu_backward --format bfloat16 --domain range:1:2 --dy 0.25 | $PYTHON -c 'import json,sys; print(json.load(sys.stdin)[\"all\"][\"pairs\"])')\" = 129 ]"
check "dy = 0 around x0 in float32: every dx is a zero, of the wrong sign only where the kernel's d has it" \
    bash -c "$GELU_ACC sweep --backward --json --impl pytorch_gelu_backward --format float32 --domain range:-0.7521:-0.7515 --dy 0 | $PYTHON -c 'import json,sys; d=json.load(sys.stdin)[\"all\"]; assert d[\"pairs\"] == 10067 and d[\"pairs\"] - d[\"correctly_rounded\"] == d[\"zero_sign\"] and d[\"max_ulp\"] == 0 and d[\"sign_errors\"] == 0, d'"
check "root region: pytorch_gelu_backward_native loses faithfulness next to x0 in bfloat16" \
    bash -c "$GELU_ACC sweep --backward --json --impl pytorch_gelu_backward_native --format bfloat16 --domain range:-1:-0.5 --dy 1 | $PYTHON -c 'import json,sys; d=json.load(sys.stdin); lo,hi=d[\"root_unfaithful\"]; assert lo <= -0.7518 <= hi, d'"
check "--dy is a number, not an encoding: 0x3f80 is the hex float 16256 (bfloat16 0x467e), 0x1p0 is 1" \
    bash -c "[ \"\$($GELU_ACC sweep --backward --json --impl pytorch_gelu_backward --format bfloat16 --domain range:1:1 --dy 0x3f80 | $PYTHON -c 'import json,sys; print(json.load(sys.stdin)[\"dy\"])')\" = 0x467e ] && [ \"\$($GELU_ACC sweep --backward --json --impl pytorch_gelu_backward --format bfloat16 --domain range:1:1 --dy 0x1p0 | $PYTHON -c 'import json,sys; print(json.load(sys.stdin)[\"dy\"])')\" = 0x3f80 ] && [ \"\$($GELU_ACC sweep --backward --json --impl pytorch_gelu_backward --format float16 --domain range:1:1 --dy 0x3c00 | $PYTHON -c 'import json,sys; print(json.load(sys.stdin)[\"dy\"])')\" = 0x7380 ]"
check "a domain with a quote and a backslash in its path gives valid JSON that names it" \
    bash -c "printf '0x3f80\n' > '$tmp/q\"b\\\\s.txt' && $GELU_ACC sweep --backward --json --impl pytorch_gelu_backward --format bfloat16 --domain 'file:$tmp/q\"b\\\\s.txt' | $PYTHON -c 'import json,sys; d=json.load(sys.stdin); assert d[\"domain\"] == \"file:$tmp/q\\\"b\\\\\\\\s.txt\", d[\"domain\"]; assert d[\"all\"][\"pairs\"] == 1'"
check "an overflowing product rounded correctly to inf is 0 ulp (x = 0x3f42, dy = bfloat16's largest: d(x) > 1.002)" \
    bash -c "printf '0x3f42\n' > $tmp/x3f42 && $GELU_ACC sweep --backward --json --impl pytorch_gelu_backward --format bfloat16 --domain file:$tmp/x3f42 --dy 0x1.fep127 | $PYTHON -c 'import json,sys; d=json.load(sys.stdin)[\"all\"]; assert d[\"correctly_rounded\"] == 1 and d[\"max_ulp\"] == 0 and d[\"max_dy_ulp\"] == 0 and d[\"worst\"][\"dx\"] == \"0x7f80\" == d[\"worst\"][\"true_dx\"], d'"
# dy = 1 takes the derivative's fast oracle, any other dy the per-pair
# path (d(x) by MPFR, then the product): for a kernel dy*k(x), dy = 2 only
# doubles every dx and every true dx where nothing is subnormal (x >= -10
# here), so both paths must classify the same pairs the same way.
dy_one_vs_two() {
    for dy in 1 2; do
        "$GELU_ACC" sweep --backward --json --impl "$1" --format float32 \
            --domain range:-10:10:200000 --dy $dy > "$tmp/dy$dy" || return 1
    done
    "$PYTHON" - "$tmp/dy1" "$tmp/dy2" <<'PY'
import json, sys
one, two = (json.load(open(p)) for p in sys.argv[1:])
for region in ('all', 'root'):
    a, b = one[region], two[region]
    for key in ('pairs', 'correctly_rounded', 'faithful', 'sign_errors', 'nan_outputs',
                'inf_outputs', 'flushed', 'zero_sign'):
        assert a[key] == b[key], (region, key, a[key], b[key])
    assert abs(a['max_ulp'] - b['max_ulp']) <= 1e-9 * a['max_ulp'], (region, a, b)
    assert a['worst']['x'] == b['worst']['x'], (region, a['worst'], b['worst'])
PY
}
check "float32 x domain: dy = 1 (fast oracle) and dy = 2 (per pair) agree, gelu' kernel" \
    dy_one_vs_two pytorch_gelu_backward
check "float32 x domain: dy = 1 (fast oracle) and dy = 2 (per pair) agree, tanh-form kernel" \
    dy_one_vs_two llmc_gelu_backward
check "pairs:all is refused for float32" \
    bash -c "$(declare -f expect_status); tmp=$tmp; expect_status 2 $GELU_ACC sweep --backward --impl pytorch_gelu_backward --format float32 --domain pairs:all"
check "an unknown backward kernel is a usage error" \
    bash -c "$(declare -f expect_status); tmp=$tmp; expect_status 2 $GELU_ACC sweep --backward --impl erf --format bfloat16 --domain pairs:random:10"
check "a bad --dy is a usage error" \
    bash -c "$(declare -f expect_status); tmp=$tmp; expect_status 2 $GELU_ACC sweep --backward --impl llmc_gelu_backward --format float32 --dy abc"
check "a _native kernel needs a 16-bit format" \
    bash -c "$(declare -f expect_status); tmp=$tmp; expect_status 2 $GELU_ACC sweep --backward --impl pytorch_gelu_backward_native --format float32"
check "--reference must be a derivative" \
    bash -c "$(declare -f expect_status); tmp=$tmp; expect_status 2 $GELU_ACC sweep --backward --impl llmc_gelu_backward --format float16 --reference gelu"
finish
