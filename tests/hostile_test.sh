#!/bin/bash
# Inputs a hostile user gives (issue 34): each is refused with a one-line
# error naming what and where, or read right, in bounded time and memory.
. "${top_srcdir:-.}/tests/tap.sh"

# bounded NAME COMMAND...: COMMAND ends within 5 s under a 64 MiB address
# space (so it never held the file), with exit status 2.
bounded() {
    local got=0
    (ulimit -v 65536; exec timeout 5 "$@") >"$tmp/out" 2>"$tmp/err" || got=$?
    [ "$got" -eq 2 ] || { echo "exit status $got, expected 2:"; cat "$tmp/err"; return 1; }
}

# A gibibyte of NUL bytes (sparse: no disk).
truncate -s 1G "$tmp/nul"

check "a file of NUL bytes as a domain: refused at its first byte" \
    bash -c "$(declare -f bounded); tmp=$tmp; bounded $GELU_ACC sweep --impl erf --format bfloat16 --domain file:$tmp/nul &&
             grep -q ': sweep: .*/nul:1:1: NUL byte\$' $tmp/err"
check "a file of NUL bytes as a baseline: refused at its first byte" \
    bash -c "$(declare -f bounded); tmp=$tmp; bounded $GELU_ACC check --baseline $tmp/nul &&
             grep -q '/nul:1:1: NUL byte\$' $tmp/err"
check "a file of NUL bytes as truth's input: refused at its first byte" \
    bash -c "$(declare -f bounded); tmp=$tmp; bounded $GELU_ACC truth --format bfloat16 --bits --input $tmp/nul &&
             grep -q '/nul:1:1: NUL byte\$' $tmp/err"
check "an endless line through a pipe: refused at byte 4097" \
    bash -c "$(declare -f bounded); tmp=$tmp; bounded bash -c 'tr \\\\0 7 < /dev/zero | $GELU_ACC truth --format bfloat16 --bits --input -' &&
             grep -q '<stdin>:1:4097: line longer than 4096 bytes\$' $tmp/err"
for cmd in "sweep --impl erf --format bfloat16 --domain file:/dev/zero" \
           "check --baseline /dev/zero" "truth --format bfloat16 --bits --input /dev/zero"; do
    check "${cmd%% *} refuses /dev/zero as a device, at once" \
        bash -c "$(declare -f bounded); tmp=$tmp; bounded $GELU_ACC $cmd &&
                 grep -q '/dev/zero: is a device, not a file' $tmp/err"
done
check "a directory where a file is expected: refused as such" \
    bash -c "$(declare -f bounded); tmp=$tmp; bounded $GELU_ACC check --baseline $tmp &&
             grep -q ': is a directory, not a file\$' $tmp/err &&
             bounded $GELU_ACC sweep --impl erf --format bfloat16 --domain file:$tmp &&
             grep -q ': is a directory, not a file\$' $tmp/err"
finish
