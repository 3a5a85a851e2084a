#!/bin/bash
# gelu-acc audit: the MPFR-only oracle against the fast one.  The counts are
# those of the domain; shards merged, MPI ranks and a run killed (SIGKILL)
# after a checkpoint and resumed all give the uninterrupted run's result
# (all but its CPU time); disagreements, forged into state files, are merged
# in domain order and make the exit status 3; bad input is refused.
. "${top_srcdir:-.}/tests/tap.sh"

# without the CPU-time line, the one line that changes from run to run
nocpu() { grep -v '^cpu: ' "$1"; }
same() { cmp <(nocpu "$1") <(nocpu "$2"); }

# counts: every input of the domain audited, none disagreeing
counts() {
    "$GELU_ACC" audit "$@" > "$tmp/out" || return 1
    grep -qx "audit: $want" "$tmp/out" || { cat "$tmp/out"; return 1; }
}
want="gelu in bfloat16, domain all: 65536 inputs, 0 disagreements"
check "bfloat16 gelu, every input: 65536 audited, no disagreement" counts --format bfloat16 --domain all
want="gelu_tanh in float16, domain range:-8:8: $(( (0x4800 + 1) * 2 )) inputs, 0 disagreements"
check "float16 gelu_tanh on [-8, 8]: every encoding of the range audited" \
    counts --format float16 --function gelu_tanh --domain range:-8:8
want="gelu in float32, domain random:30000:3: 30000 inputs, 0 disagreements"
check "float32 gelu, a random sample: 30000 audited" counts --domain random:30000:3

# the page: written, and rewritten by a rerun; a foreign file is not replaced
page() {
    "$GELU_ACC" audit --format bfloat16 --domain range:-1:1 --out "$tmp/audit.md" > /dev/null &&
    "$GELU_ACC" audit --format bfloat16 --domain range:-1:1 --out "$tmp/audit.md" > /dev/null &&
    grep -qx '# Oracle audit: gelu in bfloat16' "$tmp/audit.md" &&
    grep -qx '| disagreements | 0 |' "$tmp/audit.md" &&
    grep -q '^| CPU time | .* inputs/s per core |$' "$tmp/audit.md" &&
    grep -qx 'No disagreement.' "$tmp/audit.md" || { cat "$tmp/audit.md"; return 1; }
    echo notes > "$tmp/notes.md"
    expect_status 2 "$GELU_ACC" audit --format bfloat16 --out "$tmp/notes.md" &&
        stderr_has "is not a page of gelu-acc audit" && [ "$(cat "$tmp/notes.md")" = notes ]
}
check "--out writes the page, rewrites its own, keeps a foreign file" page

# shards: N state files merged = one run
sharded() {
    local n=$1 files=() k
    shift
    "$GELU_ACC" audit "$@" > "$tmp/one" || return 1
    for ((k = n; k >= 1; k--)); do
        "$GELU_ACC" audit "$@" --shard "$k/$n" --partial "$tmp/a$k" || return 1
        files+=("$tmp/a$k")
    done
    "$GELU_ACC" audit --merge "${files[@]}" > "$tmp/merged" || return 1
    same "$tmp/one" "$tmp/merged"
}
check "float32 gelu_tanh stride:65536, 3 shards merged = one run" \
    sharded 3 --function gelu_tanh --domain stride:65536
check "bfloat16 gelu, 5 shards merged = one run" sharded 5 --format bfloat16 --domain all
# the derivatives' state files too (written but refused on reading once)
derivative_shards() {
    sharded 2 --function gelu_grad --domain stride:65536 &&
        sharded 2 --function gelu_tanh_grad --domain stride:65536
}
check "float32 gelu_grad and gelu_tanh_grad stride:65536, 2 shards merged = one run" \
    derivative_shards
refused_merge() {
    "$GELU_ACC" audit --domain stride:1048576 --shard 1/2 --partial "$tmp/s1" &&
    "$GELU_ACC" audit --domain stride:524288 --shard 2/2 --partial "$tmp/s2" &&
    expect_status 2 "$GELU_ACC" audit --merge "$tmp/s1" "$tmp/s2" &&
        stderr_has "$tmp/s2: another audit" &&
    expect_status 2 "$GELU_ACC" audit --merge "$tmp/s1" && stderr_has "shard 2/2 is missing (1 of 2)" &&
    expect_status 2 "$GELU_ACC" audit --merge "$tmp/s1" "$tmp/s1" &&
        stderr_has "a shard given twice" &&
    head -c 100 "$tmp/s1" > "$tmp/cut" &&
    expect_status 2 "$GELU_ACC" audit --merge "$tmp/cut" && stderr_has "damaged or cut short"
}
check "merge refuses another audit, a missing or repeated shard, a cut file" refused_merge

# Disagreements cannot be provoked in a correct program: forge the states of
# two shards with some, as the format (doc/audit.md) lays them out, and check
# that merge lists them in domain order, counts them all, exits with 3.
forged() {
    local version
    version=$("$GELU_ACC" --version | sed 's/.* //')
    # shard 1 of 2 of bfloat16 'all' (16 chunks): chunks 0-7, shard 2: 8-15
    "$PYTHON" - "$tmp" "$version" <<'PY' || return 1
import struct, sys
tmp, version = sys.argv[1], sys.argv[2]
def fnv(b):
    h = 0xcbf29ce484222325
    for c in b:
        h = ((h ^ c) * 0x100000001b3) & 0xffffffffffffffff
    return h
def s(t):
    return struct.pack('<I', len(t)) + t.encode()
def state(k, first, end, found):
    b = b'gelu-acc audit 1' + struct.pack('<I', 1)
    b += s('gelu-accuracy ' + version) + s('gelu') + s('bfloat16') + s('all')
    b += struct.pack('<QQIIQQQQQd', 65536, 0, k, 2, first, end, end,
                     (end - first) * 4096, len(found), 1.5)
    b += struct.pack('<I', len(found))
    for index, mpfr, fast, kind in found:
        b += struct.pack('<QIIIbbB', index, index, mpfr, fast, 1, -1, kind)
    return b + struct.pack('<Q', fnv(b))
open(tmp + '/f1', 'wb').write(state(1, 0, 8, [(0x3f80, 0x3f2b, 0x3f2c, 0), (0x3fc0, 0, 0x3fa0, 1)]))
open(tmp + '/f2', 'wb').write(state(2, 8, 16, [(0xc000, 0xbd00, 0xbd01, 0)]))
PY
    expect_status 3 "$GELU_ACC" audit --merge "$tmp/f2" "$tmp/f1" --out "$tmp/f.md" || return 1
    stderr_has "the oracles disagree on 3 inputs" || return 1
    grep -qx 'audit: gelu in bfloat16, domain all: 65536 inputs, 3 disagreements' "$tmp/out" &&
    [ "$(grep -c '^[0-9]' "$tmp/out")" -eq 3 ] &&
    grep -A3 '^index' "$tmp/out" | sed -n 2p | grep -q '^16256 0x3f80 1 0x3f2b (+1) 0x3f2c (-1) different$' &&
    grep -A3 '^index' "$tmp/out" | sed -n 3p | grep -q '^16320 0x3fc0 1.5 0x0000 (+1) 0x3fa0 (-1) MPFR undecided$' &&
    grep -A3 '^index' "$tmp/out" | sed -n 4p | grep -q '^49152 0xc000 -2 ' &&
    grep -qx '| disagreements | 3 |' "$tmp/f.md" || { cat "$tmp/out" "$tmp/f.md"; return 1; }
}
check "forged disagreements: merged in domain order, all counted, exit status 3" forged

# Checkpoints: a float32 audit of a few seconds on one thread, saved once a
# second, killed once a checkpoint exists; the same command resumes.
ck_args() { echo --domain stride:$stride --threads 1; }
uninterrupted() { "$GELU_ACC" audit $(ck_args) > "$tmp/uninterrupted"; }
stride_for_seconds 3000 uninterrupted  # its last run is the uninterrupted one
echo "# checkpoint tests on stride:$stride"
resume_after_kill() {
    killed_after_checkpoint "$tmp/ck" "$GELU_ACC" audit $(ck_args) --checkpoint "$tmp/ck" \
        --checkpoint-interval 1 || return 1
    # the checkpoint is an unfinished shard: merge says so
    expect_status 2 "$GELU_ACC" audit --merge "$tmp/ck" && stderr_has "an unfinished shard" ||
        return 1
    "$GELU_ACC" audit $(ck_args) --checkpoint "$tmp/ck" > "$tmp/resumed" || return 1
    same "$tmp/uninterrupted" "$tmp/resumed"
}
check "float32 audit killed after a checkpoint, resumed: the uninterrupted result" \
    resume_after_kill
check "a checkpoint of another audit is refused" \
    expect_status 2 "$GELU_ACC" audit --domain stride:$((stride * 2)) --checkpoint "$tmp/ck"

check "the derivatives' fast path: every bfloat16 input, 0 disagreements" \
    bash -c "'$GELU_ACC' audit --function gelu_grad --format bfloat16 --domain all > '$tmp/grad' &&
             '$GELU_ACC' audit --function gelu_tanh_grad --format bfloat16 --domain all >> '$tmp/grad' &&
             [ \$(grep -c ': 65536 inputs, 0 disagreements' '$tmp/grad') = 2 ]"
check "a function without a fast path in the format is refused" \
    expect_status 2 "$GELU_ACC" audit --function gelu_grad --format float64 --domain random:10
check "--shard without --partial is refused" expect_status 2 "$GELU_ACC" audit --shard 1/2

# under mpirun (configure --with-mpi): 2 and 3 ranks = one process
if [ -n "${GELU_ACC_MPIRUN:-}" ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    export OMPI_MCA_btl=self,vader OMPI_MCA_plm_rsh_agent=false
    ranks() {
        "$GELU_ACC" audit --domain stride:65536 > "$tmp/one" &&
        timeout 300 "$GELU_ACC_MPIRUN" -n "$1" --oversubscribe "$GELU_ACC" audit \
            --domain stride:65536 --threads 1 > "$tmp/ranks" && same "$tmp/one" "$tmp/ranks"
    }
    check "mpirun -n 2 audit = one process" ranks 2
    check "mpirun -n 3 audit = one process" ranks 3
fi
finish
