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

have() { [ -e "${GELU_ACC_REAL_DIR:-/nonexistent}/gelu_real_$1.so" ]; }

if have torch; then
    check "float16 GELU refused by libtorch 1.13: status 2, in its words" \
        bash -c "'$GELU_ACC' sweep --impl torch_erf --format float16 2>'$tmp/err';
                 [ \$? -eq 2 ] && grep -q 'not implemented for' '$tmp/err'"
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
else
    echo "# SKIP: the torch module was not built"
fi
finish
