#!/bin/bash
# Shards, merge and checkpoints: the shards of a sweep, merged, print what
# one sweep prints, byte for byte; sets that are not one sweep are refused by
# name; a sweep killed (SIGKILL) after a checkpoint resumes to the bytes of an
# uninterrupted run.  Backward sweeps (sweep --backward) shard and merge the
# same way.
. "${top_srcdir:-.}/tests/tap.sh"

# refused TEXT COMMAND...: COMMAND exits with status 2 and says TEXT.
refused() {
    local text=$1
    shift
    expect_status 2 "$@" && stderr_has "$text"
}

# sharded FORM N SWEEP-ARGS...: sweep the N shards (in reverse order, to show
# order does not matter), merge them with FORM, compare with one sweep.
sharded() {
    local form=$1 n=$2 files=() k
    shift 2
    "$GELU_ACC" sweep "$@" $form > "$tmp/one" || return 1
    for ((k = n; k >= 1; k--)); do
        "$GELU_ACC" sweep "$@" --shard "$k/$n" --partial "$tmp/part$k" || return 1
    done
    for ((k = 1; k <= n; k++)); do files+=("$tmp/part$k"); done
    "$GELU_ACC" merge $form "${files[@]}" > "$tmp/merged" || return 1
    cmp "$tmp/one" "$tmp/merged"
}

for impl in erf tanh quick; do
    for n in 1 2 3 4; do
        check "bfloat16 $impl, every input: N = $n shards merged = one sweep (JSON)" \
            sharded --json "$n" --impl "$impl" --format bfloat16
    done
done
check "bfloat16 erf_as: 3 shards merged = one sweep (text)" sharded "" 3 --impl erf_as --format bfloat16
check "float16 sigmoid against gelu: 2 shards merged = one sweep (CSV)" \
    sharded --csv 2 --impl sigmoid --format float16 --reference gelu
for impl in erf tanh_factored; do
    for n in 1 2 3 4; do
        check "float32 $impl, stride:16384: N = $n shards merged = one sweep (JSON)" \
            sharded --json "$n" --impl "$impl" --format float32 --domain stride:16384
    done
done
# 2^32 / 2^18 = 16384 inputs: 4 chunks in 6 shards, two of them empty
check "float32 erfc: more shards than chunks, merged = one sweep" \
    sharded --json 6 --impl erfc --format float32 --domain stride:262144
check "float32 erf, MPFR oracle, a random sample: 3 shards merged = one sweep" \
    sharded --json 3 --impl erf --format float32 --domain random:20000:5 --oracle mpfr
# float64: 64-bit encodings in every field (inputs, outputs, keys, extents)
check "float64 erf_f64, a random sample and a range: 3 shards merged = one sweep (JSON)" \
    sharded --json 3 --impl erf_f64 --format float64 --domain random:30000:3,range:-40:10:20000
check "float64 tanh_f64 against gelu, MPFR oracle: 2 shards merged = one sweep (text)" \
    sharded "" 2 --impl tanh_f64 --format float64 --reference gelu --domain random:3000:9 \
    --oracle mpfr
# Two float64 file: domains that differ only in the high 32 bits of their
# encodings: the digest of a float64 list sees all 64.
float64_file_changed() {
    printf '0x4000000000000001\n0xc000000000000002\n' > "$tmp/f64list"
    "$GELU_ACC" sweep --impl erf_f64 --format float64 --domain "file:$tmp/f64list" \
        --shard 1/2 --partial "$tmp/f64a" || return 1
    "$GELU_ACC" sweep --impl erf_f64 --format float64 --domain "file:$tmp/f64list" \
        --shard 2/2 --partial "$tmp/f64b" || return 1
    "$GELU_ACC" merge "$tmp/f64a" "$tmp/f64b" > /dev/null || return 1
    printf '0x3ff0000000000001\n0xc000000000000002\n' > "$tmp/f64list"
    refused "is not what the shards measured" "$GELU_ACC" merge "$tmp/f64a" "$tmp/f64b"
}
check "float64 file: domain changed in the high bits of an encoding: merge refuses it" \
    float64_file_changed

# A plugin kernel that crashes on one input in every third batch of 30
# (tests/plugins/crashing.c: x in [2, 3)): the failing spans and counts of
# the shards merge to the sweep's, and the failure cap counts the failed
# batches of the slices before a checkpoint.
plugins=$GELU_ACC_PLUGIN_DIR
crash_args=(--kernel "$plugins/crashing.so:crashing_gelu_f32" --format float32
            --domain "file:$tmp/every3")
crash() {
    local status=0
    "$GELU_ACC" sweep "${crash_args[@]}" --json "$@" || status=$?
    [ $status -eq 1 ]   # the kernel failed, whatever the slicing
}
crash_sharded() {
    local k
    crash > "$tmp/one" || return 1
    for k in 1 2 3; do
        # a shard writes its state and exits 0: merge gives the verdict
        "$GELU_ACC" sweep "${crash_args[@]}" --shard $k/3 --partial "$tmp/crash$k" || return 1
    done
    "$GELU_ACC" merge --json "$tmp/crash3" "$tmp/crash1" "$tmp/crash2" > "$tmp/merged"
    [ $? -eq 1 ] && cmp "$tmp/one" "$tmp/merged"
}
crash_capped() {
    rm -f "$tmp/crash.ck"
    crash --max-failures 4 > "$tmp/one" || return 1
    crash --max-failures 4 --threads 1 --checkpoint "$tmp/crash.ck" --checkpoint-interval 1 \
        > "$tmp/sliced" || return 1
    cmp "$tmp/one" "$tmp/sliced"
}
if [ -d "$plugins" ]; then
    write_crash_every_third "$tmp/every3"
    check "a crashing plugin kernel: 3 shards merged = one sweep (failing spans, exit status 1)" \
        crash_sharded
    check "--max-failures 4 with checkpoints every second = one sweep" crash_capped
else
    echo "# plugins not built (GELU_ACC_PLUGIN_DIR): the plugin checks are left out"
fi

# Three shards of bfloat16 erf for the refusals below.
for k in 1 2 3; do
    "$GELU_ACC" sweep --impl erf --format bfloat16 --shard $k/3 --partial "$tmp/s$k"
done
"$GELU_ACC" sweep --impl erf --format bfloat16 --domain range:-4:4 --shard 2/3 --partial "$tmp/other_domain"
"$GELU_ACC" sweep --impl erf --format bfloat16 --oracle mpfr --shard 2/3 --partial "$tmp/other_oracle"
"$GELU_ACC" sweep --impl tanh --format bfloat16 --shard 2/3 --partial "$tmp/other_impl"
"$GELU_ACC" sweep --impl erf --format bfloat16 --shard 2/4 --partial "$tmp/other_count"
head -c 1000 "$tmp/s3" > "$tmp/cut"
echo hello > "$tmp/text"

check "merge refuses a missing shard, naming it" \
    refused "shard 2/3 is missing" "$GELU_ACC" merge $tmp/s1 $tmp/s3
check "merge names every missing shard" \
    refused "shards 1/3, 3/3 are missing" "$GELU_ACC" merge $tmp/s2
check "merge refuses a shard given twice, naming both files" \
    refused "shard 2/3 is given twice: $tmp/s2 and $tmp/s2" "$GELU_ACC" merge $tmp/s1 $tmp/s2 $tmp/s3 $tmp/s2
check "merge refuses another domain, naming the file and the field" \
    refused "$tmp/other_domain: not a shard of the same sweep as $tmp/s1: its domain is 'range:-4:4', not 'all'" "$GELU_ACC" merge $tmp/s1 $tmp/other_domain $tmp/s3
check "merge refuses another oracle" \
    refused "its oracle is 'mpfr', not 'fast'" "$GELU_ACC" merge $tmp/s1 $tmp/other_oracle $tmp/s3
check "merge refuses another implementation" \
    refused "its kernel is 'tanh', not 'erf'" "$GELU_ACC" merge $tmp/s1 $tmp/other_impl $tmp/s3
check "merge refuses another number of shards" \
    refused "cuts the domain in 3" "$GELU_ACC" merge $tmp/s1 $tmp/other_count $tmp/s3
check "merge refuses a truncated file, naming it" \
    refused "$tmp/cut: damaged or cut short" "$GELU_ACC" merge $tmp/s1 $tmp/s2 $tmp/cut
check "merge refuses a file that is not a partial" \
    refused "$tmp/text: not a partial file" "$GELU_ACC" merge $tmp/text
check "sweep --shard without --partial is refused" \
    refused "needs --partial" "$GELU_ACC" sweep --impl erf --format bfloat16 --shard 1/2
check "sweep --shard 0/2 is refused (shards count from 1)" \
    refused "1 <= K <= N" "$GELU_ACC" sweep --impl erf --format bfloat16 --shard 0/2 --partial $tmp/x
check "sweep --max-failures with --shard is refused" \
    refused "max-failures" "$GELU_ACC" sweep --impl erf --format bfloat16 --shard 1/2 --partial $tmp/x --max-failures 3

# Checkpoints.  A float32 sweep of a few seconds on one thread (the stride is
# made finer until the uninterrupted run takes 3 s, whatever the machine),
# saved every second, killed once a checkpoint exists; the same command
# resumes.
ck_args() { echo --impl erf --format float32 --domain stride:$stride --threads 1 --json; }
uninterrupted() { "$GELU_ACC" sweep $(ck_args) > "$tmp/uninterrupted"; }
stride_for_seconds 3000 uninterrupted  # its last run is the uninterrupted one
echo "# checkpoint tests on stride:$stride"
resume_after_kill() {
    killed_after_checkpoint "$tmp/ck" "$GELU_ACC" sweep $(ck_args) --checkpoint "$tmp/ck" \
        --checkpoint-interval 1 || return 1
    # the checkpoint is an unfinished shard 1/1: merge says so
    if "$GELU_ACC" merge "$tmp/ck" > /dev/null 2> "$tmp/merge_err" \
        || ! grep -q 'is unfinished' "$tmp/merge_err"; then
        echo "the checkpoint is not an unfinished shard:"; cat "$tmp/merge_err"; return 1
    fi
    "$GELU_ACC" sweep $(ck_args) --checkpoint "$tmp/ck" --checkpoint-interval 1 \
        > "$tmp/resumed" || return 1
    cmp "$tmp/uninterrupted" "$tmp/resumed" || return 1
    # and the finished checkpoint is the whole sweep as a partial
    "$GELU_ACC" merge --json "$tmp/ck" > "$tmp/from_ck" && cmp "$tmp/uninterrupted" "$tmp/from_ck"
}
check "float32 sweep killed after a checkpoint, resumed: the bytes of an uninterrupted run" \
    resume_after_kill
check "a checkpoint of another command is refused, naming the field" \
    refused "checkpoint $tmp/ck belongs to another command: its domain is 'stride:$stride', this command's 'stride:$((stride * 2))'" "$GELU_ACC" sweep --impl erf --format float32 --domain stride:$((stride * 2)) --checkpoint $tmp/ck
check "a checkpoint of another shard is refused" \
    refused "holds shard 1/1" "$GELU_ACC" sweep --impl erf --format float32 --domain stride:$stride --checkpoint $tmp/ck --shard 1/2 --partial $tmp/x
check "a finished checkpoint run again, with other --threads and --csv: the sweep's result" \
    bash -c "$GELU_ACC sweep --impl erf --format float32 --domain stride:$stride --threads 2 --csv --checkpoint $tmp/ck > $tmp/a && $GELU_ACC sweep --impl erf --format float32 --domain stride:$stride --csv > $tmp/b && cmp $tmp/a $tmp/b"
# Backward sweeps: chunks of 65536 pairs; the merge replays each chunk's
# sums in chunk order (5 chunks of bfloat16 pairs, 4 of float32 x, 2 of a
# float16 x range with dy = -3).
bw=(--backward --impl pytorch_gelu_backward_native --format bfloat16 --domain pairs:random:300000:2)
for n in 1 2 3 7; do
    check "backward bfloat16 pairs:random:300000: N = $n shards merged = one sweep (JSON)" \
        sharded --json "$n" "${bw[@]}"
done
check "backward float32 llmc, stride:16384: 4 shards merged = one sweep (text)" \
    sharded "" 4 --backward --impl llmc_gelu_backward --format float32 --domain stride:16384
check "backward float16 x range with dy = -3, against gelu_grad: 2 shards merged = one sweep" \
    sharded --json 2 --backward --impl megatron_bias_gelu_back --format float16 \
    --reference gelu_grad --domain range:-8:8:100000 --dy -3
for k in 1 2 3; do
    "$GELU_ACC" sweep "${bw[@]}" --shard "$k/3" --partial "$tmp/bw$k"
done
"$GELU_ACC" sweep --backward --impl pytorch_gelu_backward --format bfloat16 \
    --domain pairs:random:300000:2 --shard 2/3 --partial "$tmp/bw_other"
"$GELU_ACC" sweep "${bw[@]}" --shard 2/4 --partial "$tmp/bw_four"
check "backward: a missing shard is refused" \
    refused "shards are missing" "$GELU_ACC" merge "$tmp/bw1" "$tmp/bw3"
check "backward: a shard given twice is refused" \
    refused "a shard given twice" "$GELU_ACC" merge "$tmp/bw1" "$tmp/bw1" "$tmp/bw3"
check "backward: a shard of another kernel is refused, the field named" \
    refused "its kernel is 'pytorch_gelu_backward', not 'pytorch_gelu_backward_native'" \
    "$GELU_ACC" merge "$tmp/bw1" "$tmp/bw_other" "$tmp/bw3"
check "backward: a shard of another number of shards is refused" \
    refused "another number of shards" "$GELU_ACC" merge "$tmp/bw1" "$tmp/bw_four" "$tmp/bw3"
cut_short() {
    head -c 200 "$tmp/bw2" > "$tmp/bw_cut" &&
    refused "damaged or cut short" "$GELU_ACC" merge "$tmp/bw1" "$tmp/bw_cut" "$tmp/bw3"
}
check "backward: a file cut short is refused" cut_short
check "backward: --csv is refused (a backward sweep prints text or JSON)" \
    refused "text or --json" "$GELU_ACC" merge --csv "$tmp/bw1" "$tmp/bw2" "$tmp/bw3"
check "backward: --shard without --partial is refused" \
    refused "--shard needs --partial" "$GELU_ACC" sweep "${bw[@]}" --shard 1/2
# Backward checkpoints: float32 x with dy = 1, a few seconds on one thread.
bw_ck_args() { echo --backward --impl llmc_gelu_backward --format float32 --domain stride:$stride --threads ${1:-1} --json; }
bw_uninterrupted() { "$GELU_ACC" sweep $(bw_ck_args) > "$tmp/bw_uninterrupted"; }
stride_for_seconds 3000 bw_uninterrupted
echo "# backward checkpoint tests on stride:$stride"
bw_resume_after_kill() {
    killed_after_checkpoint "$tmp/bw_ck" "$GELU_ACC" sweep $(bw_ck_args) --checkpoint "$tmp/bw_ck" \
        --checkpoint-interval 1 || return 1
    if "$GELU_ACC" merge "$tmp/bw_ck" > /dev/null 2> "$tmp/merge_err" \
        || ! grep -q 'an unfinished shard' "$tmp/merge_err"; then
        echo "the checkpoint is not an unfinished shard:"; cat "$tmp/merge_err"; return 1
    fi
    "$GELU_ACC" sweep $(bw_ck_args 2) --checkpoint "$tmp/bw_ck" > "$tmp/bw_resumed" || return 1
    cmp "$tmp/bw_uninterrupted" "$tmp/bw_resumed" || return 1
    "$GELU_ACC" merge --json "$tmp/bw_ck" > "$tmp/bw_from_ck" && cmp "$tmp/bw_uninterrupted" "$tmp/bw_from_ck"
}
check "backward sweep killed after a checkpoint, resumed on 2 threads: the bytes of an uninterrupted run" \
    bw_resume_after_kill
check "backward: a checkpoint of another command is refused, naming the field" \
    refused "checkpoint $tmp/bw_ck belongs to another command: its dy is '0x3f800000', this command's '0x40000000'" "$GELU_ACC" sweep $(bw_ck_args) --dy 2 \
    --checkpoint "$tmp/bw_ck"
check "backward: a checkpoint of another shard is refused" \
    refused "it holds shard 1/1, this command measures shard 1/2" "$GELU_ACC" sweep $(bw_ck_args) --checkpoint "$tmp/bw_ck" \
    --shard 1/2 --partial "$tmp/x"
check "--checkpoint-interval without --checkpoint is refused" \
    refused "needs --checkpoint" "$GELU_ACC" sweep --impl erf --format bfloat16 --checkpoint-interval 5
finish
