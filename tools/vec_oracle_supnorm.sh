#!/bin/sh
# The proof of the vector paths' approximation errors (doc/oracle.md, 'The
# vector paths'): reads the coefficients of G and P from the C header, as
# the code compiles them (hexadecimal doubles, highest degree first), and
# runs tools/vec_oracle_supnorm.sollya on them with Sollya.
# Usage: tools/vec_oracle_supnorm.sh [HEADER]   (default: the source tree's)
# Exit status: 0 with the figures on stdout; 1 when the header does not hold
# both lists with the degrees it declares or Sollya warned; 77 when sollya
# is missing.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
header=${1:-$here/../src/truth/fast_vec_internal.h}
command -v sollya >/dev/null 2>&1 || { echo "sollya missing" >&2; exit 77; }

# coefficients NAME: the numbers between 'NAME[...] = {' and '};', one a
# line, exactly as written.
coefficients() {
    awk -v name="$1" '
        index($0, name "[") && /= *\{/ { inside = 1; next }
        inside && /};/ { exit }
        inside { gsub(/,/, " "); for (i = 1; i <= NF; i++) print $i }
    ' "$header"
}

# degree MACRO: the value of '#define MACRO N'.
degree() {
    awk -v name="$1" '$1 == "#define" && $2 == name { print $3 }' "$header"
}

sollya_list() {
    printf '%s = [|' "$1"
    shift
    echo "$@" | sed 's/ /, /g'
    echo '|];'
}

g=$(coefficients ga_vec_g)
p=$(coefficients ga_vec_exp)
for pair in "ga_vec_g GA_VEC_G_DEGREE" "ga_vec_exp GA_VEC_EXP_DEGREE"; do
    set -- $pair
    count=$(coefficients "$1" | grep -cE '^-?0x[0-9a-fA-F]+(\.[0-9a-fA-F]*)?p[-+]?[0-9]+$' || true)
    total=$(coefficients "$1" | wc -l)
    want=$(($(degree "$2") + 1))
    if [ "$count" != "$want" ] || [ "$total" != "$want" ]; then
        echo "$header: $1 holds $total numbers ($count hexadecimal doubles), $2 + 1 = $want" >&2
        exit 1
    fi
done

input=$(mktemp)
warnings=$(mktemp)
output=$(mktemp)
trap 'rm -f "$input" "$warnings" "$output"' EXIT
{
    sollya_list g_coefficients $g
    sollya_list exp_coefficients $p
    cat "$here/vec_oracle_supnorm.sollya"
} > "$input"
# Any warning (a syntax error, a supnorm that failed) voids the figures.
# So does a figure missing: five lines end in '<= N' or '<= 2^E = N'.
sollya --warnonstderr "$input" < /dev/null 2> "$warnings" | tee "$output"
figures=$(grep -cE '<= (2\^-[0-9.]+ = )?[0-9][0-9.e+-]*$' "$output" || true)
if [ -s "$warnings" ] || [ "$figures" != 5 ]; then
    cat "$warnings" >&2
    echo "vec_oracle_supnorm: $figures figures of 5, or a warning: no proof" >&2
    exit 1
fi
