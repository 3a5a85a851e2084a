#!/bin/bash
# Plugin kernels fully contained, end to end: a kernel's prints and exit()
# never reach gelu-acc's output, stores past its arrays and outputs that
# depend on their position fail the run, kernels declare their format, data
# symbols are refused, failing spans are listed one by one, and timeouts and
# the failure cap are set from the command line and the baseline.
. "${top_srcdir:-.}/tests/tap.sh"
plugins=$GELU_ACC_PLUGIN_DIR

if [ ! -d "$plugins" ]; then
    echo "1..0 # SKIP plugins not built (GELU_ACC_PLUGIN_DIR)"
    exit 0
fi
helpers="$(declare -f expect_status stderr_has); tmp=$tmp; plugins=$plugins"

# 1. stdout: 2^24 inputs, 4096 kernel calls of prints; the report stays clean.
check "a kernel's prints never reach sweep --json (stride:256), they go to stderr" \
    bash -c "$helpers; expect_status 0 $GELU_ACC sweep --kernel $plugins/printing.so:printing_gelu_f32 --format float32 --domain stride:256 --json &&
             $PYTHON -c 'import json,sys; r = json.load(open(sys.argv[1]))[0]; assert r[\"count\"] == 2**24 and not r[\"failed\"]' $tmp/out &&
             ! grep -q 'a call of' $tmp/out && stderr_has 'printing_gelu_f32: a call of '"
check "a kernel's prints never reach sweep --csv" \
    bash -c "$helpers; expect_status 0 $GELU_ACC sweep --kernel $plugins/printing.so:printing_gelu_f32 --format float32 --domain stride:4096 --csv &&
             $PYTHON -c 'import csv,sys; rows = list(csv.reader(open(sys.argv[1]))); assert len(rows) > 2 and all(len(r) == len(rows[0]) for r in rows), rows' $tmp/out &&
             ! grep -q 'a call of' $tmp/out"

# 1'. exit(): what gelu-acc printed before (PASS good, buffered in a pipe)
# appears once, whatever the workers do.
cat > "$tmp/exit.baseline" <<END
[good]
kernel = plugin:$plugins/good.so:good_gelu_f32
format = float32
domain = range:1.999:2.001

[exits]
kernel = plugin:$plugins/exiting.so:exiting_gelu_f32
format = float32
domain = range:1.999:2.001
END
check "a kernel calling exit() fails the check and repeats nothing gelu-acc printed" \
    bash -c "$helpers; expect_status 1 bash -o pipefail -c '$GELU_ACC check --baseline $tmp/exit.baseline | cat' &&
             [ \$(grep -c '^PASS good' $tmp/out) -eq 1 ] && grep -q '^FAIL exits: the kernel exited with status 7 on inputs 0x40000000\.\.' $tmp/out &&
             [ \$(wc -l < $tmp/out) -eq 3 ]"

# 2. Guard pages.
check "a kernel writing out[n] fails with exit 1, naming the element and the inputs" \
    bash -c "$helpers; expect_status 1 $GELU_ACC sweep --kernel $plugins/overrun.so:overrun_gelu_f32 --format float32 --domain stride:65536 &&
             stderr_has 'touching out[n + 0], past the end of its output array' &&
             grep -q 'FAILED .*out\[n + 0\].* on inputs 0x00000000\.\.0xffff0000 (16 batches)' $tmp/out"
check "a float32 kernel loaded as bfloat16 fails (in[n] faults), with a warning that its format is not declared" \
    bash -c "$helpers; expect_status 1 $GELU_ACC sweep --kernel $plugins/good.so:good_gelu_f32 --format bfloat16 &&
             stderr_has 'past the end of its input array' && stderr_has 'does not declare the kernel' && stderr_has 'bfloat16 kernel'"
cat > "$tmp/wrong.baseline" <<END
[wrong]
kernel = plugin:$plugins/good.so:good_gelu_f32
format = bfloat16
END
check "--update-baseline records nothing for a float32 kernel loaded as bfloat16" \
    bash -c "$helpers; cp $tmp/wrong.baseline $tmp/wrong.before; expect_status 1 $GELU_ACC check --baseline $tmp/wrong.baseline --update-baseline &&
             cmp $tmp/wrong.before $tmp/wrong.baseline && grep -q '^FAIL wrong: the kernel killed by signal 11' $tmp/out"

# 3. Typed declarations.
check "a kernel declared float32 asked for as bfloat16: exit 2, naming both" \
    bash -c "$helpers; expect_status 2 $GELU_ACC sweep --kernel $plugins/declared.so:declared_gelu_f32 --format bfloat16 &&
             stderr_has 'declared_gelu_f32 is declared float32, but was asked for as bfloat16'"
check "declared kernels load without a warning and measure" \
    bash -c "$helpers; expect_status 0 $GELU_ACC sweep --kernel $plugins/declared.so:declared_gelu_bf16 --format bfloat16 &&
             [ ! -s $tmp/err ] && expect_status 0 $GELU_ACC sweep --kernel $plugins/declared.so:declared_gelu_f32 --format float32 --domain stride:65536 && [ ! -s $tmp/err ]"
if [ "$GELU_ACC_CXX_PLUGIN" = yes ]; then
    check "a kernel in C++ declared with GELU_ACC_KERNEL_F32 loads and measures" \
        bash -c "$helpers; expect_status 0 $GELU_ACC sweep --kernel $plugins/cxx_kernel.so:cxx_gelu_f32 --format float32 --domain stride:65536 --json &&
                 [ ! -s $tmp/err ] && $PYTHON -c 'import json,sys; r = json.load(open(sys.argv[1]))[0]; assert r[\"count\"] == 65536 and r[\"max_ulp\"] <= 0.5' $tmp/out &&
                 expect_status 2 $GELU_ACC sweep --kernel $plugins/cxx_kernel.so:cxx_gelu_f32 --format float16 && stderr_has 'declared float32'"
else
    echo "ok $((tap_count += 1)) - # SKIP the C++ kernel: no C++ compiler at configure time"
fi

# 4. Position.
check "a kernel whose output depends on its position in the batch fails with exit 1" \
    bash -c "$helpers; expect_status 1 $GELU_ACC sweep --kernel $plugins/position.so:position_gelu_f32 --format float32 --domain stride:65536 &&
             stderr_has 'broke the contract: its output for input 0x' && stderr_has 'depends on its position in the batch'"
check "a kernel whose short calls differ is caught by the calls of one input (one batch in 16)" \
    bash -c "$helpers; expect_status 1 $GELU_ACC sweep --kernel $plugins/position.so:small_call_gelu_f32 --format float32 --domain stride:4096 &&
             stderr_has 'depends on its position in the batch' && stderr_has 'at 0 of 1'"

# 7. Data symbols.
check "a variable given as the kernel is a usage error (exit 2)" \
    bash -c "$helpers; expect_status 2 $GELU_ACC sweep --kernel $plugins/declared.so:declared_table --format float32 &&
             stderr_has \"'declared_table' in $plugins/declared.so is a variable\" &&
             expect_status 2 $GELU_ACC sweep --kernel $plugins/good.so:gelu_acc_kernel_abi_version --format float32 && stderr_has 'not a function'"

# 6. Two failing regions far apart are two spans: one crashing input in
# batch 0 (index 10) and one in batch 2 (index 9000), 3 batches of 4096.
"$PYTHON" - "$tmp/apart" <<'END'
import struct, sys
def enc(v): return '0x%08x' % struct.unpack('<I', struct.pack('<f', v))[0]
xs = [enc(1.0 + i * 2**-20) for i in range(3 * 4096)]
xs[10] = enc(2.5)
xs[9000] = enc(2.75)
open(sys.argv[1], 'w').write('\n'.join(xs) + '\n')
END
check "two failing spans far apart are reported one by one, in text and JSON" \
    bash -c "$helpers; expect_status 1 $GELU_ACC sweep --kernel $plugins/crashing.so:crashing_gelu_f32 --format float32 --domain file:$tmp/apart --json &&
             $PYTHON -c '
import json, sys
f = json.load(open(sys.argv[1]))[0][\"failure\"]
spans = [(s[\"first_input\"], s[\"last_input\"], s[\"batches\"]) for s in f[\"spans\"]]
assert spans == [(\"0x40200000\", \"0x40200000\", 1), (\"0x40300000\", \"0x40300000\", 1)], spans
assert f[\"batches\"] == 2 and f[\"inputs_not_measured\"] == 8192 and not f[\"stopped_early\"], f' $tmp/out &&
             expect_status 1 $GELU_ACC sweep --kernel $plugins/crashing.so:crashing_gelu_f32 --format float32 --domain file:$tmp/apart &&
             grep -q 'FAILED .* on inputs 0x40200000\.\.0x40200000 (1 batch)' $tmp/out && grep -q '^  *killed .* on inputs 0x40300000\.\.0x40300000 (1 batch)' $tmp/out"

printf '0x3f800000\n0x40200000\n0x3fc00000\n0x40300000\n' > "$tmp/apart1"
check "two failing spans within one batch are reported one by one" \
    bash -c "$helpers; expect_status 1 $GELU_ACC sweep --kernel $plugins/crashing.so:crashing_gelu_f32 --format float32 --domain file:$tmp/apart1 --json &&
             $PYTHON -c '
import json, sys
f = json.load(open(sys.argv[1]))[0][\"failure\"]
spans = [(s[\"first_input\"], s[\"last_input\"], s[\"batches\"]) for s in f[\"spans\"]]
assert spans == [(\"0x40200000\", \"0x40200000\", 1), (\"0x40300000\", \"0x40300000\", 1)], spans
assert f[\"batches\"] == 1 and f[\"inputs_not_measured\"] == 4, f' $tmp/out"

# 5. The failure cap: one crashing input in every third batch of 30; the
# 4th failed batch is batch 9, so batches 0..8 less 0, 3, 6 are measured
# (6 x 4096 inputs), whatever the thread count.
write_crash_every_third "$tmp/every3"
capped='
import json, sys
a, b = (json.load(open(p))[0] for p in sys.argv[1:])
assert a == b, "threads change the result"
f = a["failure"]
assert a["count"] == 6 * 4096, a["count"]
assert f["batches"] == 4 and len(f["spans"]) == 4 and f["stopped_early"], f
assert f["inputs_not_measured"] == 24 * 4096, f["inputs_not_measured"]'
check "--max-failures 4 stops at the 4th failed batch, the same for 1 and 3 threads" \
    bash -c "$helpers; expect_status 1 $GELU_ACC sweep --kernel $plugins/crashing.so:crashing_gelu_f32 --format float32 --domain file:$tmp/every3 --max-failures 4 --threads 1 --json &&
             mv $tmp/out $tmp/t1.json && expect_status 1 $GELU_ACC sweep --kernel $plugins/crashing.so:crashing_gelu_f32 --format float32 --domain file:$tmp/every3 --max-failures 4 --threads 3 --json &&
             $PYTHON -c '$capped' $tmp/t1.json $tmp/out"
check "--max-failures takes a positive count" \
    bash -c "$helpers; for bad in 0 -1 1.5 x ''; do expect_status 2 $GELU_ACC sweep --impl erf --format bfloat16 --max-failures \"\$bad\" && stderr_has 'max-failures' || exit 1; done"

# A region of hanging batches (x in [4, 8)): with --max-failures 1 the run
# pays for one batch (and those already running: about 0.5 s + 12 bisection
# probes of 0.5 s each), not for each of the ~100 batches (minutes).
check "a region of hanging batches costs one batch's timeout with --max-failures 1" \
    bash -c "$helpers; start=\$(date +%s); expect_status 1 $GELU_ACC sweep --kernel $plugins/hanging.so:hanging_region_gelu_f32 --format float32 --domain range:3.99:4.2 --timeout 0.5 --max-failures 1 --threads 2 &&
             [ \$((\$(date +%s) - start)) -lt 60 ] && grep -q 'stopped at the max_failures-th failed batch' $tmp/out && grep -q '1 failed batch,' $tmp/out"

# 5'. check --timeout, and the baseline keys timeout and max_failures.
printf '0x3f800000\n0x3fc00000\n0x40000000\n' > "$tmp/three"
cat > "$tmp/hang.baseline" <<END
[hang]
kernel = plugin:$plugins/hanging.so:hanging_gelu_f32
format = float32
domain = file:$tmp/three
timeout = 0.5
END
check "the baseline's timeout applies, and check --timeout overrides it" \
    bash -c "$helpers; expect_status 1 $GELU_ACC check --baseline $tmp/hang.baseline && grep -q 'timed out after 0.5 s on inputs 0x3fc00000\.\.0x3fc00000' $tmp/out &&
             expect_status 1 $GELU_ACC check --baseline $tmp/hang.baseline --timeout 0.25 && grep -q 'timed out after 0.25 s' $tmp/out &&
             expect_status 2 $GELU_ACC check --baseline $tmp/hang.baseline --timeout 1e3 && stderr_has 'timeout'"
for bad in 0 -1 1e3 inf nan 0x10 1. .5 '' '2 s'; do
    printf '[k]\nkernel = erf\nformat = bfloat16\ntimeout = %s\n' "$bad" > "$tmp/badtimeout.baseline"
    check "a baseline timeout of '$bad' is refused with its line" \
        bash -c "$helpers; expect_status 2 $GELU_ACC check --baseline $tmp/badtimeout.baseline && stderr_has 'badtimeout.baseline:4'"
done
printf '[k]\nkernel = erf\nformat = bfloat16\nmax_failures = 0\n' > "$tmp/badcap.baseline"
check "a baseline max_failures of 0 is refused with its line" \
    bash -c "$helpers; expect_status 2 $GELU_ACC check --baseline $tmp/badcap.baseline && stderr_has 'badcap.baseline:4'"
cat > "$tmp/cap.baseline" <<END
[cap]
kernel = plugin:$plugins/crashing.so:crashing_gelu_f32
format = float32
domain = file:$tmp/every3
max_failures = 2
END
check "the baseline's max_failures applies, and check --max-failures overrides it" \
    bash -c "$helpers; expect_status 1 $GELU_ACC check --baseline $tmp/cap.baseline && grep -q '^FAIL cap: 2 failed batches, 114688 inputs not measured (stopped' $tmp/out &&
             expect_status 1 $GELU_ACC check --baseline $tmp/cap.baseline --max-failures 3 && grep -q '^FAIL cap: 3 failed batches' $tmp/out"
cat > "$tmp/keys.baseline" <<END
[keys]
kernel = plugin:$plugins/good.so:good_gelu_f32
format = float32
domain = range:0.99:1.01
timeout = 2.5
max_failures = 3
END
check "--update-baseline keeps the timeout and max_failures keys" \
    bash -c "$helpers; expect_status 0 $GELU_ACC check --baseline $tmp/keys.baseline --update-baseline &&
             grep -qx 'timeout = 2.5' $tmp/keys.baseline && grep -qx 'max_failures = 3' $tmp/keys.baseline &&
             expect_status 0 $GELU_ACC check --baseline $tmp/keys.baseline"
finish
