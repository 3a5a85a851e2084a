"""compare_test.sh's independent recount of 'gelu-acc compare' over every
bfloat16 input: from the two sides' outputs (raw little-endian files in
encoding order) and MPFR's exact values ('gelu-acc truth --all --exact
--oracle mpfr'), in exact rational arithmetic, without the comparison's code.
Prints the figures as lines 'improved N', 'worsened N', 'unchanged N',
'a BUCKET N', 'b BUCKET N' for the JSON keys of the bucket rows, 'ranges N'
and 'ranges_worsened N' for the ranges where B is worse, and 'range FIRST
LAST WORSENED' (domain indices) for the ten compare lists.

usage: compare_recount.py TRUTH_FILE A_OUTPUTS B_OUTPUTS

With --backward, 'compare --backward' over bfloat16 pairs: X and DY the
pairs, A_DX and B_DX both sides' outputs (raw files of one length); the
exact dx = dy gelu'(x) from mpmath at 256 bits (gelu'(x) = Phi(x) + x
phi(x)), rounded here; the ranges by x (an x worse where B is worse on more
of its pairs than better, weighing its worsened pairs), 'range FIRST LAST
WORSENED' giving the encodings of x.

usage: compare_recount.py --backward X DY A_DX B_DX
"""
import struct
import sys
from fractions import Fraction

P, EMIN = 8, -126          # bfloat16: 8 bits of precision, least normal exponent


def value(bits):
    """The exact value of a finite bfloat16 encoding, or None for inf/NaN."""
    if bits & 0x7f80 == 0x7f80:
        return None
    f = struct.unpack("<f", struct.pack("<I", bits << 16))[0]
    return Fraction(f)


def is_nan(bits):
    return bits & 0x7fff > 0x7f80


def is_inf(bits):
    return bits & 0x7fff == 0x7f80


def is_zero(bits):
    return bits & 0x7fff == 0


def negative(bits):
    return bits & 0x8000 != 0


# Exact values below 2^-2000 (the far left tail, printed as M*2^E or
# -<2^-N) stand at +-2^-2000: as far below every bfloat16 value as they are,
# they order every output the same way, and keep their sign.
TINY = Fraction(2) ** -2000


def exact_of(text):
    """'-0.5*2^-1002', '1.25e-3', '-<2^-1099511627776', 'inf', 'nan' as a
    Fraction (or a string for inf and NaN)."""
    if text in ("inf", "-inf", "nan", "-nan"):
        return text
    if "<2^" in text:
        return -TINY if text.startswith("-") else TINY
    if "*2^" in text:
        m, e = text.split("*2^")
        if int(e) < -2000:
            return Fraction(m) * TINY
        return Fraction(m) * Fraction(2) ** int(e)
    return Fraction(text)


def ulp_of(f):
    """2^(max(e, emin) - p + 1) for |f| in [2^e, 2^(e+1)); the subnormal ulp for 0."""
    a = abs(f)
    if a == 0:
        return Fraction(2) ** (EMIN - P + 1)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    while Fraction(2) ** e > a:
        e -= 1
    while Fraction(2) ** (e + 1) <= a:
        e += 1
    return Fraction(2) ** (max(e, EMIN) - P + 1)


def ordinal(bits):
    return -(bits & 0x7fff) if negative(bits) else bits & 0x7fff


def distance(y, f, r):
    """The rule's distance of output y from exact f (correctly rounded r), in ulps."""
    if isinstance(f, str):                       # the truth is inf or NaN
        if f.endswith("nan"):
            return 0 if is_nan(y) else float("inf")
        return 0 if y == r else float("inf")
    if is_nan(y) or is_inf(y):
        return float("inf")
    return abs(value(y) - f) / ulp_of(f)


def bucket(y, f, r):
    if is_nan(y) != is_nan(r):
        return "nan"
    if is_inf(y) and not is_inf(r) and not is_nan(r):
        return "inf"
    if is_zero(y) and not is_zero(r) and not is_nan(r):
        return "flushed_to_zero"
    if is_zero(y) and is_zero(r) and negative(y) != negative(r):
        return "wrong_zero_sign"
    if y == r or (is_nan(y) and is_nan(r)):
        return "correctly_rounded"
    d = distance(y, f, r)
    # faithful: the other neighbour of f, on f's far side from r
    if not isinstance(f, str) and value(r) != f and abs(ordinal(y) - ordinal(r)) == 1 \
            and (value(y) - f) * (value(r) - f) < 0:
        return "faithful_not_cr"
    if d < 2:
        return "below_2_ulp"
    if d < 4:
        return "ulp_2_4"
    if d < 16:
        return "ulp_4_16"
    if d < 256:
        return "ulp_16_256"
    return "ulp_256_up"


def verdict(a, b, f, r):
    if a == b or (is_nan(a) and is_nan(b)):
        return "unchanged"
    da, db = distance(a, f, r), distance(b, f, r)
    if db < da:
        return "improved"
    if da < db:
        return "worsened"
    if not isinstance(f, str) and is_zero(a) and is_zero(b):
        return "improved" if negative(b) == negative(r) else "worsened"
    return "unchanged"


GAP = 32    # inputs not worse that end a range (doc/compare.md, "What it prints")


def ranges(steps):
    """The ranges where B is worse, over steps (x, verdict, worsened inputs)
    in encoding order: (first, last, worsened) runs of one sign, no improved
    or NaN input, fewer than GAP inputs not worse in a row between worsened
    ones."""
    found, run, gap, prev = [], None, 0, None
    for x, v, weight in steps:
        breaks = v == "improved" or is_nan(x) or (prev is not None and negative(x) != negative(prev))
        prev = x
        if breaks or (run and v != "worsened" and gap + 1 >= GAP):
            if run:
                found.append(tuple(run))
            run, gap = None, 0
            if breaks and (v != "worsened" or is_nan(x)):
                continue    # a worsened input after a change of sign starts the next run
        if v == "worsened":
            run = [run[0] if run else x, x, (run[2] if run else 0) + weight]
            gap = 0
        elif run:
            gap += 1
    if run:
        found.append(tuple(run))
    return found


def print_counts(counts, found):
    counts["ranges"] = len(found)
    counts["ranges_worsened"] = sum(r[2] for r in found)
    for key in sorted(counts):
        print(key, counts[key])
    # the ten with the most worsened inputs, the first in the domain first
    for first, last, worsened in sorted(found, key=lambda r: (-r[2], r[0]))[:10]:
        print("range", first, last, worsened)


def bits_of(f):
    """A bfloat16 value (a Fraction exactly representable, or +-2^128) as bits."""
    if abs(f) >= 2 ** 128:
        return 0xff80 if f < 0 else 0x7f80
    return struct.unpack("<I", struct.pack("<f", float(f)))[0] >> 16


def round_nearest(f, minus):
    """RN-even of the Fraction f into bfloat16 (a zero takes the sign minus)."""
    if f == 0:
        return 0x8000 if minus else 0
    u = ulp_of(f)
    n, rest = divmod(abs(f), u)
    if rest > u / 2 or (rest == u / 2 and n % 2 == 1):
        n += 1
    return bits_of(-n * u if f < 0 else n * u) | (0x8000 if minus else 0)


def derivative(x):
    """gelu'(x) of a finite bfloat16 x as an mpmath number, 256 bits."""
    import mpmath
    mpmath.mp.prec = 256
    t = mpmath.mpf(float(value(x)))
    return mpmath.erfc(-t / mpmath.sqrt(2)) / 2 + t * mpmath.exp(-t * t / 2) / mpmath.sqrt(2 * mpmath.pi)


def backward_truth(x, dy, cache):
    """(rounded bits, exact) of dy gelu'(x), by IEEE rules on the exact
    product, gelu'(+inf) = 1, gelu'(-inf) = -0, gelu'(+-0) = 1/2."""
    import mpmath
    if is_nan(x) or is_nan(dy):
        return 0x7fc0, "nan"
    if is_inf(x):
        d, sign_d = (Fraction(0), -1) if negative(x) else (Fraction(1), 1)
    elif is_zero(x):
        d, sign_d = Fraction(1, 2), 1
    else:
        if x not in cache:
            cache[x] = derivative(x)
        d = cache[x]
        sign_d = 1 if d > 0 else -1
    minus = negative(dy) != (sign_d < 0)
    if is_inf(dy):
        if d == 0:
            return 0x7fc0, "nan"
        return (0xff80, "-inf") if minus else (0x7f80, "inf")
    if is_zero(dy) or d == 0:
        return (0x8000 if minus else 0), Fraction(0)
    if isinstance(d, Fraction):
        exact = value(dy) * d
    else:
        p = mpmath.mpf(float(value(dy))) * d
        if abs(p) < mpmath.mpf(2) ** -2000:
            return (0x8000 if minus else 0), (-TINY if minus else TINY)
        sign, man, exp, _ = p._mpf_     # p = (-1)^sign man 2^exp
        exact = (-1) ** sign * Fraction(int(man)) * Fraction(2) ** int(exp)
    r = round_nearest(exact, minus)
    if is_inf(r):
        return r, ("-inf" if minus else "inf")
    return r, exact


def backward_main(paths):
    def raw(path):
        data = open(path, "rb").read()
        return struct.unpack("<%dH" % (len(data) // 2), data)
    xs, dys, a, b = (raw(p) for p in paths)
    counts, by_x, cache = {}, {}, {}
    for i, (x, dy) in enumerate(zip(xs, dys)):
        r, f = backward_truth(x, dy, cache)
        v = verdict(a[i], b[i], f, r)
        for key in (v, "a " + bucket(a[i], f, r), "b " + bucket(b[i], f, r)):
            counts[key] = counts.get(key, 0) + 1
        worse, better = by_x.get(x, (0, 0))
        by_x[x] = (worse + (v == "worsened"), better + (v == "improved"))
    steps = []
    for x in sorted(by_x):
        worse, better = by_x[x]
        v = "worsened" if worse > better else "improved" if better > worse else "unchanged"
        steps.append((x, v, worse))
    print_counts(counts, ranges(steps))


def main():
    if sys.argv[1] == "--backward":
        return backward_main(sys.argv[2:6])
    truth = {}
    for line in open(sys.argv[1]):
        x, r, _, _, exact = line.split()
        truth[int(x, 16)] = (int(r, 16), exact_of(exact))
    a = struct.unpack("<65536H", open(sys.argv[2], "rb").read())
    b = struct.unpack("<65536H", open(sys.argv[3], "rb").read())
    counts, verdicts = {}, []
    for x in range(65536):
        r, f = truth[x]
        verdicts.append(verdict(a[x], b[x], f, r))
        for key in (verdicts[-1], "a " + bucket(a[x], f, r), "b " + bucket(b[x], f, r)):
            counts[key] = counts.get(key, 0) + 1
    print_counts(counts, ranges((x, v, 1) for x, v in enumerate(verdicts)))


main()
