#!/bin/bash
# Plugin kernels of the small formats: one encoding per byte
# (<gelu-acc/kernel.h>, tests/plugins/small.c).
. "${top_srcdir:-.}/tests/tap.sh"
plugins=$GELU_ACC_PLUGIN_DIR

if [ ! -f "$plugins/small.so" ]; then
    echo "1..0 # SKIP plugins not built (GELU_ACC_PLUGIN_DIR)"
    exit 0
fi

# small_gelu_e4m3fn rounds by its own search of the format's values: the
# oracle must find every one of the 256 outputs correctly rounded, which
# fails if a byte is misplaced, misread or written to the wrong element.
check "a float8_e4m3fn byte kernel: every encoding correctly rounded" \
    bash -c "$GELU_ACC sweep --kernel $plugins/small.so:small_gelu_e4m3fn --format float8_e4m3fn --json > $tmp/e4m3.json &&
             $PYTHON -c \"
import json
r, = json.load(open('$tmp/e4m3.json'))
assert r['count'] == 256 and r['correctly_rounded'] == 256, (r['count'], r['correctly_rounded'])
\""
check "a kernel declared float8_e4m3fn is refused as float8_e5m2" \
    bash -c "$(declare -f expect_status stderr_has); tmp=$tmp; expect_status 2 $GELU_ACC sweep --kernel $plugins/small.so:small_gelu_e4m3fn --format float8_e5m2 &&
             stderr_has 'declared float8_e4m3fn, but was asked for as float8_e5m2'"
check "an output byte above float4_e2m1's four bits fails the kernel (exit 1)" \
    bash -c "$(declare -f expect_status stderr_has); tmp=$tmp; expect_status 1 $GELU_ACC sweep --kernel $plugins/small.so:small_wide_f4e2m1 --format float4_e2m1 &&
             stderr_has 'is 0x10, not a float4_e2m1 encoding'"
cat > "$tmp/small.baseline" <<END
[kernel]
kernel = plugin:$plugins/small.so:small_gelu_e4m3fn
format = float8_e4m3fn
domain = all
END
check "check records and passes a baseline of a byte kernel" \
    bash -c "$GELU_ACC check --baseline $tmp/small.baseline --update-baseline > /dev/null &&
             grep -q '^correctly_rounded = 256$' $tmp/small.baseline && $GELU_ACC check --baseline $tmp/small.baseline"
finish
