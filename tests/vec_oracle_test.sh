#!/bin/bash
# The vector paths of the fast oracle (src/truth/fast_vec*.c) give the
# scalar oracle's rounded encoding and direction, bit for bit: every float16
# and bfloat16 value widened to float32, and 2^22 random float32 encodings,
# per path and function (gelu, gelu_tanh and their derivatives), and the
# backward truth on 2^16 random float32 pairs (x, dy) per derivative; a path
# the CPU lacks is skipped.  The environment variable
# GELU_ACC_ORACLE_PATH forces the library's golden onto each path.
. "${top_srcdir:-.}/tests/tap.sh"
check_program=${abs_top_builddir:-.}/tests/vec_oracle_check

for function in gelu gelu_tanh gelu_grad gelu_tanh_grad; do
    for path in portable avx2; do
        pairs=
        case $function in *_grad) pairs=pairs:65536 ;; esac
        for inputs in widened random:4194304 $pairs; do
            what="$function, $path on $inputs"
            tap_count=$((tap_count + 1))
            status=0
            "$check_program" "$path" "$inputs" "$function" > "$tmp/out" 2>&1 || status=$?
            if [ "$status" = 77 ]; then
                echo "ok $tap_count - $what # SKIP this CPU lacks $path"
            elif [ "$status" = 0 ] && grep -q ", 0 differences" "$tmp/out"; then
                echo "ok $tap_count - $what: no difference from the scalar oracle"
            else
                echo "not ok $tap_count - $what"
                sed 's/^/# /' "$tmp/out" | head -20
                tap_failed=$((tap_failed + 1))
            fi
        done
    done
done
# The library's golden (library_test: float32 values from tables, the golden
# graded correct everywhere, threads) on each path GELU_ACC_ORACLE_PATH forces,
# and on an unknown value (the scalar path).
for path in scalar portable avx2 unknown; do
    check "library_test with GELU_ACC_ORACLE_PATH=$path" \
        env GELU_ACC_ORACLE_PATH=$path "${abs_top_builddir:-.}/tests/library_test"
done
# The check refuses the scalar path: it would compare the oracle with itself.
check "an unknown path is a usage error" expect_status 2 "$check_program" scalar widened
finish
