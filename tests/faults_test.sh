#!/bin/bash
# Faults are named by inputs that have them, and intervals stay inside the
# measured inputs.  Facts used: the erf model computes x*0.5*(1 + erf(...)),
# so gelu(-inf) is -inf * 0 = NaN; a flushed output is a zero.
. "${top_srcdir:-.}/tests/tap.sh"

check "sweep names the NaN input and the first flushed input" \
    bash -c "$GELU_ACC sweep --impl erf --format bfloat16 > $tmp/text &&
             grep -q '^  first nan at x = -inf (0xff80): output .*nan' $tmp/text &&
             grep -Eq '^  first flushed_to_zero at x = .*: output -?0 \(0x[08]000\)' $tmp/text"

check "JSON names each fault's first input, and it has the fault" \
    bash -c "$GELU_ACC sweep --impl erf --format bfloat16 --json > $tmp/json &&
             grep -q '\"first_faults\": {\"flushed_to_zero\": {\"input\": \"0x[0-9a-f]*\", \"output\": \"0x[08]000\"' $tmp/json &&
             grep -q '\"nan\": {\"input\": \"0xff80\", \"output\": \"0x[7f][fc][c-f][0-9a-f]\"' $tmp/json"

cat > "$tmp/flushing.baseline" <<END
[erf-bf16]
kernel = erf
format = bfloat16
domain = all
flushed_to_zero = 0
nan = 0
END
check "check names an input that has the fault of a count, not the worst one" \
    bash -c "$(declare -f expect_status); tmp=$tmp; expect_status 1 $GELU_ACC check --baseline $tmp/flushing.baseline &&
             grep -Eq '^erf-bf16: flushed_to_zero 0 -> [0-9]+; e.g. input 0x[0-9a-f]+ \(.*\): output 0x[08]000 \(-?0\)' $tmp/out &&
             grep -q '^erf-bf16: nan 0 -> 1; e.g. input 0xff80 (-inf)' $tmp/out"

check "a range domain's faithful interval ends at the range, not at infinity" \
    bash -c "$GELU_ACC sweep --impl double --format float16 --domain range:-2:3 > $tmp/text &&
             grep -q '^  faithful   on \[-2, 3\]' $tmp/text &&
             $GELU_ACC sweep --impl double --format float16 --domain range:-2:3 --json > $tmp/json &&
             grep -q '\"faithful_interval\": {\"lo\": null, \"hi\": null, \"from\": \"0xc000\", \"to\": \"0x4200\"}' $tmp/json"

check "an interval that no measured input reaches says none" \
    bash -c "$GELU_ACC sweep --impl erf --format float32 --domain range:-6:-5 > $tmp/text &&
             grep -q '^  faithful   on no measured input around 0: unfaithful at x = -5;' $tmp/text && ! grep -q 'inf)' $tmp/text"

check "an input +-0 that is not faithful is said plainly" \
    bash -c "printf '0x0000\n0x8000\n' > $tmp/zeros && printf '0x8000\n0x0000\n' > $tmp/swapped &&
             $GELU_ACC inputs --format float16 --domain file:$tmp/zeros -o $tmp/in.raw >/dev/null 2>&1;
             $GELU_ACC sweep --impl erfc --format float16 --domain file:$tmp/zeros | grep -q '^  faithful   on \[-0, 0\]'"
finish
