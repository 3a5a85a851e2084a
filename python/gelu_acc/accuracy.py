"""assert_accuracy in-process: a kernel run on the inputs of a domain,
graded by a libgelu-acc grader (the figures of 'gelu-acc grade') and
checked against bounds given inline or read from a baseline file by the
library's own reader (the reader of 'gelu-acc check')."""
import ctypes
import math
import numbers
import os

import numpy as np

from . import baseline as _baseline
from .arrays import operand
from .errors import AccuracyRegression, UsageError
from .library import E_FILE, FORMATS, FUNCTIONS, LibraryError, call, library, pointer

REPORT_SIZE = 1 << 16
# keyword argument: the bound's name in a baseline section (README, "Baselines").
BOUND_NAMES = {"max_ulp": "max_ulp", "min_correctly_rounded": "correctly_rounded",
               "max_flushed": "flushed_to_zero", "max_nan": "nan", "max_inf": "inf",
               "max_wrong_zero_sign": "wrong_zero_sign"}


class BaselineError(UsageError, ValueError):
    """A baseline file the library's reader refused (unreadable, malformed,
    of another format or function); ``status`` 2 as 'gelu-acc check' exits."""

    def __init__(self, message):
        self.command, self.status, self.message, self.output = ["libgelu-acc"], 2, message, ""
        self.exceeded = []
        Exception.__init__(self, message)


def default_domain(format_name):
    """The domain of 'gelu-acc inputs' without --domain."""
    return "all" if FORMATS[format_name] >= FORMATS["float16"] else "stride:4096"


def inputs(format_name, domain=None):
    """The inputs of a domain (all, random:N[:SEED], stride:K, range:A:B) as
    a NumPy array (bfloat16 and smaller formats: their unsigned encodings)."""
    if format_name not in FORMATS:
        raise ValueError("unknown format %r (known: %s)" % (format_name, ", ".join(FORMATS)))
    domain = default_domain(format_name) if domain is None else domain
    data, n = ctypes.c_void_p(), ctypes.c_size_t()
    call("gelu_acc_inputs", FORMATS[format_name], domain.encode(), ctypes.byref(data),
         ctypes.byref(n))
    try:
        dtype = {"float64": np.float64, "float32": np.float32, "float16": np.float16,
                 "bfloat16": np.uint16}.get(format_name, np.uint8)
        size = np.dtype(dtype).itemsize * n.value
        return np.frombuffer(ctypes.string_at(data, size), dtype=dtype).copy()
    finally:
        library().gelu_acc_free(data)


def bounds_text(bounds, extra):
    """The lines of a baseline section for the keyword bounds and ``extra``
    (lines of the section's syntax); TypeError/ValueError for a bad value."""
    lines = []
    for keyword, value in bounds.items():
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise TypeError("%s must be a number, not %r" % (keyword, value))
        if math.isnan(value) or value < 0:
            raise ValueError("%s must be a number >= 0, not %r" % (keyword, value))
        if keyword != "max_ulp" and value != int(value):
            raise ValueError("%s is a count: %r is not a whole number" % (keyword, value))
        lines.append("%s = %s" % (BOUND_NAMES[keyword],
                                  repr(float(value)) if keyword == "max_ulp" else int(value)))
    if extra is not None:
        if not isinstance(extra, str):
            raise TypeError("bounds must be a string of 'name = value' lines, not %r" % (extra,))
        lines.append(extra)
    return "\n".join(lines) + "\n"


class Grader:
    """A libgelu-acc grader of one function and format."""

    def __init__(self, reference, format_name):
        if reference not in ("gelu", "gelu_tanh"):
            raise ValueError("reference must be 'gelu' or 'gelu_tanh', not %r" % (reference,))
        self.format = format_name
        self.handle = ctypes.c_void_p()
        call("gelu_acc_grader_new", FUNCTIONS[reference], FORMATS[format_name],
             ctypes.byref(self.handle))

    def __del__(self):
        if getattr(self, "handle", None):
            library().gelu_acc_grader_free(self.handle)

    def add(self, x, y):
        x_op, y_op = operand(x, self.format if x.dtype.kind == "u" else None, "x"), \
            operand(y, self.format if y.dtype.kind == "u" else None, "kernel output")
        call("gelu_acc_grader_add", self.handle, pointer(x_op.bits), pointer(y_op.bits),
             x_op.bits.size)

    def check(self, function, *args):
        exceeded, report = ctypes.c_int(), ctypes.create_string_buffer(REPORT_SIZE)
        try:
            call(function, self.handle, *args, ctypes.byref(exceeded), report, REPORT_SIZE)
        except LibraryError as error:
            if error.status == E_FILE:
                raise BaselineError(str(error)) from None
            raise
        except ValueError as error:
            raise BaselineError(str(error)) from None
        return exceeded.value, report.value.decode("utf-8", "replace")


def run_kernel(fn, format_name, x, batch, check_outputs):
    """fn's outputs on x, all at once or ``batch`` at a time, checked."""
    if batch is None:
        y = fn(x.copy())
        check_outputs(format_name, x, y)
        return y
    parts = []
    for start in range(0, x.shape[0], batch):
        xs = x[start:start + batch].copy()
        y = fn(xs)
        check_outputs(format_name, xs, y)
        parts.append(y)
    return np.concatenate(parts) if parts else x[:0].copy()


def check_in_process(fn, format_name, check_outputs, baseline=None, section=None, domain=None,
                     batch=None, reference="gelu", bounds=None, keyword_bounds=None):
    """The body of assert_accuracy when nothing is to be written."""
    name = getattr(fn, "__name__", "kernel")
    text = bounds_text(keyword_bounds or {}, bounds)
    chosen = None
    if baseline is not None:
        path = os.fspath(baseline)
        with open(path, encoding="utf-8") as f:
            sections = _baseline.read_sections(f.read())
        chosen = _baseline.select(sections, path, format_name, section)
        reference = chosen.settings.get("reference", "gelu")
    elif text.strip() == "":
        raise ValueError("assert_accuracy needs bounds (max_ulp=, min_correctly_rounded=, "
                         "max_flushed=, ..., bounds=) or a baseline file")
    grader = Grader(reference, format_name)
    x = inputs(format_name, domain)
    grader.add(x, run_kernel(fn, format_name, x, batch, check_outputs))
    exceeded, lines = 0, []
    if chosen is not None:
        count, report = grader.check("gelu_acc_grader_check_baseline", path.encode(),
                                     chosen.name.encode())
        exceeded, lines = exceeded + count, lines + report.splitlines()
    if text.strip():
        count, report = grader.check("gelu_acc_grader_check_bounds", text.encode())
        exceeded, lines = exceeded + count, lines + report.splitlines()
    label = chosen.name if chosen is not None else name
    if exceeded:
        raise AccuracyRegression(["libgelu-acc", "check"], 1, "FAIL %s: %d bounds exceeded\n%s"
                                 % (label, exceeded, "\n".join(lines)), "\n".join(lines))
    return "PASS %s (%d inputs of %s, %s)\n" % (label, x.size, format_name, reference)
