# TAP helpers for the shell tests: source it, call check, then finish.
# GELU_ACC: the program under test; PYTHON: the Python 3 that configure
# found (both set by make check).
: "${GELU_ACC:=./gelu-acc}"
: "${PYTHON:=python3}"
tap_count=0
tap_failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# check DESCRIPTION COMMAND...: ok when COMMAND succeeds.
# skip DESCRIPTION REASON: a TAP skip.
skip() {
    tap_count=$((tap_count + 1))
    echo "ok $tap_count # SKIP $1: $2"
}

# have LIB: the real-library module of LIB was built (src/real/, GELU_ACC_REAL_DIR).
have() { [ -e "${GELU_ACC_REAL_DIR:-/nonexistent}/gelu_real_$1.so" ]; }

# need_real_modules: skip the whole test unless a module that measures
# forward kernels (torch, dnnl, eigen) was built.
need_real_modules() {
    if ! have torch && ! have eigen && ! have dnnl; then
        echo "1..0 # SKIP no real-library module built (torch, dnnl, eigen)"
        exit 0
    fi
}

check() {
    local description=$1
    shift
    tap_count=$((tap_count + 1))
    if "$@" >"$tmp/check.out" 2>&1; then
        echo "ok $tap_count - $description"
    else
        echo "not ok $tap_count - $description"
        sed 's/^/# /' "$tmp/check.out" | head -20
        tap_failed=$((tap_failed + 1))
    fi
}

# expect_status STATUS COMMAND...: the command exits with STATUS.
expect_status() {
    local want=$1 got=0
    shift
    "$@" >"$tmp/out" 2>"$tmp/err" || got=$?
    if [ "$got" -ne "$want" ]; then
        echo "exit status $got, expected $want; stderr:"
        cat "$tmp/err"
        return 1
    fi
}

# stderr_has TEXT: the last expect_status printed TEXT on stderr.
stderr_has() {
    grep -qF -- "$1" "$tmp/err" || { echo "stderr lacks '$1':"; cat "$tmp/err"; return 1; }
}

# stride_for_seconds MS COMMAND...: the coarsest stride, from 1024 down by
# factors of 4, at which COMMAND (which reads $stride) runs MS milliseconds
# or more (or 1); sets stride.
stride_for_seconds() {
    local ms=$1 start
    shift
    stride=1024
    while :; do
        start=$(date +%s%N)
        "$@" > /dev/null
        [ $(( ($(date +%s%N) - start) / 1000000 )) -lt "$ms" ] && [ $stride -gt 1 ] || break
        stride=$((stride / 4))
    done
}

# killed_after_checkpoint FILE COMMAND...: run COMMAND in the background and
# SIGKILL it once FILE exists; ok when it died of the signal, mid-way.
killed_after_checkpoint() {
    local file=$1 pid status=0 waited=0
    shift
    rm -f "$file"
    "$@" > /dev/null &
    pid=$!
    while [ ! -e "$file" ] && [ $waited -lt 600 ]; do sleep 0.1; waited=$((waited + 1)); done
    kill -KILL $pid 2>/dev/null
    wait $pid || status=$?
    [ $status -eq 137 ] || { echo "not killed mid-way (exit status $status)"; return 1; }
}

finish() {
    echo "1..$tap_count"
    [ "$tap_failed" -eq 0 ]
}

# write_crash_every_third FILE: 30 batches of 4096 float32 inputs (bits, one
# per line) in which every third batch, from the first, holds 2.5 (the input
# the crashing test plugin dies on): failing spans and the failure cap.
write_crash_every_third() {
    "$PYTHON" - "$1" <<'END'
import struct, sys
def enc(v): return '0x%08x' % struct.unpack('<I', struct.pack('<f', v))[0]
xs = [enc(1.0 + i * 2**-20) for i in range(30 * 4096)]
for b in range(0, 30, 3):
    xs[b * 4096 + 7] = enc(2.5)
open(sys.argv[1], 'w').write('\n'.join(xs) + '\n')
END
}
