"""A pytest test of a NumPy GELU on every bfloat16 input (pip install ./python)."""
import math

import numpy as np

import gelu_acc

erfc = np.vectorize(math.erfc, otypes=[np.float64])


def my_gelu_bf16(bits):                          # bfloat16 travels as uint16 encodings
    with np.errstate(invalid="ignore"):          # NaN inputs give NaN
        x = gelu_acc.from_bfloat16(bits).astype(np.float64)
        y = 0.5 * x * erfc(-x / math.sqrt(2.0))  # erfc: no cancellation for x < 0
    y = np.where(x == -np.inf, -0.0, y)          # the limit, not -inf * 0
    return gelu_acc.to_bfloat16(y.astype(np.float32))


def test_my_gelu_is_faithful_on_every_bfloat16_input():
    report = gelu_acc.grade(my_gelu_bf16, "bfloat16")
    assert report["count"] == 65536
    assert report["faithful"] == report["count"], report["max_ulp_input"]
