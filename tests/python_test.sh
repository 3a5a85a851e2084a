#!/bin/bash
# The Python module (python/gelu_acc), its PyTorch test and the pytest
# examples, run by an interpreter that has NumPy: $PYTHON (set by configure)
# first, then python3, then Debian's /usr/bin/python3.  pytest when that
# interpreter has it, else unittest.  The module loads libgelu-acc in-process
# ($GELU_ACC_LIBRARY, set by make check): a library built with
# AddressSanitizer cannot be loaded into an unsanitized interpreter, so a
# sanitized build skips this test.  'make install' of the module is checked
# into a temporary prefix, pip install in a virtual environment, offline.
. "${top_srcdir:-.}/tests/tap.sh"
src=${top_srcdir:-.}
# An absolute path: the checks run in other directories.
GELU_ACC=$(cd "$(dirname "$GELU_ACC")" && pwd)/$(basename "$GELU_ACC")

py=
for candidate in ${PYTHON:+"$PYTHON"} python3 /usr/bin/python3; do
    if "$candidate" -c 'import numpy' >/dev/null 2>&1; then
        py=$candidate
        break
    fi
done
if [ -z "$py" ]; then
    echo "1..0 # SKIP no Python with NumPy (\$PYTHON, python3, /usr/bin/python3)"
    exit 0
fi
: "${GELU_ACC_LIBRARY:=$(dirname "$GELU_ACC")/.libs/libgelu-acc.so}"
if nm -D "$GELU_ACC_LIBRARY" 2>/dev/null | grep -q ' __asan_init'; then
    echo "1..0 # SKIP $GELU_ACC_LIBRARY is built with AddressSanitizer: $py cannot load it"
    exit 0
fi
echo "# $py: $("$py" --version 2>&1), NumPy $("$py" -c 'import numpy; print(numpy.__version__)')"
export PYTHONPATH=$src/python PYTHONDONTWRITEBYTECODE=1 GELU_ACC GELU_ACC_LIBRARY

# run_tests FILE: pytest, or unittest without it; a test file of plain
# test_ functions (the example) is called directly by the latter.
if "$py" -c 'import pytest' >/dev/null 2>&1; then
    runner=pytest
    run_tests() { "$py" -m pytest -q -p no:cacheprovider "$1"; }
else
    runner=unittest
    run_tests() {
        "$py" - "$1" <<'END'
import runpy, sys, unittest
namespace = runpy.run_path(sys.argv[1])
cases = [v for v in namespace.values() if isinstance(v, type) and issubclass(v, unittest.TestCase)]
if cases:
    suite = unittest.TestSuite(unittest.defaultTestLoader.loadTestsFromTestCase(c) for c in cases)
    sys.exit(not unittest.TextTestRunner(verbosity=2).run(suite).wasSuccessful())
for name, test in namespace.items():
    if name.startswith("test_") and callable(test):
        test()
        print(name, "ok")
END
    }
fi

check "gelu_acc: grading, conversions, errors, baselines ($runner)" run_tests "$src/python/tests/test_gelu_acc.py"
check "PyTorch's GELU on every bfloat16 input ($runner; skipped without torch)" run_tests "$src/python/tests/test_torch.py"
check "examples/python/test_my_gelu.py ($runner)" run_tests "$src/examples/python/test_my_gelu.py"
check "in-process goldens against the MPFR oracle, assert_gelu_close, errors, inline bounds ($runner)" \
    run_tests "$src/python/tests/test_library.py"

# examples/pytest: parametrized, so pytest only; what it finds wrong in
# torch's bfloat16 GELU is printed (-s) as comments.
tap_count=$((tap_count + 1))
if [ "$runner" != pytest ]; then
    echo "ok $tap_count # SKIP examples/pytest: $py has no pytest (python3-pytest)"
else
    tap_count=$((tap_count - 1))
    check "examples/pytest: a GELU checked over dtypes and modes; torch's failures detected" \
        "$py" -m pytest -q -s -p no:cacheprovider "$src/examples/pytest/test_gelu.py"
    sed -n '/^torch \|^F.gelu\|elements (\|^assert_close/s/^/# /p' "$tmp/check.out"
fi

# make install puts the module into $pythondir with _installed.py naming
# $libdir: the installed module finds the installed library by itself.
tap_count=$((tap_count + 1))
if [ -z "${abs_top_builddir:-}" ] || [ ! -f "$abs_top_builddir/Makefile" ]; then
    echo "ok $tap_count # SKIP make install of the module: no build tree (abs_top_builddir)"
else
    tap_count=$((tap_count - 1))
    prefix=$tmp/prefix
    installed_module() {
        "${MAKE:-make}" -C "$abs_top_builddir" install-libLTLIBRARIES install-gelu_accPYTHON \
            install-data-hook prefix="$prefix" >"$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; return 1; }
        module=$(find "$prefix" -name _installed.py)
        [ -n "$module" ] || { echo "no _installed.py under $prefix"; return 1; }
        grep -qx "LIBDIR = \"$prefix/lib\"" "$module" || { cat "$module"; return 1; }
        env -u GELU_ACC_LIBRARY PYTHONPATH="$(dirname "$(dirname "$module")")" "$py" -c '
import sys, numpy as np, gelu_acc
assert gelu_acc.__file__.startswith(sys.argv[1]), gelu_acc.__file__
assert gelu_acc.library_path() == sys.argv[1] + "/lib/libgelu-acc.so.1", gelu_acc.library_path()
one = np.array([0x3f80], dtype=np.uint16)
assert gelu_acc.golden(one, format="bfloat16")[0] == 0x3f57' "$prefix"
    }
    check "make install: the module in \$pythondir loads libgelu-acc from \$libdir" installed_module
fi

# pip install ./python, offline, into a virtual environment that sees the
# system's NumPy (Debian's pip refuses the system Python itself).
tap_count=$((tap_count + 1))
if ! "$py" -c 'import venv, setuptools' >/dev/null 2>&1; then
    echo "ok $tap_count # SKIP pip install: $py lacks venv or setuptools"
else
    mkdir "$tmp/package"
    cp -r "$src/python/pyproject.toml" "$src/python/README.md" "$src/python/gelu_acc" "$tmp/package/"
    tap_count=$((tap_count - 1))
    check "pip install --no-build-isolation --no-index ./python, then grade from the installed module" \
        bash -c "cd '$tmp' && '$py' -m venv --system-site-packages venv &&
                 venv/bin/python -m pip install -q --no-build-isolation --no-index ./package &&
                 env -u PYTHONPATH venv/bin/python -c '
import gelu_acc, numpy as np
assert gelu_acc.__file__.startswith(\"$tmp/venv/\"), gelu_acc.__file__
r = gelu_acc.grade(lambda x: np.zeros_like(x), \"float16\", domain=\"range:1:2\")
assert r[\"count\"] == 1025 and r[\"correctly_rounded\"] == 0, r'"
fi
finish
