#!/bin/bash
# tests/real_rows.py, which report_test.sh runs where the committed real
# rows come from another machine: a row that differs passes only where the
# CPUs' extensions or the library versions differ, and the difference is
# named; a row that differs on the same machine fails.
. "${top_srcdir:-.}/tests/tap.sh"
rows=${top_srcdir:-.}/tests/real_rows.py

# row FILE CR ISA VERSION: a one-row FORMAT-real.json (ISA "-": the keys left out, as
# pages written before the rows named their machine).
row() {
    "$PYTHON" - "$@" <<'PY'
import json, sys
path, cr, isa, version = sys.argv[1:]
r = {'impl': 'torch_erf', 'format': 'bfloat16', 'reference': 'gelu', 'count': 65536,
     'correctly_rounded': int(cr), 'models': 'PyTorch (libtorch) %s: at::gelu' % version,
     'regions': {'core': {'count': 2946}}}
if isa != '-':
    r.update(cpu='Some CPU', isa=isa, library='PyTorch (libtorch)', version=version,
             call='at::gelu', path='ATen')
json.dump([r], open(path, 'w'))
PY
}
page() {  # page FILE ISA: a page whose machine line names ISA
    printf '<!-- machine -->\nReal libraries measured on: Page CPU (%s); PyTorch (libtorch) 1.13.0; glibc 2.36.\n<!-- /machine -->\n' "$2" > "$1"
}
page "$tmp/a.md" "avx avx2 fma avx512f avx512bf16"
page "$tmp/b.md" "avx avx2 fma"

row "$tmp/same.json" 64227 "avx avx2 fma" 1.13.0
row "$tmp/same2.json" 64227 "avx avx2 fma avx512f" 1.13.0
check "the same figures pass, whatever the machine" \
    "$PYTHON" "$rows" "$tmp/same.json" "$tmp/b.md" "$tmp/same2.json" "$tmp/a.md"

row "$tmp/other.json" 64226 "avx avx2 fma" 1.13.0
check "different figures on the same extensions and version fail, naming the figure" \
    bash -c "! '$PYTHON' '$rows' '$tmp/same.json' '$tmp/b.md' '$tmp/other.json' '$tmp/b.md' > '$tmp/out' &&
             grep -q 'torch_erf against gelu: DIFFERS on the same CPU extensions (avx avx2 fma) and library (PyTorch (libtorch) 1.13.0): correctly_rounded 64227 -> 64226' '$tmp/out'"

row "$tmp/bf16.json" 48914 "avx avx2 fma avx512f avx512bf16" 1.13.0
check "different figures on other extensions pass, naming them and the figure" \
    bash -c "'$PYTHON' '$rows' '$tmp/bf16.json' '$tmp/a.md' '$tmp/same.json' '$tmp/b.md' > '$tmp/out' &&
             grep -q \"differs, explained: committed on 'Some CPU', here 'Some CPU': only the committed CPU has avx512bf16 avx512f: correctly_rounded 48914 -> 64227\" '$tmp/out'"

row "$tmp/v2.json" 64226 "avx avx2 fma" 2.0.0
check "different figures with another library version pass, naming both versions" \
    bash -c "'$PYTHON' '$rows' '$tmp/same.json' '$tmp/b.md' '$tmp/v2.json' '$tmp/b.md' > '$tmp/out' &&
             grep -q 'library PyTorch (libtorch) 2.0.0 here, PyTorch (libtorch) 1.13.0 committed' '$tmp/out'"

row "$tmp/old.json" 48914 - 1.13.0
check "a committed row without the machine keys takes its page's machine line" \
    bash -c "'$PYTHON' '$rows' '$tmp/old.json' '$tmp/a.md' '$tmp/same.json' '$tmp/b.md' > '$tmp/out' &&
             grep -q \"committed on 'Page CPU', here 'Some CPU': only the committed CPU has avx512bf16 avx512f\" '$tmp/out'"
check "... and fails where that line names the same extensions" \
    bash -c "! '$PYTHON' '$rows' '$tmp/old.json' '$tmp/b.md' '$tmp/same.json' '$tmp/b.md' > '$tmp/out'"

row "$tmp/region.json" 64227 "avx avx2 fma" 1.13.0
sed -i 's/"count": 2946/"count": 2945/' "$tmp/region.json"
check "a difference in a region's figures counts too" \
    bash -c "! '$PYTHON' '$rows' '$tmp/same.json' '$tmp/b.md' '$tmp/region.json' '$tmp/b.md' > '$tmp/out' &&
             grep -q 'regions.core.count 2946 -> 2945' '$tmp/out'"

finish
