#!/bin/bash
# libgelu-acc exports exactly the functions its public header declares:
# every GELU_ACC_API name of include/gelu-acc/gelu-acc.h, nothing else
# (the engine and the truth's internals stay hidden), under the SONAME of
# the interface version, and the header compiles as C and as C++.
# GELU_ACC_LIBRARY: the shared library of the build tree (make check).
. "${top_srcdir:-.}/tests/tap.sh"
src=${top_srcdir:-.}
header=$src/include/gelu-acc/gelu-acc.h
lib=$GELU_ACC_LIBRARY

declared() {
    sed -n 's/^GELU_ACC_API [^(]*[ *]\(gelu_acc_[a-z_0-9]*\)(.*/\1/p' "$header" | sort
}
exported() {
    nm -D --defined-only "$lib" | awk '$2 ~ /^[TDBRVW]$/ { print $3 }' | sort
}
some_declared() { [ "$(declared | wc -l)" -ge 20 ]; }
same_exports() {
    [ -n "$(exported)" ] || { echo "nothing exported by '$lib'"; return 1; }
    diff <(declared) <(exported)
}
soname() {
    readelf -d "$lib" | grep -q 'Library soname: \[libgelu-acc.so.1\]' &&
        grep -q '^#define GELU_ACC_API_VERSION 1$' "$header"
}
compiles_as_c() {
    printf '#include <gelu-acc/gelu-acc.h>\nint main(void) { return gelu_acc_format_size(GELU_ACC_FLOAT32) != 4; }\n' > "$tmp/c.c" &&
        ${CC:-cc} -std=c11 -Wall -Wextra -Wpedantic -Werror -I"$src/include" -c "$tmp/c.c" -o "$tmp/c.o"
}
compiles_as_cxx() {
    printf '#include <gelu-acc/gelu-acc.h>\nint main() { gelu_acc_format f; return gelu_acc_format_by_name("float32", &f); }\n' > "$tmp/c.cc" &&
        ${CXX:-c++} -std=c++11 -Wall -Wextra -Werror -I"$src/include" -c "$tmp/c.cc" -o "$tmp/cc.o"
}

check "the header declares the library's functions" some_declared
check "nm -D lists exactly the header's functions" same_exports
check "SONAME libgelu-acc.so.1 (GELU_ACC_API_VERSION 1)" soname
check "the header compiles alone as C11 with every warning" compiles_as_c
if command -v "${CXX:-c++}" >/dev/null 2>&1; then
    check "the header compiles as C++" compiles_as_cxx
fi
finish
