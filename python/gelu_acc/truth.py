"""The correctly rounded truth in-process: golden values, golden backward
and the certified ulp error of outputs, each one call into libgelu-acc
over the whole array (no per-element Python work)."""
import ctypes

import numpy as np

from .arrays import operand, operands
from .library import FORMATS, FUNCTIONS, NAN, call, pointer

APPROXIMATIONS = {"none": "gelu", "tanh": "gelu_tanh"}


def function_name(approximate, derivative=False):
    """'gelu', 'gelu_tanh', 'gelu_grad' or 'gelu_tanh_grad', from the
    arguments of torch.nn.functional.gelu (and derivative=)."""
    if not isinstance(approximate, str) or approximate not in APPROXIMATIONS:
        raise ValueError("approximate must be 'none' or 'tanh', not %r" % (approximate,))
    if not isinstance(derivative, bool):
        raise TypeError("derivative must be True or False, not %r" % (derivative,))
    return APPROXIMATIONS[approximate] + ("_grad" if derivative else "")


def golden(x, approximate="none", derivative=False, format=None):
    """The correctly rounded GELU (approximate="tanh": its tanh form, the
    constants exact; derivative=True: the derivative) of every element of
    x, as an array of x's type, dtype, shape (and device, for a tensor).
    x: a NumPy array of float64, float32 or float16, or of unsigned
    encodings with format="bfloat16", "float8_e4m3fn", ...; or a torch
    tensor of float64, float32, float16 or bfloat16."""
    fn = function_name(approximate, derivative)
    x = operand(x, format, "x")
    out = np.empty_like(x.bits)
    call("gelu_acc_truth", FUNCTIONS[fn], FORMATS[x.format], pointer(x.bits), pointer(out),
         out.size)
    return x.wrap(out)


def golden_backward(x, dy, approximate="none", format=None):
    """The correctly rounded backward: dx = RN(dy * gelu'(x)), the product
    exact before its one rounding, of x's type, dtype and shape.  Formats of
    at most 24 significant bits (float64 raises ValueError)."""
    fn = function_name(approximate)
    x, dy = operands(x, dy, ("x", "dy"), format)
    dx = np.empty_like(x.bits)
    call("gelu_acc_backward", FUNCTIONS[fn], FORMATS[x.format], pointer(x.bits),
         pointer(dy.bits), pointer(dx), dx.size)
    return x.wrap(dx)


def grade_elements(actual, x, approximate="none", derivative=False, format=None):
    """(the operands of x and actual, ulp errors, flags), flat arrays."""
    fn = function_name(approximate, derivative)
    y, x = operands(actual, x, ("actual", "x"), format)
    ulp = np.empty(x.bits.size, dtype=np.float64)
    flags = np.empty(x.bits.size, dtype=np.uint32)
    call("gelu_acc_ulp_error", FUNCTIONS[fn], FORMATS[x.format], pointer(x.bits),
         pointer(y.bits), x.bits.size, ulp.ctypes.data_as(ctypes.POINTER(ctypes.c_double)),
         flags.ctypes.data_as(ctypes.POINTER(ctypes.c_uint32)))
    # A NaN where the truth is a number is infinitely wrong (the library
    # gives NaN, its ulp error being undefined).
    ulp[(flags & NAN) != 0] = np.inf
    return x, y, ulp, flags


def ulp_error(actual, x, approximate="none", derivative=False, format=None):
    """The certified ulp error of each output (a float64 NumPy array of x's
    shape): |actual - f(x)| / ulp(f(x)) with the ulp of the exact value's
    exponent (exact but for bits below 2^-20 ulp); inf where the output is
    NaN or infinite and the truth finite; NaN where the truth is NaN."""
    x, _, ulp, _ = grade_elements(actual, x, approximate, derivative, format)
    return ulp.reshape(x.shape)

