#!/bin/bash
# Sweeps are deterministic: same bits whatever the thread count and oracle.
. "${top_srcdir:-.}/tests/tap.sh"

sweep() { "$GELU_ACC" sweep --json "$@"; }

check "bfloat16 erf: 1 thread = 2 threads" \
    bash -c "$(declare -f sweep); GELU_ACC=$GELU_ACC; sweep --impl erf --format bfloat16 --threads 1 > $tmp/a && sweep --impl erf --format bfloat16 --threads 2 > $tmp/b && cmp $tmp/a $tmp/b"
check "float32 tanh on a random sample: 1 thread = 2 threads" \
    bash -c "$(declare -f sweep); GELU_ACC=$GELU_ACC; sweep --impl tanh --format float32 --reference gelu_tanh --domain random:50000:7 --threads 1 > $tmp/a && sweep --impl tanh --format float32 --reference gelu_tanh --domain random:50000:7 --threads 2 > $tmp/b && cmp $tmp/a $tmp/b"
check "float16 quick: fast oracle = MPFR oracle" \
    bash -c "$(declare -f sweep); GELU_ACC=$GELU_ACC; sweep --impl quick --format float16 --oracle fast | sed 's/\"oracle\": \"fast\"//' > $tmp/a && sweep --impl quick --format float16 --oracle mpfr | sed 's/\"oracle\": \"mpfr\"//' > $tmp/b && cmp $tmp/a $tmp/b"
check "float32 erf on [-6, -5]: fast oracle = MPFR oracle" \
    bash -c "$(declare -f sweep); GELU_ACC=$GELU_ACC; sweep --impl erf --format float32 --domain range:-6:-5.99 --oracle fast | sed 's/\"oracle\": \"fast\"//' > $tmp/a && sweep --impl erf --format float32 --domain range:-6:-5.99 --oracle mpfr | sed 's/\"oracle\": \"mpfr\"//' > $tmp/b && cmp $tmp/a $tmp/b"
check "range domain visits every encoding in [A, B]" \
    bash -c "[ \"\$($GELU_ACC sweep --impl erfc --format bfloat16 --domain range:-1:1 --json | $PYTHON -c 'import json,sys; print(json.load(sys.stdin)[0][\"count\"])')\" = $(( 2 * (0x3f80 + 1) )) ]"
check "a file domain counts its lines" \
    bash -c "printf '0x3c00\n0xbc00\n0x0000\n' > $tmp/in && [ \"\$($GELU_ACC sweep --impl erfc --format float16 --domain file:$tmp/in --json | $PYTHON -c 'import json,sys; print(json.load(sys.stdin)[0][\"count\"])')\" = 3 ]"
check "float64 random sample: 1 thread = 2 threads" \
    bash -c "$(declare -f sweep); GELU_ACC=$GELU_ACC; sweep --impl erfc_f64 --format float64 --domain random:20000:3,range:-40:10:20000 --threads 1 > $tmp/a && sweep --impl erfc_f64 --format float64 --domain random:20000:3,range:-40:10:20000 --threads 2 > $tmp/b && cmp $tmp/a $tmp/b"
for d in all stride:4096; do
    check "float64 refuses the exhaustive domain $d (exit status 2, says why)" \
        bash -c "$GELU_ACC sweep --impl erf_f64 --format float64 --domain $d 2> $tmp/err; [ \$? = 2 ] && grep -q '2^64 encodings' $tmp/err"
done
check "float64 refuses range:A:B beyond 2^32 encodings without :N (exit status 2)" \
    bash -c "$GELU_ACC sweep --impl erf_f64 --format float64 --domain range:-40:10 2> $tmp/err; [ \$? = 2 ] && grep -q 'add :N' $tmp/err"
# float64 in a checkpoint: the run that writes it and the run that finds it
# finished print what the sweep prints (64-bit encodings in the file).
float64_checkpoint() {
    local args=(sweep --impl erf_f64 --format float64 --domain random:50000:2 --json)
    "$GELU_ACC" "${args[@]}" > "$tmp/one" &&
    "$GELU_ACC" "${args[@]}" --checkpoint "$tmp/ck64" > "$tmp/first" &&
    "$GELU_ACC" "${args[@]}" --checkpoint "$tmp/ck64" > "$tmp/again" &&
    cmp "$tmp/one" "$tmp/first" && cmp "$tmp/one" "$tmp/again"
}
check "float64 --checkpoint: written, then found finished: the sweep's bytes both times" \
    float64_checkpoint
check "float64 truth: decimal and hex-float name the same input; gelu(-40) = -0 (|gelu(-40)| < 2^-1098)" \
    bash -c "$GELU_ACC truth --format float64 -- 1 0x1p0 -40 > $tmp/t && [ \"\$(sed -n 1p $tmp/t)\" = \"\$(sed -n 2p $tmp/t)\" ] && [ \"\$(sed -n 3p $tmp/t | cut -d' ' -f1,2)\" = '0xc044000000000000 0x8000000000000000' ]"
finish
