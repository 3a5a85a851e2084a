#!/usr/bin/python3
"""Writes the .npy test files of tests/npy_test.c with NumPy itself.

Run from this directory with Debian's NumPy (apt-get install python3-numpy):
    /usr/bin/python3 make.py
Written with NumPy 1.24.2 (Debian 12).  Each array file X.npy that holds
encodings has X.txt beside it: one hex encoding per line, taken with
a.view(uint) -- NumPy's own idea of the bits, independent of the C reader.
"""
import numpy as np

# 16 values per format: signed zeros, +-1, an inexact value, extremes,
# subnormals, infinities, a NaN.
F32 = ["0.0", "-0.0", "1.0", "-1.0", "0.1", "-2.5", "0.5", "2.0",
       "3.4028235e38", "1.17549435e-38", "1e-45", "-1e-40",
       "inf", "-inf", "nan", "65504.0"]
F16 = ["0.0", "-0.0", "1.0", "-1.0", "0.1", "-2.5", "0.5", "2.0",
       "65504.0", "6.1035156e-05", "6e-08", "-3e-05",
       "inf", "-inf", "nan", "0.33325195"]
# bfloat16 has no NumPy dtype: its encodings are the high halves of float32
# encodings, stored as '<u2'.  These values are bfloat16 values exactly, so
# truncating the float32 bits is exact.
BF16 = ["0.0", "-0.0", "1.0", "-1.0", "0.10009765625", "-2.5", "0.5", "2.0",
        "3.3895314e38", "1.1754944e-38", "9.183549615799121e-41", "-5.877471754111438e-39",
        "inf", "-inf", "nan", "65536.0"]


def save_with_bits(name, a, bits_dtype):
    np.save(name + ".npy", a)
    with open(name + ".txt", "w") as f:
        width = 2 * a.dtype.itemsize
        for b in a.view(bits_dtype):
            f.write("0x%0*x\n" % (width, int(b)))


def main():
    f32 = np.array([float(v) for v in F32], dtype="<f4")
    f16 = np.array([float(v) for v in F16], dtype="<f2")
    b32 = np.array([float(v) for v in BF16], dtype="<f4").view("<u4")
    bf16 = (b32 >> 16).astype("<u2")
    # The values chosen are exact in bfloat16 except NaN's low bits.
    exact = ~np.isnan(np.array([float(v) for v in BF16], dtype="<f4"))
    assert np.all((b32[exact] & 0xffff) == 0), "a bfloat16 value is not exact"

    save_with_bits("f32", f32, "<u4")
    save_with_bits("f16", f16, "<u2")
    save_with_bits("bf16", bf16, "<u2")

    # Version 2.0 header (4-byte header length).
    with open("f32_v2.npy", "wb") as f:
        np.lib.format.write_array(f, f32, version=(2, 0))
    # Big-endian float32.
    np.save("f32_be.npy", f32.astype(">f4"))
    # 2-D in Fortran order: shape (4, 4), fortran_order True.
    np.save("f32_2d_fortran.npy", np.asfortranarray(f32.reshape(4, 4)))
    # float64: the format float64, and the wrong dtype for every other one.
    np.save("f64.npy", f32.astype("<f8"))
    # Truncated: the float32 file without its last 3 bytes.
    data = open("f32.npy", "rb").read()
    open("f32_truncated.npy", "wb").write(data[:-3])
    # Trailing bytes: the float32 file with 4 extra bytes.
    open("f32_trailing.npy", "wb").write(data + b"\0\0\0\0")
    # 1-D with fortran_order True (NumPy never writes it; np.load reads it
    # as the same array): the header edited in place, length unchanged.
    edited = data.replace(b"'fortran_order': False", b"'fortran_order': True ", 1)
    assert edited != data
    open("f32_1d_fortran.npy", "wb").write(edited)
    assert np.array_equal(np.load("f32_1d_fortran.npy").view("<u4"), f32.view("<u4"))
    # Version 2.0 read back by NumPy equals the original.
    assert np.array_equal(np.load("f32_v2.npy").view("<u4"), f32.view("<u4"))


if __name__ == "__main__":
    main()
