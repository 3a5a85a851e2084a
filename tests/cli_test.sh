#!/bin/bash
# The command line: outputs of 'truth', and clear errors with exit status 2.
. "${top_srcdir:-.}/tests/tap.sh"

# float32 encodings of values from published tables, rounded independently:
# gelu(1) = Phi(1) = 0.8413447460685429 -> float32 0x3f57625f (hardware
# rounding via python's struct), and special values by convention.
check "gelu(1) in float32" \
    bash -c "[ \"\$($GELU_ACC truth --format float32 1 | cut -d' ' -f2)\" = 0x$($PYTHON -c 'import struct;print(struct.pack(">f",0.8413447460685429).hex())') ]"
check "special values in bfloat16" \
    bash -c "[ \"\$($GELU_ACC truth --format bfloat16 nan inf -inf 0 -0 | cut -d' ' -f1,2 | tr '\n' ' ')\" = '0x7fc0 0x7fc0 0x7f80 0x7f80 0xff80 0x8000 0x0000 0x0000 0x8000 0x8000 ' ]"
check "--all answers every bfloat16 input in order" \
    bash -c "$GELU_ACC truth --format bfloat16 --all > $tmp/all && [ \$(wc -l < $tmp/all) -eq 65536 ] && [ \"\$(sed -n 16257p $tmp/all | cut -d' ' -f1)\" = 0x3f80 ]"
check "--all answers every float16 input of the tanh form" \
    bash -c "[ \$($GELU_ACC truth --format float16 --function gelu_tanh --all | wc -l) -eq 65536 ]"
# float32 bits: x/2 of a subnormal x = 3*2^-149 is halfway and gelu(x) > x/2,
# so it rounds up for x > 0 and towards zero for x < 0; gelu(-14) is the
# subnormal -0.5*14*erfc(14/sqrt2) (Python's double erfc, far from a tie:
# 78.0 units of 2^-149); gelu(-15) is below half the smallest subnormal.
tail=$("$PYTHON" -c 'import math; print("0x%08x" % (0x80000000 | round(0.5*14*math.erfc(14/math.sqrt(2)) / 2**-149)))')
check "float32 bits from stdin, tail and subnormal results" \
    bash -c "printf '0x00000003\n# comment\n\n0x80000003\nc1600000\nc1700000\n' | $GELU_ACC truth --format float32 --bits --input - > $tmp/bits &&
             [ \"\$(cut -d' ' -f2 $tmp/bits | tr '\n' ' ')\" = '0x00000002 0x80000001 $tail 0x80000000 ' ]"
check "bits and values agree" \
    bash -c "[ \"\$($GELU_ACC truth --format float32 -14.0 | cut -d' ' -f2)\" = \"\$(echo 0xc1600000 | $GELU_ACC truth --format float32 --bits --input - | cut -d' ' -f2)\" ]"

# The small formats (doc/commands.md, "The small formats"): encodings worked out by
# hand from the OCP definitions.  gelu(1) = 0.841 is nearest 1.0 in E2M1
# (0b0.01.0 = 0x2) and 0.875 in E5M2 (0b0.01110.11 = 0x3b); 1000 is past
# E4M3FN's 448 (0x7e): saturated, or NaN (0x7f) with --overflow nan.
check "small formats: gelu(1), overflow conventions" \
    bash -c "[ \"\$($GELU_ACC truth --format float4_e2m1 1 | cut -d' ' -f2)\" = 0x2 ] &&
             [ \"\$($GELU_ACC truth --format float8_e5m2 1 | cut -d' ' -f2)\" = 0x3b ] &&
             [ \"\$($GELU_ACC truth --format float8_e4m3fn 1000 inf | cut -d' ' -f1 | tr '\n' ' ')\" = '0x7e 0x7e ' ] &&
             [ \"\$($GELU_ACC truth --format float8_e4m3fn --overflow nan 1000 | cut -d' ' -f1,2)\" = '0x7f 0x7f' ]"
# GELU fused with a cast: bfloat16 1000 (0x447a) and 468 (0x43ea) are past
# E4M3FN's threshold 464 (448 + half its ulp of 32); 464 (0x43e8) is the tie
# that stays at 448, and gelu(464) < 464 anyway.
check "cast: gelu of bfloat16 into float8_e4m3fn, saturated or NaN" \
    bash -c "[ \"\$($GELU_ACC truth --format float8_e4m3fn --input-format bfloat16 1000 464 468 | cut -d' ' -f1,2 | tr '\n' ' ')\" = '0x447a 0x7e 0x43e8 0x7e 0x43ea 0x7e ' ] &&
             [ \"\$($GELU_ACC truth --format float8_e4m3fn --input-format bfloat16 --overflow nan 1000 464 468 | cut -d' ' -f2 | tr '\n' ' ')\" = '0x7f 0x7e 0x7f ' ] &&
             [ \$($GELU_ACC truth --format float8_e5m2 --input-format bfloat16 --all | wc -l) -eq 65536 ]"
check "cast: the sweep tells saturation from NaN-on-overflow" \
    bash -c "$GELU_ACC sweep --format float8_e4m3fn --input-format bfloat16 > $tmp/cast &&
             grep -q '^| satfinite | \`erf_satfinite\` | 65536 |' $tmp/cast && grep -q '^| nan | \`erf_overflow_nan\` | 65536 |' $tmp/cast"
check "cast: refused into a format without NaN, from a small format, with --impl" \
    bash -c "$(declare -f expect_status stderr_has); tmp=$tmp; expect_status 2 $GELU_ACC truth --format float6_e2m3 --input-format bfloat16 1 && stderr_has 'into float8_e4m3fn or float8_e5m2' &&
             expect_status 2 $GELU_ACC sweep --format float8_e4m3fn --input-format float8_e5m2 && stderr_has 'got float8_e5m2 into float8_e4m3fn' &&
             expect_status 2 $GELU_ACC sweep --format float8_e4m3fn --input-format bfloat16 --impl erf_satfinite && stderr_has 'takes only --format and --domain' &&
             expect_status 2 $GELU_ACC sweep --format float8_e4m3fn --input-format float32 && stderr_has 'needs --domain'"
check "small formats: --all answers every encoding" \
    bash -c "[ \$($GELU_ACC truth --format float8_e4m3fn --all | wc -l) -eq 256 ] && [ \$($GELU_ACC truth --format float4_e2m1 --all | wc -l) -eq 16 ]"
check "small formats: nan refused where there is none, --overflow checked" \
    bash -c "$(declare -f expect_status stderr_has); tmp=$tmp; expect_status 2 $GELU_ACC truth --format float6_e3m2 nan && stderr_has 'float6_e3m2 has no NaN' &&
             expect_status 2 $GELU_ACC truth --format float4_e2m1 --overflow nan 1 && stderr_has 'needs a NaN' &&
             expect_status 2 $GELU_ACC truth --format float8_e4m3fn --overflow infinity 1 && stderr_has 'needs an infinity'"
check "list --formats: the small formats and their oracle" \
    bash -c "$GELU_ACC list --formats > $tmp/formats && grep -Eq '^float8_e4m3fn +8 +1 +4 +-6 +8 +7 +448 .*satfinite \\(or nan\\) +none \\(MPFR\\)$' $tmp/formats &&
             grep -Eq '^float32 .* gelu,gelu_tanh$' $tmp/formats && [ \$(grep -c '^float' $tmp/formats) -eq 8 ] && grep -Eq '^float64 +64 +8 +53 +-1022 +1023 +1023 .* none \\(MPFR\\)$' $tmp/formats && grep -q '^bfloat16' $tmp/formats"
check "small formats: a byte above a 6-bit format is refused with its index" \
    bash -c "$(declare -f expect_status stderr_has); tmp=$tmp; printf '\\001\\100' > $tmp/six.raw && expect_status 2 $GELU_ACC grade --format float6_e2m3 --inputs $tmp/six.raw --outputs $tmp/six.raw && stderr_has 'element 1 is 0x40'"
check "small formats: a missing plugin library, status 2 and why" \
    bash -c "$(declare -f expect_status stderr_has); tmp=$tmp; expect_status 2 $GELU_ACC sweep --kernel ./nowhere.so:k --format float8_e5m2 && stderr_has 'cannot load ./nowhere.so'"

check "unknown format: status 2 and the name" \
    bash -c "$(declare -f expect_status stderr_has); tmp=$tmp; expect_status 2 $GELU_ACC truth --format bf16 1 && stderr_has \"unknown format 'bf16'\""
check "unknown function" \
    bash -c "$(declare -f expect_status stderr_has); tmp=$tmp; expect_status 2 $GELU_ACC truth --format float32 --function relu 1 && stderr_has \"unknown function 'relu'\""
check "unparsable number names the argument" \
    bash -c "$(declare -f expect_status stderr_has); tmp=$tmp; expect_status 2 $GELU_ACC truth --format float32 1 zz && stderr_has \"argument 2: 'zz'\""
check "bad encoding names the line" \
    bash -c "$(declare -f expect_status stderr_has); tmp=$tmp; printf '3c00\n\nxyz\n' > $tmp/in; expect_status 2 $GELU_ACC truth --format float16 --bits --input $tmp/in && stderr_has \"$tmp/in:3: 'xyz'\""
check "encoding too wide names the line" \
    bash -c "$(declare -f expect_status stderr_has); tmp=$tmp; printf '0x13c00\n' > $tmp/in; expect_status 2 $GELU_ACC truth --format float16 --bits --input $tmp/in && stderr_has 'wider than float16'"
check "unreadable file" \
    bash -c "$(declare -f expect_status stderr_has); tmp=$tmp; expect_status 2 $GELU_ACC truth --format float16 --bits --input /nonexistent/x && stderr_has '/nonexistent/x: cannot open'"
check "--all refuses float32" \
    bash -c "$(declare -f expect_status stderr_has); tmp=$tmp; expect_status 2 $GELU_ACC truth --format float32 --all && stderr_has '16-bit'"
check "unknown command" \
    bash -c "$(declare -f expect_status stderr_has); tmp=$tmp; expect_status 2 $GELU_ACC frobnicate && stderr_has \"unknown command 'frobnicate'\""
check "--help and --version" \
    bash -c "$GELU_ACC --help | grep -q truth && $GELU_ACC --version | grep -q gelu-acc"
# list: names, formats and function as the catalogue documents them (plain
# names take all three formats, _native the 16-bit ones, ggml's table no bfloat16).
check "list: each entry with its formats and function" \
    bash -c "$GELU_ACC list > $tmp/list && grep -Eq '^erf +float32,float16,bfloat16 +gelu$' $tmp/list &&
             grep -Eq '^tanh_native +float16,bfloat16 +gelu_tanh$' $tmp/list &&
             grep -Eq '^lut_f16 +float32,float16 +gelu_tanh$' $tmp/list &&
             [ \$(grep -c '^    formula:  ' $tmp/list) -eq \$(grep -c '^[a-z]' $tmp/list) ]"
check "list: an argument is a usage error" \
    bash -c "$(declare -f expect_status stderr_has); tmp=$tmp; expect_status 2 $GELU_ACC list erf && stderr_has \"list: unexpected argument 'erf'\""
check "sweep: unknown implementation" \
    bash -c "$(declare -f expect_status stderr_has); tmp=$tmp; expect_status 2 $GELU_ACC sweep --impl nope --format float16 && stderr_has \"unknown implementation 'nope'\""
check "sweep: implementation lacking the format" \
    bash -c "$(declare -f expect_status stderr_has); tmp=$tmp; expect_status 2 $GELU_ACC sweep --impl erf_native --format float32 && stderr_has 'no float32 version'"
check "sweep: bad domain" \
    bash -c "$(declare -f expect_status stderr_has); tmp=$tmp; expect_status 2 $GELU_ACC sweep --impl erf --format float16 --domain range:3:1 && stderr_has 'A is above B'"
check "report: refuses a directory it did not write" \
    bash -c "$(declare -f expect_status stderr_has); tmp=$tmp; mkdir $tmp/mine && touch $tmp/mine/notes.txt && expect_status 2 $GELU_ACC report --out $tmp/mine --formats float16 && stderr_has 'did not write' && [ -f $tmp/mine/notes.txt ] && [ ! -f $tmp/mine/float16.md ]"
# The marker records what each format's tables measured: a sampled run may
# not replace exhaustive float32 tables (the committed ones are) without
# --force, and the index says which inputs each format was measured on.
check "report: refuses to replace exhaustive float32 tables with a sample" \
    bash -c "$(declare -f expect_status stderr_has); tmp=$tmp; cp -r ${top_srcdir:-.}/reports $tmp/published && chmod -R u+w $tmp/published &&
             cp $tmp/published/float32.json $tmp/f32.before &&
             expect_status 2 $GELU_ACC report --out $tmp/published --formats float32 --float32-domain stride:1048576 &&
             stderr_has 'every input' && stderr_has 'force' && cmp $tmp/f32.before $tmp/published/float32.json"
check "report: --force replaces them, and the index then names the sample" \
    bash -c "$GELU_ACC report --out $tmp/published --formats float32 --float32-domain stride:1048576 --force &&
             grep -qx 'float32 4096 stride:1048576' $tmp/published/.gelu-acc-report &&
             grep -q '<code>stride:1048576</code>, 4096 of the 4294967296 float32 inputs' $tmp/published/index.html &&
             grep -q '<code>all</code>, every one of the 65536 bfloat16 inputs' $tmp/published/index.html"
check "report: the committed index says float32 was measured on every input" \
    grep -q '<code>all</code>, every one of the 4294967296 float32 inputs' "${top_srcdir:-.}/reports/index.html"
check "report: a malformed marker is refused, naming its line" \
    bash -c "$(declare -f expect_status stderr_has); tmp=$tmp; mkdir $tmp/marked && printf 'x\\nfloat32 lots all\\n' > $tmp/marked/.gelu-acc-report &&
             expect_status 2 $GELU_ACC report --out $tmp/marked --formats float16 && stderr_has '.gelu-acc-report:2'"
check "sweep and merge: --json and --csv together are refused (status 2)" \
    bash -c "$(declare -f expect_status stderr_has); tmp=$tmp; expect_status 2 $GELU_ACC sweep --impl erf --format bfloat16 --json --csv && stderr_has 'sweep: choose one of --json and --csv' &&
             expect_status 2 $GELU_ACC merge --csv --json $tmp/none && stderr_has 'merge: choose one of --json and --csv'"
finish
