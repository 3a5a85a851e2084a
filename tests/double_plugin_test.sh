#!/bin/bash
# Plugin kernels of float64: C doubles, eight bytes each
# (<gelu-acc/kernel.h> GELU_ACC_KERNEL_F64, tests/plugins/double.c).
. "${top_srcdir:-.}/tests/tap.sh"
plugins=$GELU_ACC_PLUGIN_DIR

if [ ! -f "$plugins/double.so" ]; then
    echo "1..0 # SKIP plugins not built (GELU_ACC_PLUGIN_DIR)"
    exit 0
fi

# The identity is gelu(x) correctly rounded on [40, 41] and wrong on every
# input of [-41, -40] (gelu rounds to -0 there): a value misplaced, read or
# written with the wrong width, fails one or the other.
check "a float64 kernel: the identity is correctly rounded on [40, 41], on none of [-41, -40]" \
    bash -c "$GELU_ACC sweep --kernel $plugins/double.so:double_identity --format float64 --domain range:40:41:5000 --json > $tmp/hi.json &&
             $GELU_ACC sweep --kernel $plugins/double.so:double_identity --format float64 --domain range:-41:-40:5000 --json > $tmp/lo.json &&
             $PYTHON -c \"
import json
hi, = json.load(open('$tmp/hi.json'))
lo, = json.load(open('$tmp/lo.json'))
assert hi['count'] == 5000 and hi['correctly_rounded'] == 5000, (hi['count'], hi['correctly_rounded'])
assert lo['count'] == 5000 and lo['correctly_rounded'] == 0, (lo['count'], lo['correctly_rounded'])
\""
# double_erfc computes what the catalogue's erfc_f64 computes: the same
# sample gives the same statistics, to the last digit.
check "a float64 kernel and the catalogue model of its formula give the same statistics" \
    bash -c "$GELU_ACC sweep --kernel $plugins/double.so:double_erfc --format float64 --domain random:20000:5,range:-40:10:20000 --json > $tmp/k.json &&
             $GELU_ACC sweep --impl erfc_f64 --format float64 --domain random:20000:5,range:-40:10:20000 --json > $tmp/m.json &&
             $PYTHON -c \"
import json
k, = json.load(open('$tmp/k.json'))
m, = json.load(open('$tmp/m.json'))
assert k['count'] == 40000, k['count']
for key in ('count', 'correctly_rounded', 'max_ulp', 'histogram'):
    assert k.get(key) == m.get(key), (key, k.get(key), m.get(key))
\""
check "a kernel declared float32 is refused as float64 (exit 2)" \
    bash -c "$(declare -f expect_status stderr_has); tmp=$tmp; expect_status 2 $GELU_ACC sweep --kernel $plugins/double.so:double_declared_f32 --format float64 --domain random:10 &&
             stderr_has 'declared float32, but was asked for as float64'"
check "a kernel declared float64 is refused as float32 (exit 2)" \
    bash -c "$(declare -f expect_status stderr_has); tmp=$tmp; expect_status 2 $GELU_ACC sweep --kernel $plugins/double.so:double_identity --format float32 --domain stride:65536 &&
             stderr_has 'declared float64, but was asked for as float32'"
finish
