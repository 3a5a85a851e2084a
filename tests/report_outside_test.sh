#!/bin/bash
# gelu-acc report --real-outputs: rows of libraries run elsewhere, graded
# from the files a manifest names.  Each row must say exactly what
# 'gelu-acc grade' says of the same files (a second path through the
# program), refusals are listed, and a manifest that does not hold is
# refused before anything is measured.
. "${top_srcdir:-.}/tests/tap.sh"

# (--no-backward: the backward sections are report_backward_test's; here
# they would take two thirds of each report's time)
mkdir -p "$tmp/ort"
"$GELU_ACC" inputs --format float16 -o "$tmp/ort/in16.npy" >/dev/null
# Some kernel: x/2 in float16 (its figures come from grade, not from here).
"$PYTHON" -c "
import numpy as np
x = np.load('$tmp/ort/in16.npy')
np.save('$tmp/ort/half16.npy', (x / np.float16(2)).astype(np.float16))"

manifest() {  # manifest DOMAIN: the manifest with the graded section on DOMAIN
    cat > "$tmp/ort/manifest" <<EOF
# made by hand for this test
[half-f16]
library = somelib
version = 0.1
operator = Half (not GELU at all)
format = float16
reference = gelu_tanh
kernel = outputs:half16.npy
inputs = in16.npy
domain = $1
graph = Div
cpu = Some CPU 9000, rev. 2
isa = avx avx2 fma

[half-f16-len1]
library = somelib
version = 0.1
operator = Half (not GELU at all)
format = float16
reference = gelu
kernel = outputs:half16.npy
inputs = in16.npy
domain = $1
path = one element per run
lengths = (not checked: a length row)

[refused-bf16]
library = somelib
version = 0.1
operator = Half
format = bfloat16
reference = gelu
unsupported = no bfloat16 kernel in this library
EOF
}
manifest all

check "report with --real-outputs" \
    "$GELU_ACC" report --out "$tmp/r" --formats float16,bfloat16 --no-backward --real-outputs "$tmp/ort/manifest"
for ref in gelu gelu_tanh; do
    (cd "$tmp/ort" && "$GELU_ACC" grade --format float16 --inputs in16.npy --outputs half16.npy \
        --reference $ref --name half-f16 --json > "$tmp/grade-$ref.json")
    check "the report's half-f16 row against $ref is what grade says of the same files" \
        "$PYTHON" -c "
import json
rows = [r for r in json.load(open('$tmp/r/float16-real.json'))
        if r['impl'] == 'half-f16' and r['reference'] == '$ref']
[g] = json.load(open('$tmp/grade-$ref.json'))
assert len(rows) == 1, rows
r = rows[0]
assert r['domain'] == 'all', r['domain']
# where and how, as the manifest says (grade names no machine)
machine = {'cpu': 'Some CPU 9000, rev. 2', 'isa': 'avx avx2 fma', 'library': 'somelib',
           'version': '0.1', 'call': 'Half (not GELU at all)', 'path': 'Div'}
assert {k: r.pop(k) for k in machine} == machine
assert not set(machine) & set(g), g.keys()
for k in ('models', 'formula', 'computes', 'domain', 'approximates'):
    r.pop(k); g.pop(k)
assert r == g, [(k, r.get(k), g.get(k)) for k in set(r) | set(g) if r.get(k) != g.get(k)]
"
done
check "the CSV row graded from files names the manifest's CPU, quoted where it holds a comma" \
    grep -q '^half-f16,float16,gelu_tanh,all,.*,"Some CPU 9000, rev. 2",avx avx2 fma,somelib,0.1,Half (not GELU at all),Div,,$' "$tmp/r/float16-real.csv"
check "a manifest's path follows the operator in the row's call, its lengths go to the row's lengths key" \
    "$PYTHON" -c "
import json
rows = {r['impl']: r for r in json.load(open('$tmp/r/float16-real.json'))}
r = rows['half-f16-len1']
assert r['call'] == 'Half (not GELU at all); one element per run', r['call']
assert r['lengths'] == '(not checked: a length row)', r.get('lengths')
assert 'lengths' not in rows['half-f16'], rows['half-f16']
"
check "the page says what ran and where it came from" \
    grep -q '^| `half-f16` | somelib 0.1: Half (not GELU at all), run outside gelu-acc; graph as run: Div |' "$tmp/r/float16.md"
check "the machine line names the library graded from files" \
    grep -q 'run elsewhere and graded from files: somelib 0.1' "$tmp/r/float16.md"
check "the bfloat16 page lists the refusal" \
    grep -q '^- `refused-bf16`: somelib 0.1, Half: no bfloat16 kernel in this library$' "$tmp/r/bfloat16.md"
check "the HTML page has the row" grep -q '<code>half-f16</code>' "$tmp/r/float16.html"

manifest stride:2
check "inputs that are not the stated domain are refused (exit 2)" \
    expect_status 2 "$GELU_ACC" report --out "$tmp/r2" --formats float16 --real-outputs "$tmp/ort/manifest"
check "... saying which section, how many inputs and the domain's size" \
    stderr_has "section [half-f16] of the real outputs: $tmp/ort/in16.npy holds 65536 inputs, its domain 'stride:2' has 32768"

manifest all
sed -i 's/^graph = Div$/graph = Div\ncolour = red/' "$tmp/ort/manifest"
check "a malformed manifest is refused before anything is measured (exit 2)" \
    expect_status 2 "$GELU_ACC" report --out "$tmp/r3" --formats float16 --real-outputs "$tmp/ort/manifest"
check "... with its file, line and reason" \
    stderr_has "report: --real-outputs $tmp/ort/manifest:12: unknown key 'colour'"
check "... and no report directory is made" test ! -e "$tmp/r3"

# Shards: each grades its share of every section's inputs; merged, the
# directory of one report.  A shard graded from another manifest (another
# library version) is not a shard of the same report.
manifest all
outside_sharded() {
    local n=$1 files=() k
    for ((k = n; k >= 1; k--)); do
        "$GELU_ACC" report --formats float16,bfloat16 --no-backward --real-outputs "$tmp/ort/manifest" \
            --shard "$k/$n" --partial "$tmp/os$k" || return 1
        files+=("$tmp/os$k")
    done
    rm -rf "$tmp/merged$n"
    "$GELU_ACC" merge --out "$tmp/merged$n" "${files[@]}" > /dev/null || return 1
    diff -r "$tmp/r" "$tmp/merged$n"
}
check "--real-outputs: 1 shard merged = one report, every file" outside_sharded 1
check "--real-outputs: 3 shards merged = one report, every file" outside_sharded 3
other_manifest() {
    sed 's/^version = 0.1$/version = 0.2/' "$tmp/ort/manifest" > "$tmp/ort/manifest2"
    "$GELU_ACC" report --formats float16,bfloat16 --no-backward --real-outputs "$tmp/ort/manifest2" \
        --shard 2/3 --partial "$tmp/os_other" || return 1
    expect_status 2 "$GELU_ACC" merge --out "$tmp/x" "$tmp/os1" "$tmp/os_other" "$tmp/os3" &&
        stderr_has "not a shard of the same report"
}
check "a shard graded from another manifest is refused" other_manifest

manifest all
rm "$tmp/ort/half16.npy"
check "a missing outputs file is refused (exit 2)" \
    expect_status 2 "$GELU_ACC" report --out "$tmp/r4" --formats float16 --real-outputs "$tmp/ort/manifest"
check "... naming the section and the file" stderr_has "section [half-f16] of the real outputs: $tmp/ort/half16.npy"
finish
