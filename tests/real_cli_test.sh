#!/bin/bash
# The real libraries' tier on the command line: list shows it apart from the
# models, sweep measures a real implementation, and a module that is missing
# or a format the library refuses is a clear error with exit status 2.
. "${top_srcdir:-.}/tests/tap.sh"

check "list shows the models, the glibc version and the real tier" \
    bash -c "'$GELU_ACC' list > '$tmp/list' &&
             grep -q '^Models' '$tmp/list' &&
             grep -q 'glibc [0-9]' '$tmp/list' &&
             grep -q '^Real libraries' '$tmp/list' &&
             grep -q '^torch_erf ' '$tmp/list' && grep -q '^eigen_tanh ' '$tmp/list'"

check "without modules, list says each one is not there" \
    bash -c "GELU_ACC_REAL_DIR='$tmp/none' '$GELU_ACC' list | grep -q 'not available: .torch_erf. needs'"
check "without modules, sweep of a real name fails with status 2" \
    bash -c "GELU_ACC_REAL_DIR='$tmp/none' '$GELU_ACC' sweep --impl sleef_erf_u10 --format bfloat16 2>'$tmp/err';
             [ \$? -eq 2 ] && grep -q 'needs the SLEEF module' '$tmp/err'"

check "without modules, a real backward kernel fails with status 2" \
    bash -c "GELU_ACC_REAL_DIR='$tmp/none' '$GELU_ACC' sweep --backward --impl torch_erf_backward \
                 --format bfloat16 --domain pairs:random:10 2>'$tmp/err';
             [ \$? -eq 2 ] && grep -q 'needs the PyTorch (libtorch) module' '$tmp/err'"
check "list --backward shows the real backward kernels after the models" \
    bash -c "'$GELU_ACC' list --backward > '$tmp/listb' &&
             grep -q '^Real libraries. backward kernels' '$tmp/listb' &&
             grep -q '^torch_erf_backward ' '$tmp/listb' && grep -q '^dnnl_tanh_backward ' '$tmp/listb'"

if have torch; then
    check "float16 GELU refused by libtorch 1.13: status 2, in its words" \
        bash -c "'$GELU_ACC' sweep --impl torch_erf --format float16 2>'$tmp/err';
                 [ \$? -eq 2 ] && grep -q 'not implemented for' '$tmp/err'"
    check "float16 GELU backward refused by libtorch 1.13: status 2, in its words" \
        bash -c "'$GELU_ACC' sweep --backward --impl torch_erf_backward --format float16 \
                     --domain pairs:random:10 2>'$tmp/err';
                 [ \$? -eq 2 ] && grep -q 'not implemented for' '$tmp/err'"
    # real_backward_test proves the equality bit for bit; here the sweep of
    # the real kernel must print what the model's prints, name aside.
    check "sweep --backward of torch_strided_erf_backward = its model's, in bfloat16" \
        bash -c "'$GELU_ACC' sweep --backward --impl torch_strided_erf_backward --format bfloat16 \
                     --domain pairs:random:20000:5 | sed 1d > '$tmp/real.txt' &&
                 '$GELU_ACC' sweep --backward --impl pytorch_gelu_backward_native --format bfloat16 \
                     --domain pairs:random:20000:5 | sed 1d > '$tmp/model.txt' &&
                 grep -q 'correctly rounded' '$tmp/real.txt' && cmp '$tmp/real.txt' '$tmp/model.txt'"
    # The default bfloat16 path is one of two, by CPU: both figures are
    # known (erf_torch_bf16 and erf_dnnl, which real_models_test proves).
    check "torch_erf in bfloat16 measures like a catalogue entry" \
        bash -c "'$GELU_ACC' sweep --impl torch_erf --format bfloat16 --json > '$tmp/t.json' &&
                 python3 -c \"
import json
r = json.load(open('$tmp/t.json'))[0]
assert r['impl'] == 'torch_erf' and r['count'] == 65536
assert (r['correctly_rounded'], r['wrong_zero_sign']) in ((64227, 0), (48914, 15912)), r
\""
    check "sweep --json and --csv of a real kernel name its machine and call, a model's row none" \
        "$PYTHON" -c "
import csv, io, json, subprocess
run = lambda *a: subprocess.run(['$GELU_ACC', 'sweep', '--format', 'bfloat16', '--domain', 'range:-1:1'] + list(a),
                                check=True, capture_output=True, text=True).stdout
keys = ['cpu', 'isa', 'library', 'version', 'call', 'path']
r = json.loads(run('--impl', 'torch_erf_len1', '--json'))[0]
assert all(r[k] for k in keys if k != 'isa') and 'isa' in r, r
assert r['library'] == 'PyTorch (libtorch)' and r['call'].endswith('; one element per call'), r['call']
assert r['cpu'] in open('/proc/cpuinfo').read(), r['cpu']
row = next(csv.DictReader(io.StringIO(run('--impl', 'torch_erf', '--csv'))))
assert row['call'] == r['call'].split('; one element')[0] and row['path'], row
assert not any(k in json.loads(run('--impl', 'erf', '--json'))[0] for k in keys)
"
    check "sweep --backward --json of a real kernel names its machine and call, a model's none" \
        "$PYTHON" -c "
import json, subprocess
run = lambda *a: json.loads(subprocess.run(['$GELU_ACC', 'sweep', '--backward', '--format', 'bfloat16',
                                            '--domain', 'range:-1:1', '--json'] + list(a),
                                           check=True, capture_output=True, text=True).stdout)
keys = ['cpu', 'isa', 'library', 'version', 'call', 'path']
r = run('--impl', 'torch_erf_backward_len67')
assert all(r[k] for k in keys if k != 'isa') and 'isa' in r, r
assert r['library'] == 'PyTorch (libtorch)' and '; length 67' in r['call'], r['call']
assert r['cpu'] in open('/proc/cpuinfo').read(), r['cpu']
assert not any(k in run('--impl', 'pytorch_gelu_backward_native') for k in keys)
"
else
    echo "# SKIP: the torch module was not built"
fi
if have sleef; then
    # SLEEF documents its u10 functions within 1.0 ulp.  For x >= 0.5, in
    # (x*0.5)*(1 + E(x*M_SQRT1_2)): the argument's two roundings move erf by
    # at most 2^-52 (v*erf'(v) <= erf(v) < 1), E's error is at most
    # 2^-53 (one ulp below 1), 1 + E rounds by at most 2^-53: 1 + E is off
    # by at most 2^-51 of a value >= 1; x*0.5 is exact and the product rounds
    # once more (2^-53): a relative error under 5*2^-53, under 5 ulps.
    for impl in sleef_erf_u10 sleef_erf_u10_scalar; do
        check "$impl in float64 on [0.5, 10]: within the 5 ulps SLEEF's 1-ulp erf allows" \
            bash -c "'$GELU_ACC' sweep --impl $impl --format float64 --domain range:0.5:10:50000 --json > '$tmp/s.json' &&
                     python3 -c \"
import json
r = json.load(open('$tmp/s.json'))[0]
assert r['count'] == 50000 and r['max_ulp'] < 5, r
\""
    done
    check "float64 SLEEF rows: the 4-lane kernel dispatches, and says to what" \
        bash -c "'$GELU_ACC' list | grep -A8 '^sleef_erf_u10 ' | grep -q 'float64   SLEEF [0-9.]*; 4-lane entry point dispatched to'"
fi
if have dnnl; then
    check "oneDNN in float64: not available, and says why (status 2)" \
        bash -c "'$GELU_ACC' sweep --impl dnnl_erf --format float64 --domain random:10 2>'$tmp/err';
                 [ \$? -eq 2 ] && grep -q 'oneDNN 2.6 has no f64 data type' '$tmp/err'"
fi
finish
