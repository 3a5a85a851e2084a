"""The correctly rounded truth of GELU inside your tests, from Python.

    gelu_acc.assert_gelu_close(my_gelu(x), x, max_ulp=1)    # x: NumPy array or torch tensor
    want = gelu_acc.golden(x, approximate="tanh")            # same type, dtype, shape, device
    dx = gelu_acc.golden_backward(x, dy)                     # RN(dy * gelu'(x))
    err = gelu_acc.ulp_error(my_gelu(x), x)                  # float64 ulp errors
    gelu_acc.assert_accuracy(fn, "bfloat16", max_ulp=1, max_flushed=0)
    figures = gelu_acc.compare(old_fn, new_fn, "bfloat16")  # input by input, + Markdown

golden, golden_backward, ulp_error, assert_gelu_close and assert_accuracy
(with inline bounds, or a baseline file without update=) call libgelu-acc
in-process through ctypes: no subprocess, no file (library.py says where
the library is found).  grade, compare, inputs and assert_accuracy(update=True)
still run the gelu-acc program (``program`` argument, $GELU_ACC or
$PATH): its failures raise UsageError (exit 2), AccuracyRegression (exit 1
from check), OracleCapError (exit 3) or GeluAccError.

Arrays: NumPy float64, float32, float16; bfloat16 and the FP8/FP6/FP4
formats as unsigned encodings with format="bfloat16", ...; torch tensors
of float64, float32, float16 and bfloat16 (torch stays optional).  Any
other dtype is refused (TypeError), never converted; to_bfloat16 rounds
float32 results explicitly.
"""
import json
import os
import tempfile

import numpy as np

from . import accuracy as _accuracy
from . import baseline as _baseline
from .assertions import assert_gelu_close
from .errors import AccuracyRegression, GeluAccError, OracleCapError, ProgramNotFound, UsageError
from .formats import DTYPES, check_outputs, dtype_for, from_bfloat16, to_bfloat16
from .errors import LibraryError, LibraryNotFound
from .library import path as library_path, version as library_version
from .program import find_program, run
from .truth import golden, golden_backward, ulp_error

__version__ = "0.1.0"
__all__ = ["golden", "golden_backward", "ulp_error", "assert_gelu_close", "compare",
           "library_version", "library_path", "LibraryError", "LibraryNotFound", "grade",
           "assert_accuracy", "inputs", "to_bfloat16", "from_bfloat16", "find_program",
           "DTYPES", "GeluAccError", "UsageError", "AccuracyRegression", "OracleCapError",
           "ProgramNotFound"]


def _options(threads=None, oracle=None):
    return (["--threads", str(threads)] if threads is not None else []) + \
           (["--oracle", oracle] if oracle is not None else [])


def _write_inputs(program, path, format_name, domain):
    """Writes the domain's inputs (all, random:N, stride:K, range:A:B, file:PATH)."""
    run(program, ["inputs", "--format", format_name, "-o", path, "--force"]
        + (["--domain", domain] if domain is not None else []))


def _compute(fn, format_name, inputs_path, outputs_path, batch):
    """Calls fn on the inputs (all at once, or ``batch`` at a time) and saves
    its outputs, refusing any of the wrong dtype or length."""
    x = np.load(inputs_path, mmap_mode="r")
    if batch is None:
        xs = np.array(x)
        y = fn(xs)
        check_outputs(format_name, xs, y)
        np.save(outputs_path, y)
        return
    out = np.lib.format.open_memmap(outputs_path, mode="w+", dtype=dtype_for(format_name),
                                    shape=x.shape)
    for start in range(0, x.shape[0], batch):
        xs = np.array(x[start:start + batch])
        y = fn(xs)
        check_outputs(format_name, xs, y)
        out[start:start + batch] = y
    out.flush()
    del out


def _kernel_name(fn):
    name = getattr(fn, "__name__", type(fn).__name__)
    return "kernel" if name.startswith("<") else name


def inputs(format_name, domain=None, program=None):
    """The inputs of a domain (default: every input of a format of at most
    16 bits, every 4096th float32) as a NumPy array (bfloat16: uint16
    encodings), from libgelu-acc in-process (``program`` is unused, kept for
    callers of earlier versions)."""
    return _accuracy.inputs(format_name, domain)


def grade(fn, format_name, domain=None, reference="gelu", name=None, program=None,
          workdir=None, batch=None, threads=None, oracle=None):
    """Runs fn on the inputs of ``domain`` (default: every input of a 16-bit
    format, every 4096th float32) and returns gelu-acc's JSON summary of its
    accuracy against ``reference`` (gelu or gelu_tanh) as a dict: count,
    correctly_rounded, faithful, max_ulp, ..., regions (README, "JSON").
    ``workdir`` keeps the inputs and outputs files there (default: a
    temporary directory); ``batch`` calls fn on that many inputs at a time."""
    dtype_for(format_name)
    program = find_program(program)
    with tempfile.TemporaryDirectory(prefix="gelu-acc-") as tmp:
        folder = tmp if workdir is None else os.fspath(workdir)
        inputs_path = os.path.join(folder, "inputs-%s.npy" % format_name)
        outputs_path = os.path.join(folder, "outputs-%s.npy" % format_name)
        _write_inputs(program, inputs_path, format_name, domain)
        _compute(fn, format_name, inputs_path, outputs_path, batch)
        text = run(program, ["grade", "--format", format_name, "--inputs", inputs_path,
                             "--outputs", outputs_path, "--reference", reference,
                             "--name", name or _kernel_name(fn), "--json"]
                   + _options(threads, oracle))
    return json.loads(text)[0]


def compare(fn_a, fn_b, format_name, domain=None, reference=None, names=None, program=None,
            workdir=None, batch=None, threads=None, oracle=None, backward=False):
    """Runs fn_a and fn_b on the same inputs of ``domain`` and returns
    'gelu-acc compare's JSON figures as a dict (doc/compare.md): improved,
    worsened, unchanged, buckets of each side, regressions, improvements,
    worse_ranges, sides; and under "markdown" the block to paste into a pull
    request.  ``names`` (a pair) names the sides, default the functions'
    names; the other arguments as for grade() (``reference`` default gelu).

    ``backward=True`` compares backward kernels fn(x, dy) -> dx pair by pair
    against RN(dy gelu'(x)) ('gelu-acc compare --backward'; ``reference``
    default gelu_grad): ``domain`` is the pairs, a tuple (x, dy) of arrays of
    the format's dtype, or N for N pairs drawn uniformly from every encoding
    (seed 1; default 65536)."""
    dtype_for(format_name)
    program = find_program(program)
    names = names or (_kernel_name(fn_a), _kernel_name(fn_b))
    with tempfile.TemporaryDirectory(prefix="gelu-acc-") as tmp:
        folder = tmp if workdir is None else os.fspath(workdir)
        inputs_path = os.path.join(folder, "inputs-%s.npy" % format_name)
        outputs = [os.path.join(folder, "outputs-%s-%s.npy" % (side, format_name))
                   for side in "ab"]
        if backward:
            dy_path = os.path.join(folder, "dy-%s.npy" % format_name)
            x, dy = _pairs(format_name, domain)
            np.save(inputs_path, x)
            np.save(dy_path, dy)
            for fn, path in zip((fn_a, fn_b), outputs):
                dx = fn(x, dy)
                check_outputs(format_name, x, dx)
                np.save(path, dx)
            extra = ["--backward", "--dy-inputs", dy_path]
        else:
            _write_inputs(program, inputs_path, format_name, domain)
            for fn, path in zip((fn_a, fn_b), outputs):
                _compute(fn, format_name, inputs_path, path, batch)
            extra = []
        reference = reference or ("gelu_grad" if backward else "gelu")
        args = ["compare", "outputs:" + outputs[0], "outputs:" + outputs[1], "--inputs",
                inputs_path, "--format", format_name, "--reference", reference,
                "--name-a", names[0], "--name-b", names[1]] + extra + _options(threads, oracle)
        figures = json.loads(run(program, args + ["--json"]))
        figures["markdown"] = run(program, args + ["--markdown"])
    return figures


def _pairs(format_name, domain):
    """The pairs (x, dy) of a backward comparison: the caller's, or N drawn
    uniformly from every encoding of a 16- or 32-bit format."""
    want = np.dtype(dtype_for(format_name))
    if isinstance(domain, tuple):
        x, dy = (np.asarray(v) for v in domain)
        for name, v in (("x", x), ("dy", dy)):
            if v.dtype != want or v.shape != x.shape or v.ndim != 1:
                raise ValueError("the pairs' %s is %s of shape %s: give one-dimensional x and "
                                 "dy of %s, of one length" % (name, v.dtype, v.shape, want))
        return x, dy
    n = 65536 if domain is None else int(domain)
    words = np.random.default_rng(1).integers(0, 2 ** (8 * want.itemsize), (2, n),
                                              dtype=np.uint64)
    bits = words.astype(np.uint16 if want.itemsize == 2 else np.uint32)
    return bits[0].view(want), bits[1].view(want)


def assert_accuracy(fn, format_name, baseline=None, section=None, domain=None, update=False,
                    program=None, batch=None, threads=None, reference="gelu", bounds=None,
                    max_ulp=None, min_correctly_rounded=None, max_flushed=None, max_nan=None,
                    max_inf=None, max_wrong_zero_sign=None):
    """Runs fn on the inputs of ``domain`` (default: every input of a 16-bit
    format, every 4096th float32) and checks its outputs against bounds:
    inline ones (``max_ulp``, ``min_correctly_rounded``, ``max_flushed``,
    ``max_nan``, ``max_inf``, ``max_wrong_zero_sign``, and ``bounds``, lines
    of a baseline section such as "left_tail.max_ulp = 4\nzero_below =
    none"), graded against ``reference`` (gelu or gelu_tanh); and/or one
    section of a gelu-acc baseline file: the section named ``section``, else
    the only one with 'kernel = outputs:FILE' and this format, read by
    libgelu-acc's reader (the one of 'gelu-acc check'), its reference
    taken from the section.  All in-process; returns a "PASS ..." line.
    Raises AccuracyRegression (an AssertionError) listing each exceeded
    bound with an input that shows it, BaselineError (a UsageError and a
    ValueError) for a baseline the reader refuses.

    ``update=True`` records the measured figures in the baseline's section
    instead: that runs the gelu-acc program ('check --update-baseline',
    which writes the section's inputs and outputs files where it says)."""
    keyword_bounds = {"max_ulp": max_ulp, "min_correctly_rounded": min_correctly_rounded,
                      "max_flushed": max_flushed, "max_nan": max_nan, "max_inf": max_inf,
                      "max_wrong_zero_sign": max_wrong_zero_sign}
    if not update:
        return _accuracy.check_in_process(fn, format_name, check_outputs, baseline, section,
                                          domain, batch, reference, bounds, keyword_bounds)
    if baseline is None:
        raise ValueError("update=True needs a baseline file to record the figures in")
    path = os.fspath(baseline)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    chosen = _baseline.select(_baseline.read_sections(text), path, format_name, section)
    program = find_program(program)
    base = os.path.dirname(os.path.abspath(path))
    inputs_path = os.path.join(base, chosen.settings["inputs"])
    outputs_path = os.path.join(base, chosen.outputs_file())
    _write_inputs(program, inputs_path, format_name, domain)
    _compute(fn, format_name, inputs_path, outputs_path, batch)
    lines = text.splitlines()
    with tempfile.TemporaryDirectory(prefix="gelu-acc-") as tmp:
        single = os.path.join(tmp, "section.baseline")
        with open(single, "w", encoding="utf-8") as f:
            f.write("\n".join(_baseline.with_paths(lines[chosen.first:chosen.last + 1],
                                                   outputs_path, inputs_path)) + "\n")
        report = run(program, ["check", "--baseline", single]
                     + (["--update-baseline"] if update else []) + _options(threads),
                     regression_status=1)
        if update:
            _record(path, lines, chosen, single)
    return report


def _record(path, lines, chosen, updated_path):
    """Replaces the chosen section of the baseline at path with the one
    gelu-acc rewrote, keeping the section's own kernel and inputs paths."""
    with open(updated_path, encoding="utf-8") as f:
        updated = f.read()
    new = _baseline.read_sections(updated)[0]
    new_lines = _baseline.with_paths(updated.splitlines()[new.first:new.last + 1],
                                     chosen.outputs_file(), chosen.settings["inputs"])
    lines[chosen.first:chosen.last + 1] = new_lines
    temporary = path + ".tmp"
    with open(temporary, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(temporary, path)
