#!/bin/bash
# Which input each line of 'gelu-acc check' names (doc/baselines.md, "Which
# input a line names"): a count's line an input that the count counts, never
# the worst-ulp input of another figure; with a section's 'snapshot', the
# inputs whose class changed.  The kernel is erf's bfloat16 outputs over
# every encoding (domain order = encoding order), edited at two known
# inputs: x = 1 (0x3f80) made NaN, x = -2 (0xc000) moved one ulp up.
. "${top_srcdir:-.}/tests/tap.sh"

"$GELU_ACC" inputs --format bfloat16 -o "$tmp/in.raw" >/dev/null
"$GELU_ACC" sweep --impl erf --format bfloat16 --save-outputs "$tmp/release.raw" >/dev/null
cp "$tmp/release.raw" "$tmp/after.raw"
# put16 FILE INDEX HEX: little-endian 16-bit element INDEX of FILE
put16() {
    printf "\\x$(printf %02x $(($3 & 255)))\\x$(printf %02x $(($3 >> 8)))" |
        dd of="$1" bs=1 seek=$((2 * $2)) conv=notrunc status=none
}
get16() { od -An -tx2 -j $((2 * $2)) -N2 "$1" | tr -d ' '; }
put16 "$tmp/after.raw" $((0x3f80)) 0x7fc0
put16 "$tmp/after.raw" $((0xc000)) $((0x$(get16 "$tmp/release.raw" $((0xc000))) + 1))

cat > "$tmp/release.baseline" <<END
[k]
kernel = outputs:release.raw
inputs = in.raw
format = bfloat16
END
"$GELU_ACC" check --baseline "$tmp/release.baseline" --update-baseline >/dev/null
sed 's/outputs:release.raw/outputs:after.raw/' "$tmp/release.baseline" > "$tmp/after.baseline"
sed 's/^inputs = in.raw/inputs = in.raw\nsnapshot = release.raw/' "$tmp/after.baseline" > "$tmp/snap.baseline"

check "the recorded baseline holds nan = 1 (erf's NaN at -inf, 0xff80)" \
    bash -c "grep -qx 'nan = 1' $tmp/release.baseline && [ \$(get16() { od -An -tx2 -j \$((2 * \$1)) -N2 $tmp/release.raw | tr -d ' '; }; get16 \$((0xff80))) = ffc0 ]"

# Without a snapshot: an input of the kind, said to be an example.
check "without a snapshot: exit 1" \
    bash -c "$(declare -f expect_status); tmp=$tmp; expect_status 1 $GELU_ACC check --baseline $tmp/after.baseline"
"$GELU_ACC" check --baseline "$tmp/after.baseline" > "$tmp/plain.out" 2>&1
check "nan 1 -> 2 names an input whose output is now NaN, not the baseline's -inf" \
    bash -c "line=\$(grep '^k: nan 1 -> 2; e.g. input ' $tmp/plain.out) && x=\${line#*e.g. input } && x=\${x%% *} &&
             [ \$x != 0xff80 ] && y=\$(od -An -tx2 -j \$((2 * x)) -N2 $tmp/after.raw | tr -d ' ') &&
             [ \$((0x\$y & 0x7fff)) -gt \$((0x7f80)) ]"
check "correctly_rounded names an input that is not correctly rounded (gelu-acc truth says so)" \
    bash -c "line=\$(grep '^k: correctly_rounded 65210 -> 65208; e.g. input ' $tmp/plain.out) &&
             x=\${line#*e.g. input } && x=\${x%% *} && y=\${line#*: output } && y=\${y%% *} &&
             echo \$x > $tmp/x.txt && rn=\$($GELU_ACC truth --format bfloat16 --bits --input $tmp/x.txt | cut -d' ' -f2) &&
             [ -n \"\$rn\" ] && [ \$rn != \$y ]"
check "core.correctly_rounded names a core input that is not correctly rounded, not the worst-ulp one" \
    bash -c "grep -q '^k: core.correctly_rounded 2946 -> 2944; e.g. input 0x3f80 (1): output 0x7fc0' $tmp/plain.out"
check "faithful_interval names the end that moved in (x = 1, not faithful)" \
    bash -c "grep -q '^k: faithful_interval .* -> (-4.688, 1); input 0x3f80 (1) is not faithful' $tmp/plain.out"
check "no count line names the worst input" \
    bash -c "! grep -E '^k: (correctly_rounded|nan|core.nan|core.correctly_rounded|faithful_interval).*worst' $tmp/plain.out"

# With the snapshot: exactly the two inputs changed, in domain order.
check "with the snapshot: exit 1" \
    bash -c "$(declare -f expect_status); tmp=$tmp; expect_status 1 $GELU_ACC check --baseline $tmp/snap.baseline"
"$GELU_ACC" check --baseline "$tmp/snap.baseline" > "$tmp/snap.out" 2>&1
check "the class changed at exactly 2 inputs, both worse" \
    bash -c "grep -q '^k: class changed at 2 of 65536 inputs against snapshot release.raw (2 worse; input by input: improved 0, worsened 2)' $tmp/snap.out &&
             [ \$(grep -c '^k:   input ' $tmp/snap.out) = 2 ]"
check "they are x = 1 (correctly rounded -> NaN) and x = -2 (-> faithful), with both outputs" \
    bash -c "grep -q '^k:   input 0x3f80 (1): output 0x3f57 (0.8398) correctly_rounded -> 0x7fc0 (nan) nan: worse' $tmp/snap.out &&
             grep -q '^k:   input 0xc000 (-2): output 0x$(get16 "$tmp/release.raw" $((0xc000))) .* correctly_rounded -> 0x$(get16 "$tmp/after.raw" $((0xc000))) .* faithful_not_cr: worse' $tmp/snap.out"
check "nan 1 -> 2 names the new NaN (x = 1) and its output in the snapshot" \
    bash -c "grep -q '^k: nan 1 -> 2; newly counted: input 0x3f80 (1): output 0x7fc0 (nan), exact 0.841344746, snapshot.s output 0x3f57' $tmp/snap.out"
check "correctly_rounded names an input that was correctly rounded and is no more" \
    bash -c "grep -q '^k: correctly_rounded 65210 -> 65208; newly counted: input 0x3f80 ' $tmp/snap.out"
check "the snapshot's lines also come under --max-failures" \
    bash -c "$GELU_ACC check --baseline $tmp/snap.baseline --max-failures 3 | grep -q '^k: class changed at 2 of 65536'"

check "the lines are the same bytes with 1 and 3 threads" \
    bash -c "$GELU_ACC check --baseline $tmp/snap.baseline --threads 1 > $tmp/t1; $GELU_ACC check --baseline $tmp/snap.baseline --threads 3 > $tmp/t3;
             $GELU_ACC check --baseline $tmp/after.baseline --threads 3 > $tmp/p3; cmp $tmp/t1 $tmp/t3 && cmp $tmp/p3 $tmp/plain.out"

# A kernel against its own snapshot, and one better than its snapshot.
sed 's/^inputs = in.raw/inputs = in.raw\nsnapshot = release.raw/' "$tmp/release.baseline" > "$tmp/same.baseline"
check "a kernel against its own snapshot passes, no class changed" \
    bash -c "$GELU_ACC check --baseline $tmp/same.baseline > $tmp/same.out && grep -q '^PASS k' $tmp/same.out && ! grep -q 'class changed' $tmp/same.out"
sed 's/snapshot = release.raw/snapshot = after.raw/' "$tmp/same.baseline" > "$tmp/better.baseline"
check "a kernel better than its snapshot lists the changes, not worse, and passes" \
    bash -c "$GELU_ACC check --baseline $tmp/better.baseline > $tmp/better.out && grep -q '^k: class changed at 2 of 65536 inputs against snapshot after.raw (0 worse' $tmp/better.out &&
             grep -q 'nan -> 0x3f57 (0.8398) correctly_rounded: not worse' $tmp/better.out && grep -q '^PASS k' $tmp/better.out"

# Bad snapshots.
head -c 100 "$tmp/release.raw" > "$tmp/short.raw"
sed 's/snapshot = release.raw/snapshot = short.raw/' "$tmp/snap.baseline" > "$tmp/short.baseline"
check "a snapshot of another length: exit 2, naming it and the section's line" \
    bash -c "$(declare -f expect_status stderr_has); tmp=$tmp; expect_status 2 $GELU_ACC check --baseline $tmp/short.baseline &&
             stderr_has 'short.baseline:5: [k]' && stderr_has 'short.raw has 50 outputs and the domain 65536 inputs'"
sed 's/snapshot = release.raw/snapshot = none.raw/' "$tmp/snap.baseline" > "$tmp/none.baseline"
check "a missing snapshot: exit 2, naming it" \
    bash -c "$(declare -f expect_status stderr_has); tmp=$tmp; expect_status 2 $GELU_ACC check --baseline $tmp/none.baseline && stderr_has 'none.raw'"
printf '[b]\nkernel = erf\nformat = bfloat16\nreference = gelu_grad\nsnapshot = x.raw\n' > "$tmp/bw.baseline"
check "'snapshot' in a backward section: exit 2, naming its line" \
    bash -c "$(declare -f expect_status stderr_has); tmp=$tmp; expect_status 2 $GELU_ACC check --baseline $tmp/bw.baseline && stderr_has 'bw.baseline:5' && stderr_has 'snapshot'"
check "--update-baseline does not read the snapshot (it compares nothing)" \
    bash -c "$GELU_ACC check --baseline $tmp/none.baseline --update-baseline >/dev/null && grep -qx 'snapshot = none.raw' $tmp/none.baseline"
check "--update-baseline keeps the snapshot key" \
    bash -c "cp $tmp/snap.baseline $tmp/keep.baseline && $GELU_ACC check --baseline $tmp/keep.baseline --update-baseline >/dev/null && grep -qx 'snapshot = release.raw' $tmp/keep.baseline"

finish
