#!/bin/bash
# MPI (configure --with-mpi): 'mpirun -n P gelu-acc sweep' prints on rank 0
# what one process prints, and 'report' writes the directory one process
# writes, byte for byte, for P = 2 and 3 over loopback; an error on one rank
# stops them all with a message instead of a hang.
# Skipped when gelu-acc was built without MPI (GELU_ACC_MPIRUN empty).
. "${top_srcdir:-.}/tests/tap.sh"

if [ -z "${GELU_ACC_MPIRUN:-}" ]; then
    echo "1..0 # SKIP gelu-acc built without MPI (./configure --with-mpi)"
    exit 0
fi
# As root OpenMPI refuses to start without these; --oversubscribe lets 3
# ranks run on fewer cores; loopback only, no network.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_plm_rsh_agent=false
mpi() {
    local n=$1
    shift
    timeout 300 "$GELU_ACC_MPIRUN" -n "$n" --oversubscribe "$GELU_ACC" "$@"
}

# ranks N ARGS...: mpirun -n N prints what one process prints.
ranks() {
    local n=$1
    shift
    "$GELU_ACC" "$@" > "$tmp/one" || return 1
    mpi "$n" "$@" > "$tmp/ranks" || return 1
    cmp "$tmp/one" "$tmp/ranks"
}

for n in 2 3; do
    check "float32 erf, stride:65536, $n ranks = one process (JSON)" \
        ranks "$n" sweep --impl erf --format float32 --domain stride:65536 --json --threads 1
    check "float32 tanh against gelu_tanh, a random sample, MPFR oracle, $n ranks = one process (text)" \
        ranks "$n" sweep --impl tanh --format float32 --reference gelu_tanh \
        --domain random:3000:7 --oracle mpfr --threads 1
    check "bfloat16 quick, every input, $n ranks = one process (CSV)" \
        ranks "$n" sweep --impl quick --format bfloat16 --csv --threads 1
done
# 2^32 / 2^20 = 4096 inputs: one chunk, so two of three ranks have none
check "float32 erfc, one chunk over 3 ranks = one process" \
    ranks 3 sweep --impl erfc --format float32 --domain stride:1048576 --json

# report: rank 0 writes the directory one process writes, byte for byte
report_ranks() {
    local n=$1
    shift
    [ -d "$tmp/report_one" ] || "$GELU_ACC" report --out "$tmp/report_one" "$@" > /dev/null ||
        return 1
    mpi "$n" report --out "$tmp/report$n" "$@" --threads 1 > /dev/null || return 1
    diff -r "$tmp/report_one" "$tmp/report$n"
}
for n in 2 3; do
    check "report of bfloat16, float16, float32 stride:65536 over $n ranks = one process" \
        report_ranks "$n" --formats bfloat16,float16,float32 --float32-domain stride:65536 \
        --bfloat16-backward-domain pairs:random:1048576:1 \
        --float16-backward-domain pairs:random:65536:1 --float32-backward-domain stride:1048576
done

report_ranks64() {
    local n=$1 args=(--formats float64 --float64-domain random:20000:1,range:-40:10:20000)
    "$GELU_ACC" report --out "$tmp/report64_one" "${args[@]}" > /dev/null || return 1
    mpi "$n" report --out "$tmp/report64_$n" "${args[@]}" --threads 1 > /dev/null || return 1
    diff -r "$tmp/report64_one" "$tmp/report64_$n"
}

# --real-outputs under mpirun: every rank grades its share of the section's
# inputs (outputs of x/2, graded against gelu and gelu_tanh).
outside_ranks() {
    mkdir -p "$tmp/ort"
    "$GELU_ACC" inputs --format float16 -o "$tmp/ort/in16.npy" > /dev/null || return 1
    "$PYTHON" -c "
import numpy as np
x = np.load('$tmp/ort/in16.npy')
np.save('$tmp/ort/half16.npy', (x / np.float16(2)).astype(np.float16))" || return 1
    printf '%s\n' '[half-f16]' 'library = somelib' 'version = 0.1' 'operator = Half' \
        'format = float16' 'reference = gelu_tanh' 'kernel = outputs:half16.npy' \
        'inputs = in16.npy' 'domain = all' > "$tmp/ort/manifest"
    local args=(--formats float16 --no-backward --real-outputs "$tmp/ort/manifest")
    "$GELU_ACC" report --out "$tmp/outside_one" "${args[@]}" > /dev/null || return 1
    grep -q half-f16 "$tmp/outside_one/float16-real.csv" || return 1
    mpi 3 report --out "$tmp/outside_3" "${args[@]}" --threads 1 > /dev/null || return 1
    diff -r "$tmp/outside_one" "$tmp/outside_3"
}
check "report with --real-outputs over 3 ranks = one process" outside_ranks

# --partial under mpirun: rank 0 writes the merged partial, shard 1/1, which
# merge prints as the sweep does.
partial_written() {
    mpi 3 sweep --impl erf --format float16 --domain range:-4:4 --partial "$tmp/mpi.part" \
        > "$tmp/out" || return 1
    [ ! -s "$tmp/out" ] || { echo "something printed:"; cat "$tmp/out"; return 1; }
    "$GELU_ACC" merge --json "$tmp/mpi.part" > "$tmp/merged" || return 1
    "$GELU_ACC" sweep --impl erf --format float16 --domain range:-4:4 --json > "$tmp/one" ||
        return 1
    cmp "$tmp/one" "$tmp/merged"
}
check "--partial under 3 ranks: one merged partial, merge prints the sweep" partial_written

# --checkpoint under mpirun: one file per rank, and a second run resumes
# from them to the same bytes.
checkpoints() {
    local args=(sweep --impl erf --format float32 --domain stride:65536 --threads 1)
    mpi 2 "${args[@]}" --checkpoint "$tmp/ck" > "$tmp/first" || return 1
    [ -f "$tmp/ck.1-of-2" ] && [ -f "$tmp/ck.2-of-2" ] || { ls "$tmp"; return 1; }
    mpi 2 "${args[@]}" --checkpoint "$tmp/ck" > "$tmp/again" || return 1
    "$GELU_ACC" "${args[@]}" > "$tmp/one" || return 1
    cmp "$tmp/one" "$tmp/first" && cmp "$tmp/one" "$tmp/again"
}
check "--checkpoint under 2 ranks: FILE.K-of-P per rank, resumed to the same bytes" checkpoints

# A file: domain that only rank 1 cannot read would leave rank 0 waiting
# for it forever; the error stops every rank instead (status 2, the rank
# and its message named).
one_rank_fails() {
    local status=0
    printf '3f800000\n40000000\n' > "$tmp/inputs"
    # the checkpoint of rank 2 belongs to another domain: only that rank fails
    "$GELU_ACC" sweep --impl erf --format float32 --domain stride:1048576 \
        --checkpoint "$tmp/bad.2-of-2" --shard 2/2 --partial "$tmp/unused" >/dev/null || return 1
    mpi 2 sweep --impl erf --format float32 --domain stride:65536 --checkpoint "$tmp/bad" \
        > "$tmp/out" 2> "$tmp/err" || status=$?
    [ "$status" -eq 2 ] || { echo "exit status $status"; cat "$tmp/err"; return 1; }
    grep -qF "rank 1 of 2: sweep: checkpoint $tmp/bad.2-of-2 belongs to another command" \
        "$tmp/err" || { cat "$tmp/err"; return 1; }
    [ ! -s "$tmp/out" ]
}
check "an error on one rank stops every rank with its message (no hang)" one_rank_fails
check "--shard is refused under mpirun" \
    expect_status 2 mpi 2 sweep --impl erf --format bfloat16 --shard 1/2 --partial "$tmp/p"
check "a command that does not run over ranks is refused" \
    expect_status 2 mpi 2 truth --format float32 1
check "report --partial is refused under mpirun" \
    expect_status 2 mpi 2 report --formats bfloat16 --partial "$tmp/p"
check "sweep --input-format runs as one process: refused under mpirun" \
    bash -c "$(declare -f expect_status stderr_has mpi); tmp=$tmp; GELU_ACC=$GELU_ACC; GELU_ACC_MPIRUN=$GELU_ACC_MPIRUN;
             expect_status 2 mpi 2 sweep --format float8_e4m3fn --input-format bfloat16 && stderr_has '--input-format runs as one process'"
# Backward sweeps: chunks of 65536 pairs over the ranks, each chunk's sums
# replayed in order on rank 0 (5 chunks of bfloat16 pairs, 4 of float32 x).
for n in 2 3; do
    check "sweep --backward bfloat16 pairs:random:300000, $n ranks = one process (JSON)" \
        ranks "$n" sweep --backward --impl pytorch_gelu_backward_native --format bfloat16 \
        --domain pairs:random:300000:2 --json --threads 1
    check "sweep --backward float32 stride:16384 with dy = 1, $n ranks = one process (text)" \
        ranks "$n" sweep --backward --impl llmc_gelu_backward --format float32 \
        --domain stride:16384 --threads 1
done
for n in 2 3; do
    check "float64 erf_f64, a random sample, $n ranks = one process (JSON)" \
        ranks "$n" sweep --impl erf_f64 --format float64 --domain random:30000:4 --json \
        --threads 1
done
check "report of float64 (a sample) over 2 ranks = one process" \
    report_ranks64 2
finish
