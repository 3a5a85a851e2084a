"""The user's arrays as the library sees them: a format and a C-contiguous
one-dimensional NumPy array of its encodings, and the way back to the
user's type, dtype, shape and device.  Nothing is converted: a dtype that
is not exactly a format's raises TypeError.

NumPy: float64, float32 and float16 arrays (native byte order) are their
own formats; bfloat16 travels as uint16 encodings and the FP8, FP6 and FP4
formats as uint8 encodings, named by format=.  PyTorch (imported only when
the caller already has): float64, float32, float16 and bfloat16 tensors,
on any device (computed on the CPU, returned on the tensor's device)."""
import sys

import numpy as np

from .library import FORMATS

NUMPY_FLOATS = {np.dtype("float64"): "float64", np.dtype("float32"): "float32",
                np.dtype("float16"): "float16"}
# The formats that travel as unsigned encodings in NumPy.
ENCODED = {"bfloat16": np.dtype("uint16"), "float8_e4m3fn": np.dtype("uint8"),
           "float8_e5m2": np.dtype("uint8"), "float6_e2m3": np.dtype("uint8"),
           "float6_e3m2": np.dtype("uint8"), "float4_e2m1": np.dtype("uint8")}


class Operand:
    """One array: ``format``, ``bits`` (the encodings, flat, C-contiguous)
    and ``wrap(bits)``, which gives an array of results the input's type."""

    def __init__(self, format_name, bits, wrap, kind, dtype, shape):
        self.format, self.bits, self.wrap = format_name, bits, wrap
        self.kind, self.dtype, self.shape = kind, dtype, shape


def _torch():
    """PyTorch if the caller has imported it (a tensor cannot exist otherwise)."""
    return sys.modules.get("torch")


def is_tensor(x):
    torch = _torch()
    return torch is not None and isinstance(x, torch.Tensor)


def _known_format(format_name):
    if format_name is not None and format_name not in FORMATS:
        raise ValueError("unknown format %r (known: %s)" % (format_name, ", ".join(FORMATS)))


def _numpy_operand(x, format_name, what):
    dtype = x.dtype
    if dtype in NUMPY_FLOATS and dtype.isnative:
        own = NUMPY_FLOATS[dtype]
        if format_name not in (None, own):
            raise TypeError("%s: a %s array holds %s values, not %s encodings%s"
                            % (what, dtype, own, format_name,
                               "" if format_name not in ENCODED else
                               " (pass its %s encodings)" % ENCODED[format_name]))
        format_name = own
    elif format_name in ENCODED and dtype == ENCODED[format_name]:
        pass
    else:
        if format_name is None and dtype in (np.dtype("uint16"), np.dtype("uint8")):
            hint = ("; unsigned integers are encodings only with format= (bfloat16 for uint16; "
                    "float8_e4m3fn, float8_e5m2, float6_e2m3, float6_e3m2 or float4_e2m1 for uint8)")
        elif format_name in ENCODED:
            hint = "; %s travels as %s encodings" % (format_name, ENCODED[format_name])
        elif dtype.kind == "f" and not dtype.isnative:
            hint = "; byte-swap it first: x.astype(x.dtype.newbyteorder('='))"
        else:
            hint = " (float64, float32, float16, or encodings with format=)"
        raise TypeError("%s: unsupported dtype %s%s" % (what, dtype, hint))
    shape = x.shape
    bits = np.ascontiguousarray(x).reshape(-1)
    return Operand(format_name, bits, lambda out: out.reshape(shape), "numpy", dtype, shape)


def _tensor_operand(x, format_name, what):
    torch = _torch()
    formats = {torch.float64: "float64", torch.float32: "float32", torch.float16: "float16",
               torch.bfloat16: "bfloat16"}
    if x.dtype not in formats:
        raise TypeError("%s: unsupported tensor dtype %s (float64, float32, float16, bfloat16)"
                        % (what, x.dtype))
    own = formats[x.dtype]
    if format_name not in (None, own):
        raise TypeError("%s: a %s tensor is %s, not %s" % (what, x.dtype, own, format_name))
    device, dtype, shape = x.device, x.dtype, tuple(x.shape)
    cpu = x.detach().to("cpu").contiguous().reshape(-1)
    if dtype == torch.bfloat16:
        bits = cpu.view(torch.int16).numpy().view(np.uint16)
    else:
        bits = cpu.numpy()

    def wrap(out):
        if dtype == torch.bfloat16:
            result = torch.from_numpy(out.view(np.int16)).view(torch.bfloat16)
        else:
            result = torch.from_numpy(out)
        return result.reshape(shape).to(device)
    return Operand(own, bits, wrap, "torch", dtype, shape)


def operand(x, format_name=None, what="x"):
    """The Operand of x; TypeError for any other type or dtype, ValueError
    for an unknown format name."""
    _known_format(format_name)
    if is_tensor(x):
        return _tensor_operand(x, format_name, what)
    if isinstance(x, np.ndarray):
        return _numpy_operand(x, format_name, what)
    raise TypeError("%s: expected a NumPy array or a torch tensor, not %s"
                    % (what, type(x).__name__))


def operands(first, second, names, format_name=None):
    """Two arrays that go together (an output and its input, x and dy): of
    one type, dtype and shape, else TypeError (type, dtype) or ValueError
    (shape)."""
    a = operand(first, format_name, names[0])
    b = operand(second, format_name, names[1])
    if a.kind != b.kind:
        raise TypeError("%s is a %s array and %s a %s one: pass both of one kind"
                        % (names[0], a.kind, names[1], b.kind))
    if a.dtype != b.dtype:
        raise TypeError("%s has dtype %s and %s %s: pass both of one dtype"
                        % (names[0], a.dtype, names[1], b.dtype))
    if a.shape != b.shape:
        raise ValueError("%s has shape %s and %s %s: shapes must match"
                         % (names[0], a.shape, names[1], b.shape))
    return a, b
