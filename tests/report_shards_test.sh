#!/bin/bash
# Report shards: 'report --shard K/N --partial FILE' for K = 1..N, merged
# by 'merge --out DIR', writes the directory one report writes, byte for
# byte: pages (Markdown, CSV, JSON, HTML), plots, facts, index and marker;
# for the 16-bit formats (every input), float32 and float64 on samples.  Sets that
# are not one report are refused.
. "${top_srcdir:-.}/tests/tap.sh"

# The backward sections on small samples (bfloat16's large enough for the
# tabled path of 2^20 pairs and more, float16's per pair).
backward=(--bfloat16-backward-domain pairs:random:1048576:1
          --float16-backward-domain pairs:random:65536:1 --float32-backward-domain stride:1048576)
formats=bfloat16,float16,float32,float64
# Under the sanitizers (CI's distcheck) without float16, whose page takes
# the paths of bfloat16's but its backward section's, which report_backward_test
# and report_outside_test shard and merge there; make check keeps all four.
case " ${GELU_ACC_BUILD_FLAGS:-} " in
*-fsanitize=*) formats=bfloat16,float32,float64 ;;
esac
args=(--formats $formats --float32-domain stride:65536
      --float64-domain random:20000:1,range:-40:10:20000 "${backward[@]}")
"$GELU_ACC" report --out "$tmp/one" "${args[@]}" > /dev/null 2>&1

# sharded N: N shards (in reverse order) merged = the one-process directory
sharded() {
    local n=$1 files=() k
    for ((k = n; k >= 1; k--)); do
        "$GELU_ACC" report "${args[@]}" --shard "$k/$n" --partial "$tmp/r$k" || return 1
        files+=("$tmp/r$k")
    done
    rm -rf "$tmp/merged$n"
    "$GELU_ACC" merge --out "$tmp/merged$n" "${files[@]}" > /dev/null || return 1
    diff -r "$tmp/one" "$tmp/merged$n"
}
check "the one-process report wrote its pages" \
    test -s "$tmp/one/float32.md" -a -s "$tmp/one/bfloat16.html" -a -s "$tmp/one/float64.md"
check "$formats (float32 stride:65536, float64 sampled): 1 shard merged = one report, every file" \
    sharded 1
check "3 shards merged = one report, every file (pages, CSV, JSON, HTML, plots)" sharded 3

refused() {
    local text=$1
    shift
    expect_status 2 "$@" && stderr_has "$text"
}
check "a missing shard is refused" \
    refused "shard 2/3 is missing (1 of 3)" "$GELU_ACC" merge --out "$tmp/x1" "$tmp/r1" "$tmp/r3"
check "a shard given twice is refused" \
    refused "a shard given twice" "$GELU_ACC" merge --out "$tmp/x2" "$tmp/r1" "$tmp/r1" "$tmp/r3"
other() {
    "$GELU_ACC" report --formats "${formats%,float64}" --float32-domain stride:131072 \
        "${backward[@]}" --shard 2/3 --partial "$tmp/other" &&
    refused "not a shard of the same report" "$GELU_ACC" merge --out "$tmp/x3" "$tmp/r1" \
        "$tmp/other" "$tmp/r3"
}
check "a shard of another report (float32 domain) is refused" other
other_backward() {
    # an option is given once: the other value replaces the one in args
    "$GELU_ACC" report "${args[@]/stride:1048576/stride:65536}" --shard 2/3 \
        --partial "$tmp/other_backward" &&
    refused "not a shard of the same report" "$GELU_ACC" merge --out "$tmp/x7" "$tmp/r1" \
        "$tmp/other_backward" "$tmp/r3"
}
check "a shard with other backward options is refused" other_backward
other_float64() {
    "$GELU_ACC" report "${args[@]/random:20000:1,/random:20000:2,}" --shard 2/3 \
        --partial "$tmp/other_float64" &&
    refused "not a shard of the same report" "$GELU_ACC" merge --out "$tmp/x8" "$tmp/r1" \
        "$tmp/other_float64" "$tmp/r3"
}
check "a shard of another float64 domain is refused" other_float64
check "a shard's backward options reach the merged pages" \
    grep -q 'stride:1048576' "$tmp/merged3/float32-backward.json"
check "a sweep's partial is not a report's" \
    refused "not a report partial file" "$GELU_ACC" merge --out "$tmp/x4" "$tmp/one/float32.md"
check "--shard without --partial is refused" \
    refused "--shard needs --partial" "$GELU_ACC" report --out "$tmp/x5" --shard 1/2
check "merge --out refuses --json" \
    refused "do not apply" "$GELU_ACC" merge --json --out "$tmp/x6" "$tmp/r1"
finish
