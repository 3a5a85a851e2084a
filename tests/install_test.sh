#!/bin/bash
# libgelu-acc as a user gets it: 'make install' into a temporary directory,
# programs built with nothing but 'pkg-config --cflags --libs gelu-acc', and
# their goldens against the MPFR-only oracle ('gelu-acc truth --oracle mpfr':
# the Ziv loop alone, not the fast path the library uses), encoding by
# encoding: every encoding of every format of at most 16 bits for each of
# the four functions, and samples of float32 and float64 (any NaN matches
# any NaN).  Then examples/c, the CMocka test of a C kernel, built by its own
# Makefile.  MAKE and abs_top_builddir: set by make check.
. "${top_srcdir:-.}/tests/tap.sh"
src=${top_srcdir:-.}
: "${MAKE:=make}" "${abs_top_builddir:=$PWD}"

root=$tmp/root
installed() {
    "$MAKE" -C "$abs_top_builddir" install DESTDIR="$root" >"$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; return 1; }
    pc=$(find "$root" -name gelu-acc.pc | head -1)
    [ -n "$pc" ] || { echo "no gelu-acc.pc installed"; return 1; }
    # the .pc names the real prefix: pkg-config's sysroot points it into $root
    export PKG_CONFIG_PATH=$(dirname "$pc") PKG_CONFIG_SYSROOT_DIR=$root
    export LD_LIBRARY_PATH=$(dirname "$(dirname "$pc")")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
}
check "make install DESTDIR: the library, its headers and gelu-acc.pc" installed

LIBRARY_GOLDEN=$tmp/library_golden
# A library built with sanitizers (the sanitized distcheck) needs their
# runtimes in the programs that link it: the build's -fsanitize flags.
sanitize=
for flag in ${GELU_ACC_BUILD_FLAGS:-}; do
    case $flag in -fsanitize=*) sanitize="$sanitize $flag" ;; esac
done
cc="${CC:-cc}$sanitize"
built_with_pkg_config() {
    $cc -std=c11 -Wall -Werror $(pkg-config --cflags gelu-acc) -o "$LIBRARY_GOLDEN" \
        "$src/tests/library_golden.c" $(pkg-config --libs gelu-acc) &&
    ldd "$LIBRARY_GOLDEN" | grep -q "libgelu-acc.so.1 => $root"
}
check "a program built with pkg-config --cflags --libs gelu-acc runs on the installed libgelu-acc.so.1" \
    built_with_pkg_config
static_link() {
    $cc -std=c11 $(pkg-config --cflags gelu-acc) -o "$tmp/static_golden" "$src/tests/library_golden.c" \
        $(pkg-config --static --libs gelu-acc | sed 's/-lgelu-acc/-l:libgelu-acc.a/') &&
    ! ldd "$tmp/static_golden" | grep -q libgelu-acc &&
    [ "$(echo 0x3f80 | "$tmp/static_golden" bfloat16 gelu)" = "0x3f80 0x3f57" ]
}
check "the static libgelu-acc.a links with pkg-config --static" static_link

# same_as_mpfr FORMAT FUNCTION TRUTH-INPUT-ARGS...: the golden of every input
# the truth command lists equals its MPFR-only result.
same_as_mpfr() {
    local format=$1 fn=$2
    shift 2
    "$GELU_ACC" truth --oracle mpfr --format "$format" --function "$fn" "$@" > "$tmp/want" || return 1
    awk '{ print $1 }' "$tmp/want" | "$LIBRARY_GOLDEN" "$format" "$fn" > "$tmp/got" || return 1
    "$PYTHON" - "$tmp/want" "$tmp/got" <<'EOF'
import sys
want = [line.split() for line in open(sys.argv[1])]
got = [line.split() for line in open(sys.argv[2])]
if len(want) != len(got) or not want:
    sys.exit(f"{len(want)} truths, {len(got)} goldens")
bad = 0
for w, g in zip(want, got):
    if int(w[0], 16) != int(g[0], 16):
        sys.exit(f"input {g[0]} where {w[0]} was expected")
    nan = "nan" in w[2].lower()
    if (g[1] == "nan") != nan or (not nan and int(w[1], 16) != int(g[1], 16)):
        bad += 1
        if bad <= 5:
            print(f"x = {w[0]}: MPFR {w[1]} ({w[2]}), library {g[1]}")
if bad:
    sys.exit(f"{bad} of {len(want)} differ")
EOF
}

for format in bfloat16 float16 float8_e4m3fn float8_e5m2 float6_e2m3 float6_e3m2 float4_e2m1; do
    for fn in gelu gelu_tanh gelu_grad gelu_tanh_grad; do
        check "$format $fn: every encoding = MPFR alone" same_as_mpfr "$format" "$fn" --all
    done
done

# float32 and float64: random encodings (NaNs, infinities, subnormals and
# both tails included), and the regions where the fast path works hardest.
"$PYTHON" - "$tmp" <<'EOF'
import random, struct, sys
rng = random.Random(20240611)
tmp = sys.argv[1]
def f32(v): return struct.unpack("<I", struct.pack("<f", v))[0]
def f64(v): return struct.unpack("<Q", struct.pack("<d", v))[0]
with open(f"{tmp}/f32", "w") as f:
    xs = [rng.getrandbits(32) for _ in range(2000)]
    xs += [f32(rng.uniform(-20, 10)) for _ in range(2000)]
    xs += [f32(rng.uniform(-1, 1) * 2.0 ** -rng.randint(0, 140)) for _ in range(500)]
    f.write("".join(f"0x{x:08x}\n" for x in xs))
with open(f"{tmp}/f64", "w") as f:
    xs = [rng.getrandbits(64) for _ in range(200)]
    xs += [f64(rng.uniform(-40, 10)) for _ in range(200)]
    f.write("".join(f"0x{x:016x}\n" for x in xs))
EOF
for fn in gelu gelu_tanh gelu_grad gelu_tanh_grad; do
    check "float32 $fn: 4500 sampled encodings = MPFR alone" \
        same_as_mpfr float32 "$fn" --bits --input "$tmp/f32"
    check "float64 $fn: 400 sampled encodings = MPFR alone" \
        same_as_mpfr float64 "$fn" --bits --input "$tmp/f64"
done

example() {
    cp -R "$src/examples/c" "$tmp/example" && chmod -R u+w "$tmp/example" &&
    "$MAKE" -C "$tmp/example" CC="$cc" check
}
check "examples/c: its Makefile builds the CMocka test with pkg-config, and it passes" example
finish
