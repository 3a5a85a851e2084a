#!/bin/bash
# The approximation errors of the vector paths, proven by Sollya's supnorm
# on the coefficients the code compiles (tools/vec_oracle_supnorm.sh), stay
# within what the error budget of doc/oracle.md ('The vector paths')
# counts for them: a coefficient changed so that G or P drifts past its
# share fails here.  Skipped without sollya.  About a minute.
. "${top_srcdir:-.}/tests/tap.sh"

if ! command -v sollya >/dev/null 2>&1; then
    echo "1..0 # SKIP sollya missing"
    exit 0
fi
# The proof reads the source's coefficients, not the build: a run that has
# already proven this tree (.ci/run's make check, before its sanitized
# distcheck) may say so.
if [ -n "${GELU_ACC_SOURCE_PROOFS_DONE:-}" ]; then
    echo "1..0 # SKIP proven from this source already ($GELU_ACC_SOURCE_PROOFS_DONE)"
    exit 0
fi

status=0
"${top_srcdir:-.}/tools/vec_oracle_supnorm.sh" > "$tmp/figures" 2> "$tmp/warnings" || status=$?
check "the proof runs without a warning (exit status $status)" \
    sh -c 'cat "$1"; test "$2" = 0' - "$tmp/warnings" "$status"

# within WHAT FORM BUDGET: the line starting with WHAT gives a figure no
# larger than BUDGET; FORM 'power' reads the exponent E of '<= 2^E', 'plain'
# the number after '<='.  Figures are rounded up, so the bound behind them
# is no larger either.
within() {
    local what=$1 form=$2 budget=$3 figure
    if [ "$form" = power ]; then
        figure=$(sed -n "s#^$what.*<= 2^\(-[0-9.]*\) .*#\1#p" "$tmp/figures")
    else
        figure=$(sed -n "s#^$what.*<= \([0-9.]*\)\$#\1#p" "$tmp/figures")
    fi
    echo "$what: '$figure', budget $budget"
    [ -n "$figure" ] && awk -v f="$figure" -v b="$budget" 'BEGIN { exit !(f + 0 <= b + 0) }'
}

# The budget's rows, u = 2^-53: G against g counted as 2^-50 = 8u; Horner's
# condition number of G 4.92 and max |g'/g| 1.38; the Taylor polynomial's
# remainder 2^-51.4 = 3.03u; P with its coefficients rounded, that
# remainder plus the 2.0u counted for the rounding: 5.03u > 2^-50.67.
check "G against g <= 2^-50" within "G against g" power -50
check "Horner condition number of G <= 4.92" within "Horner condition number" plain 4.92
check "max |g'/g| <= 1.38" within "max |g'/g|" plain 1.38
check "the Taylor polynomial against e^r <= 2^-51.4" within "Taylor polynomial" power -51.4
check "P (stored coefficients) against e^r <= 2^-50.67" within "P (stored" power -50.67
sed 's/^/# /' "$tmp/figures"
finish
