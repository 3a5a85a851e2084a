#!/usr/bin/env python3
"""The polynomial G of the fast oracle's vector paths (src/truth/fast_vec_internal.h)
and the figures of its error bound (doc/oracle.md, 'The vector paths').

G(s) interpolates g(s) = e^(a^2/2) erfc(a/sqrt 2) (a + 6)/2, a = 6 (1 + s)/(7/4 - s),
at 19 Chebyshev points of [-1, 0.94] (mpmath, 50 digits), coefficients rounded
to double.  Prints them (highest degree first), then on 2^14 + 1 evenly spread
points: the relative error of G (double coefficients) against g, Horner's
condition number sum |c_i| |s|^i / g(s), and max |g'/g|; and the Taylor
remainder of exp of degree 12 on |r| <= 0.3466.  Takes a few seconds.
These figures are samples; tools/vec_oracle_supnorm.sh proves them (Sollya)."""
import mpmath as mp

mp.mp.dps = 50
K, AL = mp.mpf(6), mp.mpf(7) / 4
LO, HI = mp.mpf(-1), mp.mpf('0.94')


def g(s):
    a = K * (1 + s) / (AL - s)
    return mp.exp(a * a / 2) * mp.erfc(a / mp.sqrt(2)) / 2 * (a + K)


def main():
    coefficients = [float(v) for v in mp.chebyfit(g, [LO, HI], 19)]
    print("G:", ", ".join(v.hex() for v in coefficients))
    exact = [mp.mpf(v) for v in coefficients]
    worst = cond = slope = 0
    n = 1 << 14
    for i in range(n + 1):
        s = LO + (HI - LO) * i / n
        gs = g(s)
        worst = max(worst, abs(mp.polyval(exact, s) / gs - 1))
        cond = max(cond, mp.polyval([abs(v) for v in exact], abs(s)) / gs)
        if i % 16 == 0:
            slope = max(slope, abs(mp.diff(g, s) / gs))
    r = mp.mpf('0.3466')
    print("G relative error: 2^%.2f" % float(mp.log(worst, 2)))
    print("Horner condition number: %.3f" % float(cond))
    print("max |g'/g|: %.3f" % float(slope))
    print("exp Taylor remainder (degree 12): 2^%.2f"
          % float(mp.log(r ** 13 / mp.factorial(13) * mp.exp(2 * r), 2)))


if __name__ == "__main__":
    main()
