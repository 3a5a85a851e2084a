#!/bin/bash
# Strict parsing end to end: every input found loose is refused with exit
# status 2 and a message that says what and where, and what the README
# documents is still read.
. "${top_srcdir:-.}/tests/tap.sh"
src=${top_srcdir:-.}

# refuses TEXT COMMAND...: exit status 2, TEXT on stderr.
refuses() {
    local text=$1
    shift
    expect_status 2 "$@" && stderr_has "$text"
}
# count_is N SWEEP-ARGS...: the sweep measured N inputs.
count_is() {
    local n=$1
    shift
    [ "$("$GELU_ACC" sweep --json "$@" | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["count"])')" = "$n" ]
}
sweep_bf16() { "$GELU_ACC" sweep --impl erf --format bfloat16 "$@"; }

# Domains: these measured 0 inputs and exited 0, read octal, or cut fields.
check "random:2^64-1 is refused, not measured as 0 inputs" \
    refuses "N 18446744073709551615 is out of range (1 <= N <= 2^32)" sweep_bf16 --domain random:18446744073709551615
check "random:N just above 2^64 - 4096 is refused" \
    refuses "out of range" sweep_bf16 --domain random:18446744073709547521
check "'random: -1' is refused" \
    refuses "N ' -1' is not a decimal whole number" sweep_bf16 --domain 'random: -1'
check "random:010 is ten inputs (decimal, not octal)" \
    count_is 10 --impl erf --format bfloat16 --domain random:010
check "a 64-digit random: field with trailing garbage is refused, not cut" \
    refuses "is not a decimal whole number" sweep_bf16 --domain "random:$(printf '1%.0s' {1..63})x"
check "stride:K:OFFSET with OFFSET >= K is refused" \
    refuses "OFFSET 4 is out of range (OFFSET < K)" sweep_bf16 --domain stride:4:4
check "range:B:A is refused" refuses "A is above B" sweep_bf16 --domain range:2:1
check "range: with MPFR-only syntax is refused" \
    refuses "B '0b101' is not a number (at character 2" sweep_bf16 --domain range:1:0b101
check "an empty file: domain is refused" \
    bash -c "$(declare -f expect_status stderr_has refuses sweep_bf16); tmp=$tmp; GELU_ACC=$GELU_ACC; : > $tmp/empty; refuses 'lists no encoding' sweep_bf16 --domain file:$tmp/empty"

# Numbers: the README's grammar, nothing more.
for bad in 0b101 1@2 @inf@ 'nan(1)' ' 1' '1 ' 1.5f 0x; do
    check "truth refuses '$bad'" refuses "'$bad' is not a number" "$GELU_ACC" truth --format float32 -- "$bad"
done
check "'--' ends truth's options: -inf and --all after it are values" \
    bash -c "[ \"\$($GELU_ACC truth --format bfloat16 -- -inf 1 | cut -d' ' -f1 | tr '\n' ' ')\" = '0xff80 0x3f80 ' ] &&
             ! $GELU_ACC truth --format bfloat16 -- --all 2>/dev/null"
check "hex-float and words still read" \
    bash -c "[ \"\$($GELU_ACC truth --format float32 0x1.8p-3 +Infinity -NAN | cut -d' ' -f1 | tr '\n' ' ')\" = '0x3e400000 0x7f800000 0x7fc00000 ' ]"

# Options.
check "--threads ' 2' is refused" refuses "--threads takes a number from 1 to 1024" sweep_bf16 --threads ' 2'
check "--threads 0x2 is refused" refuses "not '0x2'" sweep_bf16 --threads 0x2
for bad in 1e999 5x 0 -1 nan inf 86401; do
    check "--timeout $bad is refused" refuses "--timeout takes a decimal number of seconds" \
        "$GELU_ACC" sweep --kernel none.so:k --format float32 --timeout "$bad"
done
check "--formats float16,float16 is refused" refuses "names float16 twice" "$GELU_ACC" report --out "$tmp/r" --formats float16,float16
check "--formats with an empty name is refused" refuses "unknown format ''" "$GELU_ACC" report --out "$tmp/r" --formats float16,

# Files: a NUL byte hid the rest of a line or of a dtype string.
printf '0x3f80\n0x40\00000\n' > "$tmp/nul.txt"
check "a NUL in a bits file is refused with file:line:column" \
    refuses "$tmp/nul.txt:2:5: NUL byte" "$GELU_ACC" truth --format bfloat16 --bits --input "$tmp/nul.txt"
printf '0x3f80\r\n0x4000\r\n' > "$tmp/crlf.txt"
check "a bits file with CRLF line ends is read" \
    bash -c "[ \$($GELU_ACC truth --format bfloat16 --bits --input $tmp/crlf.txt | wc -l) = 2 ]"
python3 - "$tmp/nul.npy" <<'END'
import struct, sys
d = b"{'descr': '<f4\x00junk', 'fortran_order': False, 'shape': (1,), }"
h = d + b' ' * (64 - 10 - len(d) - 1) + b'\n'
open(sys.argv[1], 'wb').write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(h)) + h + b'\0\0\x80\x3f')
END
check "a NUL in an .npy dtype is refused with its byte" \
    refuses "byte 24: control character 0x00 in 'descr'" "$GELU_ACC" grade --format float32 --inputs "$tmp/nul.npy" --outputs "$tmp/nul.npy"
python3 - "$tmp/none.npy" <<'END'
import struct, sys
d = b"{'descr': '<u2', 'fortran_order': False, 'shape': (0,), }"
h = d.ljust(64 - 10 - 1) + b'\n'
open(sys.argv[1], 'wb').write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(h)) + h)
END
check "graded files of no element are refused (nothing graded is no pass)" \
    refuses "none.npy: no elements: nothing to grade" "$GELU_ACC" grade --format bfloat16 --inputs "$tmp/none.npy" --outputs "$tmp/none.npy"
# 2^32 + 1 elements (a sparse file): more than a sweep's statistics count.
python3 - "$tmp/big.npy" <<'END'
import struct, sys
n = 2**32 + 1
d = ("{'descr': '<u2', 'fortran_order': False, 'shape': (%d,), }" % n).encode()
total = (10 + len(d) + 1 + 63) // 64 * 64
h = d.ljust(total - 10 - 1) + b'\n'
with open(sys.argv[1], 'wb') as f:
    f.write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(h)) + h)
    f.truncate(total + 2 * n)
END
check "graded outputs of more than 2^32 inputs are refused" \
    refuses "a sweep measures at most 2^32" "$GELU_ACC" grade --format bfloat16 --inputs "$tmp/big.npy" --outputs "$tmp/big.npy"
rm -f "$tmp/big.npy"

# Baselines: each refusal names the file and the line.
baseline() { printf '[k]\nkernel = erf\nformat = float32\ndomain = range:1:1.001\n%b' "$1" > "$tmp/b.baseline"; }
check_baseline() { "$GELU_ACC" check --baseline "$tmp/b.baseline"; }
for case in "max_ulp = 1\nmax_ulp = 2\n:6: 'max_ulp' is given twice" \
            "[k]\nkernel = erf\nformat = float32\n:5: section [k] is given twice" \
            "faithful_interval = 0x40a00000 0xc0a00000\n:5: faithful_interval: LO 0x40a00000 is not below 0" \
            "max_ulp = 1e999\n:5: max_ulp '1e999' is beyond the double range" \
            "zero_below = 0xc1000000\nformat = bfloat16\n:6: 'format' is given twice" \
            "nan = 18446744073709551616\n:5: nan '18446744073709551616' is above 2^64 - 1" \
            "inf = 0\0junk\n:5:8: NUL byte"; do
    body=${case%%:*} message=${case#*:}
    baseline "$body"
    check "baseline refusal: ${message#*: }" refuses "$tmp/b.baseline:$message" check_baseline
done
printf '# kernels\n[k]\nkernel = erf x\nformat = bfloat16\n' > "$tmp/b.baseline"
check "a kernel that cannot be opened is named with its section's line" \
    refuses "$tmp/b.baseline:2: [k]: unknown implementation 'erf x'" check_baseline
long_domain="range:1:1.$(printf '0%.0s' {1..250})e9"
printf '[k]\nkernel = erf\nformat = bfloat16\ndomain = %s\n' "$long_domain" > "$tmp/b.baseline"
check "a 262-character domain is read whole (cut at 255 it read [1, +inf])" \
    bash -c "$GELU_ACC check --baseline $tmp/b.baseline --update-baseline >/dev/null && grep -qx 'domain = $long_domain' $tmp/b.baseline &&
             grep -q 'PASS k (bfloat16, gelu, $((0x4e6e - 0x3f80 + 1)) inputs)' <($GELU_ACC check --baseline $tmp/b.baseline)"

# A relative file: domain in a baseline is read from the baseline's directory.
mkdir -p "$tmp/dir" "$tmp/elsewhere"
printf '0x3f80\n0x4000\n0xc000\n' > "$tmp/dir/inputs.txt"
printf '[rel]\nkernel = erf\nformat = bfloat16\ndomain = file:inputs.txt\n' > "$tmp/dir/b.baseline"
check "a relative file: domain is resolved against the baseline's directory" \
    bash -c "cd $tmp/elsewhere && $GELU_ACC check --baseline ../dir/b.baseline | grep -q 'PASS rel (bfloat16, gelu, 3 inputs)'"

finish
