"""assert_gelu_close: a kernel's outputs against the correctly rounded
truth, each element classified exactly by libgelu-acc (its flags, not a
relative tolerance), failures named by kind with the worst few shown."""
import numbers

import numpy as np

from . import library as lib
from .formats import encoding_of, value_of
from .library import FORMATS, FUNCTIONS, call, pointer
from .truth import grade_elements, function_name

SHOWN_PER_KIND = 3


def _check_options(max_ulp, allow_flush, allow_zero_sign):
    if isinstance(max_ulp, bool) or not isinstance(max_ulp, numbers.Real):
        raise TypeError("max_ulp must be a number, not %r" % (max_ulp,))
    if max_ulp != max_ulp or max_ulp < 0:
        raise ValueError("max_ulp must be a number >= 0 (inf allowed), not %r" % (max_ulp,))
    for name, value in (("allow_flush", allow_flush), ("allow_zero_sign", allow_zero_sign)):
        if not isinstance(value, bool):
            raise TypeError("%s must be True or False, not %r" % (name, value))


def _sign_bits(format_name, bits):
    """True where an element's sign bit is set."""
    if format_name in ("float64", "float32", "float16"):
        return np.signbit(bits)
    width = {"bfloat16": 16, "float8_e4m3fn": 8, "float8_e5m2": 8, "float6_e2m3": 6,
             "float6_e3m2": 6, "float4_e2m1": 4}[format_name]
    return (bits.astype(np.uint64) >> (width - 1)) & 1 == 1


def failures(x, y, ulp, flags, expected, max_ulp, allow_flush, allow_zero_sign):
    """{kind: boolean mask of the elements that fail for it}, kinds in the
    order messages name them.  An element fails for one kind only."""
    has = lambda flag: (flags & flag) != 0
    nan, inf, not_nan = has(lib.NAN), has(lib.INF), has(lib.NOT_NAN)
    same_sign = _sign_bits(x.format, y.bits) == _sign_bits(x.format, expected)
    accepted_flush = has(lib.FLUSHED) & allow_flush & has(lib.TINY) & same_sign
    zero_sign = has(lib.ZERO_SIGN) & (not allow_zero_sign)
    with np.errstate(invalid="ignore"):
        over = (ulp > max_ulp) & ~accepted_flush & ~has(lib.CORRECTLY_ROUNDED)
    # A zero within max_ulp of a tiny truth is a rounding, not a flush.
    flushed = has(lib.FLUSHED) & over
    kinds = {"NaN": nan, "infinity": inf, "number where NaN is expected": not_nan,
             "flushed to zero": flushed & ~nan & ~inf, "zero of the wrong sign": zero_sign}
    taken = np.zeros(ulp.shape, dtype=bool)
    for mask in kinds.values():
        mask &= ~taken
        taken |= mask
    kinds["over max_ulp=%g" % max_ulp] = over & ~taken
    return kinds


def _describe(format_name, shape, index, x, y, expected, ulp):
    where = np.unravel_index(index, shape) if len(shape) > 1 else index
    show = lambda bits: "0x%x (%r)" % (encoding_of(format_name, bits), value_of(format_name, bits))
    return "    at %s: x = %s, expected %s, actual %s, %s ulp" % (
        where, show(x[index]), show(expected[index]), show(y[index]), "%.4g" % ulp[index])


def assert_gelu_close(actual, x, approximate="none", max_ulp=1.0, allow_flush=False,
                      allow_zero_sign=False, derivative=False, format=None):
    """Raises AssertionError unless every output in ``actual`` is the
    correctly rounded GELU of ``x`` (approximate="tanh": its tanh form;
    derivative=True: the derivative) or within ``max_ulp`` ulps of its exact
    value (so max_ulp=0: correctly rounded; 1: faithful or better).  Always fails:
    a NaN or an infinity where the truth is finite, a number where it is
    NaN, and a zero of the wrong sign; a zero where the truth is not zero
    and the error above max_ulp is named a flush.  allow_flush=True accepts
    a zero of the truth's sign where the truth is tiny (subnormal or
    underflowing, whatever the ulp error); allow_zero_sign=True accepts a
    zero of either sign where the truth is a zero.  actual and x: the same
    type, dtype and shape (see golden)."""
    _check_options(max_ulp, allow_flush, allow_zero_sign)
    fn = function_name(approximate, derivative)
    x_op, y_op, ulp, flags = grade_elements(actual, x, approximate, derivative, format)
    expected = np.empty_like(x_op.bits)
    call("gelu_acc_truth", FUNCTIONS[fn], FORMATS[x_op.format], pointer(x_op.bits),
         pointer(expected), expected.size)
    kinds = failures(x_op, y_op, ulp, flags, expected, max_ulp, allow_flush, allow_zero_sign)
    failed = sum(int(mask.sum()) for mask in kinds.values())
    if failed == 0:
        return
    counts = ", ".join("%d %s" % (mask.sum(), kind) for kind, mask in kinds.items() if mask.any())
    lines = ["%d of %d elements (%s, %s) are not close to the correctly rounded truth: %s"
             % (failed, ulp.size, x_op.format, fn, counts)]
    for kind, mask in kinds.items():
        where = np.flatnonzero(mask)
        if where.size == 0:
            continue
        order = where[np.argsort(-np.nan_to_num(ulp[where], nan=np.inf), kind="stable")]
        lines.append("  %s (%d; the worst %d):" % (kind, where.size, min(where.size, SHOWN_PER_KIND)))
        lines += [_describe(x_op.format, x_op.shape, i, x_op.bits, y_op.bits, expected, ulp)
                  for i in order[:SHOWN_PER_KIND]]
    raise AssertionError("\n".join(lines))
