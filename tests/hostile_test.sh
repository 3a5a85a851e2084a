#!/bin/bash
# Inputs a hostile user gives (issue 34): each is refused with a one-line
# error naming what and where, or read right, in bounded time and memory.
. "${top_srcdir:-.}/tests/tap.sh"
plugins=$GELU_ACC_PLUGIN_DIR

# bounded COMMAND...: COMMAND ends within 5 s under a 64 MiB address space
# (so it never held the file), with exit status 2.  Sanitizer builds reserve
# terabytes of address space: there the bound is time alone.
memory_limit=65536
ldd "$GELU_ACC" 2>/dev/null | grep -q 'lib[at]san' && memory_limit=unlimited
bounded() {
    local got=0
    (ulimit -v "$memory_limit"; exec timeout 5 "$@") >"$tmp/out" 2>"$tmp/err" || got=$?
    [ "$got" -eq 2 ] || { echo "exit status $got, expected 2:"; cat "$tmp/err"; return 1; }
}

# A gibibyte of NUL bytes (sparse: no disk).
truncate -s 1G "$tmp/nul"

check "a file of NUL bytes as a domain: refused at its first byte" \
    bash -c "$(declare -f bounded); tmp=$tmp; memory_limit=$memory_limit; bounded $GELU_ACC sweep --impl erf --format bfloat16 --domain file:$tmp/nul &&
             grep -q ': sweep: .*/nul:1:1: NUL byte\$' $tmp/err"
check "a file of NUL bytes as a baseline: refused at its first byte" \
    bash -c "$(declare -f bounded); tmp=$tmp; memory_limit=$memory_limit; bounded $GELU_ACC check --baseline $tmp/nul &&
             grep -q '/nul:1:1: NUL byte\$' $tmp/err"
check "a file of NUL bytes as truth's input: refused at its first byte" \
    bash -c "$(declare -f bounded); tmp=$tmp; memory_limit=$memory_limit; bounded $GELU_ACC truth --format bfloat16 --bits --input $tmp/nul &&
             grep -q '/nul:1:1: NUL byte\$' $tmp/err"
check "an endless line through a pipe: refused at byte 4097" \
    bash -c "$(declare -f bounded); tmp=$tmp; memory_limit=$memory_limit; bounded bash -c 'tr \\\\0 7 < /dev/zero | $GELU_ACC truth --format bfloat16 --bits --input -' &&
             grep -q '<stdin>:1:4097: line longer than 4096 bytes\$' $tmp/err"
for cmd in "sweep --impl erf --format bfloat16 --domain file:/dev/zero" \
           "check --baseline /dev/zero" "truth --format bfloat16 --bits --input /dev/zero"; do
    check "${cmd%% *} refuses /dev/zero as a device, at once" \
        bash -c "$(declare -f bounded); tmp=$tmp; memory_limit=$memory_limit; bounded $GELU_ACC $cmd &&
                 grep -q '/dev/zero: is a device, not a file' $tmp/err"
done
check "a directory where a file is expected: refused as such" \
    bash -c "$(declare -f bounded); tmp=$tmp; memory_limit=$memory_limit; bounded $GELU_ACC check --baseline $tmp &&
             grep -q ': is a directory, not a file\$' $tmp/err &&
             bounded $GELU_ACC sweep --impl erf --format bfloat16 --domain file:$tmp &&
             grep -q ': is a directory, not a file\$' $tmp/err"

# A named input is read once: a pipe loses no byte to the sniffing.
check "a four-line pipe as a domain measures its four inputs" \
    bash -c "$GELU_ACC sweep --impl erf --format bfloat16 --json \
                 --domain file:<(printf '0x3f80\n0x4000\n0x4040\n0x4080\n') > $tmp/json &&
             grep -q '\"count\": 4,' $tmp/json"
check "file:/dev/stdin reads the encodings given on standard input" \
    bash -c "printf '0x3f80\n0x4000\n0x4040\n' | $GELU_ACC sweep --impl erf --format bfloat16 --json \
                 --domain file:/dev/stdin > $tmp/json && grep -q '\"count\": 3,' $tmp/json"
check "a .npy through a pipe is read whole, like the file itself" \
    bash -c "$GELU_ACC sweep --impl erf --format float16 --json --domain file:$top_srcdir/tests/data/npy/f16.npy |
                 grep '\"count\"' > $tmp/file &&
             cat $top_srcdir/tests/data/npy/f16.npy | $GELU_ACC sweep --impl erf --format float16 --json \
                 --domain file:/dev/stdin | grep '\"count\"' > $tmp/pipe &&
             grep -q '\"count\": [1-9]' $tmp/file && cmp $tmp/file $tmp/pipe"

# A damaged .npy is refused, not read as raw bytes (header included).
for byte in 0 1 4; do
    cp "$top_srcdir/tests/data/npy/f16.npy" "$tmp/damaged$byte.npy"
    printf 'X' | dd of="$tmp/damaged$byte.npy" bs=1 seek=$byte conv=notrunc 2>/dev/null
    check "grade refuses a .npy whose magic byte $byte is damaged" \
        bash -c "$(declare -f expect_status stderr_has); tmp=$tmp;
                 expect_status 2 $GELU_ACC grade --format float16 --inputs $tmp/damaged$byte.npy \
                     --outputs $tmp/damaged$byte.npy && stderr_has 'a damaged .npy, not read as raw'"
done
cp "$top_srcdir/tests/data/npy/f16.npy" "$tmp/header.npy"
printf 'X' | dd of="$tmp/header.npy" bs=1 seek=12 conv=notrunc 2>/dev/null
check "grade refuses a .npy whose header dict is damaged" \
    bash -c "$(declare -f expect_status stderr_has); tmp=$tmp;
             expect_status 2 $GELU_ACC grade --format float16 --inputs $tmp/header.npy \
                 --outputs $tmp/header.npy && stderr_has 'header.npy: byte '"
# Smaller faults (issue 34, item 8).
check "an unwritable --partial is refused before the sweep, not after it" \
    bash -c "$(declare -f expect_status stderr_has); tmp=$tmp;
             start=\$(date +%s); expect_status 2 timeout 20 $GELU_ACC sweep --impl erf --format float32 \
                 --domain random:300000000 --partial $tmp/no/such/dir/p &&
             stderr_has 'sweep: partial: ' && [ \$((\$(date +%s) - start)) -lt 5 ]"
check "an unwritable report --partial is refused before the report" \
    bash -c "$(declare -f expect_status stderr_has); tmp=$tmp;
             expect_status 2 timeout 20 $GELU_ACC report --shard 1/2 --partial $tmp/no/such/dir/p &&
             stderr_has 'report: partial: '"
for opt in "--impl erf --impl double" "--domain all --domain range:1:2" "--threads 1 --threads 2"; do
    check "sweep refuses an option given twice ($opt)" \
        bash -c "$(declare -f expect_status stderr_has); tmp=$tmp;
                 expect_status 2 $GELU_ACC sweep --format bfloat16 $opt --impl erf &&
                 stderr_has 'is given twice'"
done
check "check refuses --baseline given twice" \
    bash -c "$(declare -f expect_status stderr_has); tmp=$tmp;
             expect_status 2 $GELU_ACC check --baseline a --baseline b && stderr_has '--baseline is given twice'"
check "no faithful interval is claimed when no number was measured" \
    bash -c "printf '0x7fc0\n' > $tmp/nan && $GELU_ACC sweep --impl erf --format bfloat16 --domain file:$tmp/nan > $tmp/text &&
             grep -q '^  faithful   not measured: no input but NaN' $tmp/text && ! grep -q 'inf)' $tmp/text"
check "--checkpoint-interval below a second is refused" \
    bash -c "$(declare -f expect_status stderr_has); tmp=$tmp;
             expect_status 2 $GELU_ACC sweep --impl erf --format bfloat16 --checkpoint $tmp/ck \
                 --checkpoint-interval 0.000001 && stderr_has 'from 1 to 86400' &&
             expect_status 0 $GELU_ACC sweep --impl erf --format bfloat16 --checkpoint $tmp/ck \
                 --checkpoint-interval 1"
check "--timeout above a day is refused" \
    bash -c "$(declare -f expect_status stderr_has); tmp=$tmp;
             expect_status 2 $GELU_ACC check --baseline x --timeout 86401 && stderr_has 'at most 86400'"
check "a missing report shard is named" \
    bash -c "$(declare -f expect_status stderr_has); tmp=$tmp;
             for k in 1 3; do $GELU_ACC report --formats bfloat16 --no-backward --shard \$k/3 --partial $tmp/r\$k || exit 1; done;
             expect_status 2 $GELU_ACC merge --out $tmp/merged $tmp/r1 $tmp/r3 &&
             stderr_has 'shard 2/3 is missing (1 of 3)' && [ ! -e $tmp/merged ]"
# A report directory is held by one run: a second one at the same time is
# refused (exit 2, "in use"), no lock file is left, and a run killed with
# SIGKILL leaves nothing that refuses the next.
two_reports() {
    local first status=0 waited=0
    "$GELU_ACC" report --out "$tmp/rep" --formats bfloat16 --no-backward > /dev/null 2>&1 &
    first=$!
    while [ ! -e "$tmp/rep/.gelu-acc-report" ] && [ $waited -lt 100 ]; do sleep 0.1; waited=$((waited + 1)); done
    expect_status 2 "$GELU_ACC" report --out "$tmp/rep" --formats float16 --no-backward || status=1
    stderr_has "rep: in use by another gelu-acc run" || status=1
    wait $first || { echo "the first report failed"; status=1; }
    ls -A "$tmp/rep" > "$tmp/files"
    grep -qvx -e '.gelu-acc-report' -e 'bfloat16[.-].*' -e facts.html -e facts.md -e index.html \
        -e plots "$tmp/files" && { echo "files left:"; cat "$tmp/files"; status=1; }
    grep -q '^float16 ' "$tmp/rep/.gelu-acc-report" &&
        { echo "the refused run's format is in the marker"; status=1; }
    return $status
}
check "two reports into one directory at once: the second is refused as 'in use'" two_reports
killed_report() {
    "$GELU_ACC" report --out "$tmp/rep2" --formats bfloat16 --no-backward > /dev/null 2>&1 &
    local first=$! waited=0
    while [ ! -e "$tmp/rep2/.gelu-acc-report" ] && [ $waited -lt 100 ]; do sleep 0.1; waited=$((waited + 1)); done
    kill -KILL $first
    wait $first
    expect_status 0 "$GELU_ACC" report --out "$tmp/rep2" --formats bfloat16 --no-backward
}
check "a report killed with SIGKILL leaves no stale lock" killed_report

if [ -d "$plugins" ]; then
    mkdir -p "$tmp/a\"quote"
    cp "$plugins/backward.so" "$tmp/a\"quote/"
    check "backward JSON stays valid with a quote in the kernel's path" \
        bash -c "$GELU_ACC sweep --backward --json --kernel '$tmp/a\"quote/backward.so:backward_exact_bf16' \
                     --format bfloat16 --domain pairs:random:1000:1 > $tmp/bw.json &&
                 $PYTHON -c 'import json,sys; d = json.load(open(sys.argv[1])); assert \"quote\" in d[\"impl\"], d' $tmp/bw.json"

    # Workers die with gelu-acc: SIGKILL during a hanging kernel leaves no
    # worker spinning until the timeout (600 s here).
    orphan() {
        local pid worker state waited=0
        printf '0x3fc00000\n' > "$tmp/hang"
        "$GELU_ACC" sweep --kernel "$plugins/hanging.so:hanging_gelu_f32" --format float32 \
            --domain "file:$tmp/hang" --timeout 600 --threads 1 > /dev/null 2>&1 &
        pid=$!
        while [ -z "$worker" ] && [ $waited -lt 100 ]; do
            sleep 0.1; waited=$((waited + 1))
            worker=$(ps -o pid= --ppid $pid | head -1 | tr -d ' ')
        done
        [ -n "$worker" ] || { echo "no worker started"; kill -KILL $pid; return 1; }
        sleep 0.5
        kill -KILL $pid
        wait $pid 2>/dev/null
        for waited in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30; do
            state=$(awk '{print $3}' /proc/$worker/stat 2>/dev/null)
            [ -z "$state" ] || [ "$state" = Z ] && return 0
            sleep 0.1
        done
        echo "worker $worker still running (state $state) 3 s after its caller died"
        kill -KILL $worker
        return 1
    }
    check "a worker in a hanging kernel dies with gelu-acc (kill -9)" orphan

    # A library whose constructors misbehave is loaded first in a child: it
    # fails as its kernel would (exit 1), gelu-acc's stdout stays clean, and
    # the other sections of a check are still measured.
    printf '0x3f800000\n' > "$tmp/one"
    cat > "$tmp/ctor.baseline" <<END
[ctor]
kernel = plugin:$plugins/constructor.so:constructor_gelu_f32
format = float32
domain = file:$tmp/one
timeout = 1
[other]
kernel = erf
format = bfloat16
domain = range:1:2
max_ulp = 1000
END
    # (a sanitized build's own SEGV handler would turn the crash into an exit
    # with its report: let the signal through, as an unsanitized build does)
    export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0"
    for how in abort:'signal 6' crash:'signal 11' exit:'status 9' stdout:'bytes to stdout' hang:hangs; do
        check "a constructor that does '${how%%:*}' fails the sweep as a kernel would, stdout clean" \
            bash -c "$(declare -f expect_status stderr_has); tmp=$tmp;
                     GELU_ACC_TEST_CONSTRUCTOR=${how%%:*} expect_status 1 $GELU_ACC sweep --json --timeout 1 \
                         --kernel $plugins/constructor.so:constructor_gelu_f32 --format float32 --domain file:$tmp/one &&
                     stderr_has '${how#*:}' && [ ! -s $tmp/out ]"
        check "a constructor that does '${how%%:*}': the other check sections still run" \
            bash -c "$(declare -f expect_status stderr_has); tmp=$tmp;
                     GELU_ACC_TEST_CONSTRUCTOR=${how%%:*} expect_status 1 $GELU_ACC check --baseline $tmp/ctor.baseline &&
                     grep -q '^FAIL ctor (float32): .*${how#*:}' $tmp/out && grep -q '^PASS other ' $tmp/out"
    done
    check "the same library with a quiet constructor is measured" \
        bash -c "$GELU_ACC check --baseline $tmp/ctor.baseline > $tmp/quiet &&
                 grep -q '^PASS ctor ' $tmp/quiet && grep -q '^PASS other ' $tmp/quiet"

    # gelu-acc's own process never loads a plugin library: the probe and the
    # workers do.  The library aborts in the process whose pid is
    # GELU_ACC_TEST_MAIN_PID, and exec keeps the shell's pid ($$) for
    # gelu-acc: before, this killed gelu-acc (exit 134).  The results are
    # those of the same runs where no process aborts.
    ctor=$plugins/constructor.so:constructor_gelu_f32
    printf '0x3f800000\n0xbf800000\n0x40400000\n0x00000001\n0x7f800000\n' > "$tmp/five"
    check "a plugin sweep never loads the library in gelu-acc's process, same results" \
        bash -c "$GELU_ACC sweep --json --kernel $ctor --format float32 --domain file:$tmp/five > $tmp/plain &&
                 sh -c 'GELU_ACC_TEST_MAIN_PID=\$\$ exec $GELU_ACC sweep --json \
                     --kernel $ctor --format float32 --domain file:$tmp/five' > $tmp/isolated &&
                 grep -q '\"count\": 5,' $tmp/isolated && cmp $tmp/plain $tmp/isolated"
    check "a check and a compare never load the library in gelu-acc's process" \
        bash -c "sh -c 'GELU_ACC_TEST_MAIN_PID=\$\$ exec $GELU_ACC check --baseline $tmp/ctor.baseline' > $tmp/quiet &&
                 grep -q '^PASS ctor ' $tmp/quiet && grep -q '^PASS other ' $tmp/quiet &&
                 sh -c 'GELU_ACC_TEST_MAIN_PID=\$\$ exec $GELU_ACC compare $ctor $plugins/good.so:good_gelu_f32 \
                     --format float32 --domain file:$tmp/five --json' > $tmp/compared"

    # A library that loads well once (the probe) and misbehaves when a
    # worker loads it: the run fails as for a kernel that crashes, stdout
    # stays gelu-acc's own, and the other sections of a check still run.
    for how in abort:'killed by signal 6' crash:'killed by signal 11' exit:'exited with status 9' \
               hang:'loading the library timed out after 1 s'; do
        check "a constructor that does '${how%%:*}' only in the workers fails the sweep as a kernel would" \
            bash -c "$(declare -f expect_status stderr_has); tmp=$tmp; rm -f $tmp/loaded;
                     GELU_ACC_TEST_CONSTRUCTOR_LATER=$tmp/loaded GELU_ACC_TEST_CONSTRUCTOR=${how%%:*} \
                         expect_status 1 $GELU_ACC sweep --json --timeout 1 --kernel $ctor --format float32 \
                         --domain file:$tmp/one &&
                     stderr_has 'failed: no worker process: ' && stderr_has '${how#*:}' &&
                     $PYTHON -m json.tool $tmp/out > /dev/null"
        check "a constructor that does '${how%%:*}' only in the workers: the other check sections still run" \
            bash -c "$(declare -f expect_status); tmp=$tmp; rm -f $tmp/loaded;
                     GELU_ACC_TEST_CONSTRUCTOR_LATER=$tmp/loaded GELU_ACC_TEST_CONSTRUCTOR=${how%%:*} \
                         expect_status 1 $GELU_ACC check --baseline $tmp/ctor.baseline &&
                     grep -q '^FAIL ctor: the kernel no worker process: .*${how#*:}' $tmp/out &&
                     grep -q '^PASS other ' $tmp/out"
    done
    check "a constructor that prints only in the workers: its line goes to stderr, the JSON is whole" \
        bash -c "rm -f $tmp/loaded; GELU_ACC_TEST_CONSTRUCTOR_LATER=$tmp/loaded GELU_ACC_TEST_CONSTRUCTOR=stdout \
                     $GELU_ACC sweep --json --kernel $ctor --format float32 --domain file:$tmp/five \
                     > $tmp/printed 2> $tmp/err &&
                 grep -q 'hello from a constructor' $tmp/err && cmp $tmp/plain $tmp/printed"
fi
finish
