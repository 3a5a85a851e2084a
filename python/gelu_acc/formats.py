"""The formats and how their arrays travel: float32 '<f4', float16 '<f2',
bfloat16 as its uint16 encodings '<u2' (NumPy has no bfloat16)."""
import numpy as np

DTYPES = {
    "float64": np.dtype("<f8"),
    "float32": np.dtype("<f4"),
    "float16": np.dtype("<f2"),
    "bfloat16": np.dtype("<u2"),
    "float8_e4m3fn": np.dtype("u1"),
    "float8_e5m2": np.dtype("u1"),
    "float6_e2m3": np.dtype("u1"),
    "float6_e3m2": np.dtype("u1"),
    "float4_e2m1": np.dtype("u1"),
}


def dtype_for(format_name):
    """The NumPy dtype of a format's arrays; ValueError for an unknown name."""
    try:
        return DTYPES[format_name]
    except KeyError:
        raise ValueError("unknown format '%s' (known: %s)"
                         % (format_name, ", ".join(DTYPES))) from None


def to_bfloat16(values):
    """bfloat16 encodings (uint16) of a float32 array, rounded to nearest with
    ties to even; a NaN stays a NaN (quiet, its sign kept), infinities stay,
    values beyond the largest bfloat16 round to infinity as IEEE 754 says."""
    values = np.asarray(values)
    if values.dtype != np.float32:
        raise TypeError("to_bfloat16 takes float32 arrays, not %s: rounding from a wider type "
                        "through float32 would round twice" % values.dtype)
    bits = values.view(np.uint32).astype(np.uint64)
    # Adding 0x7fff plus the lowest kept bit carries into the kept bits exactly
    # when the dropped half is above a tie, or a tie with an odd kept part.
    rounded = (bits + 0x7fff + ((bits >> 16) & 1)) >> 16
    # A NaN whose payload lies in the dropped bits would become infinity:
    # keep its top bits and set the quiet bit instead.
    quiet = (bits >> 16) | 0x40
    return np.where(np.isnan(values), quiet, rounded).astype(np.uint16)


def from_bfloat16(encodings):
    """The float32 values of bfloat16 encodings (exact: bfloat16 is the top
    half of float32)."""
    encodings = np.asarray(encodings)
    if encodings.dtype != np.uint16:
        raise TypeError("from_bfloat16 takes uint16 encodings, not %s" % encodings.dtype)
    return (encodings.astype(np.uint32) << 16).view(np.float32)


def check_outputs(format_name, inputs, outputs):
    """Refuses outputs that are not an array of the format's dtype and the
    inputs' length: gelu-acc grades encodings, so a silent conversion would
    grade something other than the kernel."""
    want = dtype_for(format_name)
    if not isinstance(outputs, np.ndarray):
        raise TypeError(
            "the kernel returned %s, not a NumPy array; for a torch tensor return "
            "t.cpu().numpy() (bfloat16: t.view(torch.int16).cpu().numpy().view(np.uint16))"
            % type(outputs).__name__)
    if outputs.shape != inputs.shape:
        raise ValueError("the kernel returned shape %s for inputs of shape %s"
                         % (outputs.shape, inputs.shape))
    if outputs.dtype == want:
        return
    hint = ""
    if format_name == "bfloat16" and outputs.dtype == np.float32:
        hint = ("; to round float32 results to bfloat16 (to nearest, ties to even), "
                "return gelu_acc.to_bfloat16(y)")
    elif format_name == "bfloat16" and outputs.dtype == np.int16:
        hint = "; return y.view(np.uint16)"
    elif outputs.dtype.kind == "f" and outputs.dtype.byteorder == ">":
        hint = "; return y.astype(y.dtype.newbyteorder('<'))"
    raise TypeError("the kernel returned dtype %s for %s; expected %s%s"
                    % (outputs.dtype, format_name, want, hint))


# (exponent bits, mantissa bits, bias, the top exponent holds inf/NaN (IEEE),
# NaN encodings of the magnitude) of the formats that travel as uint8.
MINIFLOATS = {"float8_e4m3fn": (4, 3, 7, False, {0x7f}), "float8_e5m2": (5, 2, 15, True, set()),
              "float6_e2m3": (2, 3, 1, False, set()), "float6_e3m2": (3, 2, 3, False, set()),
              "float4_e2m1": (2, 1, 1, False, set())}


def value_of(format_name, bits):
    """The value (a Python float) of one element as the library sees it:
    a float of float64/32/16, or an encoding (bfloat16 and the small
    formats).  For messages: the library itself computes in exact arithmetic."""
    if format_name in ("float64", "float32", "float16"):
        return float(bits)
    bits = int(bits)
    if format_name == "bfloat16":
        return float(from_bfloat16(np.array([bits], dtype=np.uint16))[0])
    exponent_bits, mantissa_bits, bias, ieee, nans = MINIFLOATS[format_name]
    width = 1 + exponent_bits + mantissa_bits
    sign = -1.0 if bits >> (width - 1) & 1 else 1.0
    magnitude = bits & ((1 << (width - 1)) - 1)
    exponent, mantissa = magnitude >> mantissa_bits, magnitude & ((1 << mantissa_bits) - 1)
    if magnitude in nans or (ieee and exponent == (1 << exponent_bits) - 1 and mantissa):
        return float("nan")
    if ieee and exponent == (1 << exponent_bits) - 1:
        return sign * float("inf")
    if exponent == 0:
        return sign * mantissa * 2.0 ** (1 - bias - mantissa_bits)
    return sign * (1 + mantissa / 2.0 ** mantissa_bits) * 2.0 ** (exponent - bias)


def encoding_of(format_name, bits):
    """The encoding of one element as an integer (floats by their bits)."""
    if format_name == "float64":
        return int(np.array([bits], dtype=np.float64).view(np.uint64)[0])
    if format_name == "float32":
        return int(np.array([bits], dtype=np.float32).view(np.uint32)[0])
    if format_name == "float16":
        return int(np.array([bits], dtype=np.float16).view(np.uint16)[0])
    return int(bits)
