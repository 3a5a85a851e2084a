"""The in-process half of gelu_acc (golden, golden_backward, ulp_error,
assert_gelu_close, assert_accuracy with inline bounds) against values
established without it: 'gelu-acc truth --oracle mpfr' (MPFR's Ziv loop
alone, not the library's fast path), properties of the backward, and
kernels mutated at one input.  unittest classes, for pytest or unittest.
$GELU_ACC names the program; the library is found as library.py says."""
import os
import subprocess
import unittest

import numpy as np

import gelu_acc

try:
    import torch
except ImportError:
    torch = None

PROGRAM = gelu_acc.find_program()
FUNCTIONS = {("none", False): "gelu", ("tanh", False): "gelu_tanh",
             ("none", True): "gelu_grad", ("tanh", True): "gelu_tanh_grad"}


def mpfr_truth(format_name, function, encodings=None):
    """(input encodings, output encodings, output is NaN) from the MPFR oracle."""
    args = [PROGRAM, "truth", "--oracle", "mpfr", "--format", format_name, "--function", function]
    stdin = None
    if encodings is None:
        args.append("--all")
    else:
        args += ["--bits", "--input", "-"]
        stdin = "".join("0x%x\n" % int(e) for e in encodings)
    out = subprocess.run(args, input=stdin, stdout=subprocess.PIPE, check=True,
                         universal_newlines=True).stdout.split("\n")
    rows = [line.split() for line in out if line]
    return (np.array([int(r[0], 16) for r in rows], dtype=np.uint64),
            np.array([int(r[1], 16) for r in rows], dtype=np.uint64),
            np.array(["nan" in r[3].lower() for r in rows]))


def bits_of(array):
    """The encodings of an array as uint64 (floats by their bits)."""
    unsigned = {8: np.uint64, 4: np.uint32, 2: np.uint16, 1: np.uint8}[array.dtype.itemsize]
    return array.view(unsigned).astype(np.uint64)


def every(format_name):
    """Every encoding of a format of at most 16 bits, as the module takes it."""
    if format_name == "float16":
        return np.arange(65536, dtype=np.uint32).astype(np.uint16).view(np.float16)
    if format_name == "bfloat16":
        return np.arange(65536, dtype=np.uint32).astype(np.uint16)
    width = {"float8_e4m3fn": 8, "float8_e5m2": 8, "float6_e2m3": 6, "float6_e3m2": 6,
             "float4_e2m1": 4}[format_name]
    return np.arange(1 << width, dtype=np.uint8)


class GoldenAgainstMpfr(unittest.TestCase):
    def assert_same(self, format_name, x, function, got):
        inputs, want, nan = mpfr_truth(format_name, function, bits_of(x))
        self.assertTrue(np.array_equal(inputs, bits_of(x)), "the oracle read other inputs")
        got_bits = bits_of(got)
        with np.errstate(invalid="ignore"):
            got_nan = np.isnan(got) if got.dtype.kind == "f" else None
        if got_nan is not None:
            self.assertTrue(np.array_equal(got_nan, nan), (format_name, function))
        differ = ~nan & (got_bits != want)
        self.assertFalse(differ.any(), "%s %s: %d differ, first at x = 0x%x"
                         % (format_name, function, differ.sum(),
                            inputs[differ][0] if differ.any() else 0))

    def test_every_16_bit_and_smaller_encoding(self):
        for format_name in ("bfloat16", "float16", "float8_e4m3fn", "float8_e5m2",
                            "float6_e2m3", "float6_e3m2", "float4_e2m1"):
            x = every(format_name)
            fmt = None if x.dtype == np.float16 else format_name
            for (approximate, derivative), function in FUNCTIONS.items():
                got = gelu_acc.golden(x, approximate, derivative, format=fmt)
                self.assertEqual((got.dtype, got.shape), (x.dtype, x.shape))
                self.assert_same(format_name, x, function, got)

    def test_float32_and_float64_samples(self):
        rng = np.random.default_rng(int(os.environ.get("GELU_ACC_SEED", "29")))
        x32 = rng.integers(0, 2**32, 20000, dtype=np.uint64).astype(np.uint32).view(np.float32)
        x32 = np.concatenate([x32, rng.uniform(-10, 10, 20000).astype(np.float32)])
        for key, function in FUNCTIONS.items():
            self.assert_same("float32", x32, function, gelu_acc.golden(x32, *key))
        x64 = np.concatenate([rng.uniform(-40, 40, 300), rng.standard_normal(300) * 1e-3])
        for approximate in ("none", "tanh"):
            self.assert_same("float64", x64, FUNCTIONS[(approximate, False)],
                             gelu_acc.golden(x64, approximate))

    def test_any_shape_and_layout(self):
        x = np.linspace(-6, 6, 24, dtype=np.float32).reshape(4, 6)
        flat = gelu_acc.golden(np.ascontiguousarray(x.T).reshape(-1))
        got = gelu_acc.golden(x.T)                 # a transposed view: not contiguous
        self.assertEqual(got.shape, (6, 4))
        self.assertTrue(np.array_equal(got.reshape(-1), flat))
        self.assertTrue(np.array_equal(gelu_acc.golden(x[:, ::2]), gelu_acc.golden(x)[:, ::2]))


class Backward(unittest.TestCase):
    def test_unit_and_power_of_two_gradients(self):
        # dy = 1: dx is the correctly rounded derivative; dy = 2^-3: the
        # product is exact scaling, one rounding, so 2^-3 times it (no
        # underflow for |d| >= 2^-100).
        x = np.arange(65536, dtype=np.uint32).astype(np.uint16).view(np.float16)
        for approximate in ("none", "tanh"):
            grad = gelu_acc.golden(x, approximate, derivative=True)
            one = gelu_acc.golden_backward(x, np.ones_like(x), approximate)
            same = np.isnan(grad) & np.isnan(one) | (bits_of(grad) == bits_of(one))
            self.assertTrue(same.all(), approximate)
        x32 = np.random.default_rng(3).uniform(-8, 8, 50000).astype(np.float32)
        grad = gelu_acc.golden(x32, derivative=True)
        scaled = gelu_acc.golden_backward(x32, np.full_like(x32, 0.125))
        keep = np.abs(grad) >= 2.0 ** -100
        self.assertTrue(np.array_equal(scaled[keep], grad[keep] * np.float32(0.125)))

    def test_float64_is_refused(self):
        with self.assertRaisesRegex(ValueError, "float64"):
            gelu_acc.golden_backward(np.zeros(3), np.ones(3))


class Close(unittest.TestCase):
    def setUp(self):
        self.x = np.arange(65536, dtype=np.uint32).astype(np.uint16)
        self.want = gelu_acc.golden(self.x, format="bfloat16")

    def test_golden_passes_and_has_no_error(self):
        gelu_acc.assert_gelu_close(self.want, self.x, max_ulp=0, format="bfloat16")
        ulp = gelu_acc.ulp_error(self.want, self.x, format="bfloat16")
        finite = ~np.isnan(ulp)
        self.assertLessEqual(ulp[finite].max(), 0.5)
        self.assertEqual(np.isnan(ulp).sum(), 2 * 127, "NaN only where x is NaN")

    def mutated(self, index, bits):
        y = self.want.copy()
        y[index] = bits
        return y

    def assert_caught(self, y, pattern, **options):
        with self.assertRaisesRegex(AssertionError, pattern) as caught:
            gelu_acc.assert_gelu_close(y, self.x, format="bfloat16", **options)
        self.assertRegex(str(caught.exception), r"^1 of 65536 elements")
        return str(caught.exception)

    def test_one_wrong_element_is_named(self):
        # x = 1 (0x3f80): two ulps high.
        message = self.assert_caught(self.mutated(0x3f80, int(self.want[0x3f80]) + 2),
                                     "1 over max_ulp=1", max_ulp=1)
        self.assertIn("at 16256: x = 0x3f80 (1.0), expected 0x3f57", message)
        self.assertIn("actual 0x3f59", message)
        gelu_acc.assert_gelu_close(self.mutated(0x3f80, int(self.want[0x3f80]) + 2), self.x,
                                   max_ulp=3, format="bfloat16")

    def test_faults_fail_whatever_max_ulp(self):
        one = 0x3f80
        self.assert_caught(self.mutated(one, 0x7fc0), "1 NaN", max_ulp=np.inf)
        self.assert_caught(self.mutated(one, 0x7f80), "1 infinity", max_ulp=np.inf)
        nan_input = 0x7fc1
        self.assert_caught(self.mutated(nan_input, 0), "1 number where NaN is expected",
                           max_ulp=np.inf)
        ulp = gelu_acc.ulp_error(self.mutated(one, 0x7fc0), self.x, format="bfloat16")
        self.assertEqual(ulp[one], np.inf)

    def test_flush_and_zero_sign(self):
        tiny = 0x8001                      # x = -smallest subnormal: gelu(x) = x/2 rounds to -0
        self.assertEqual(int(self.want[tiny]), 0x8000)
        self.assert_caught(self.mutated(tiny, 0x0000), "1 zero of the wrong sign")
        gelu_acc.assert_gelu_close(self.mutated(tiny, 0), self.x, allow_zero_sign=True,
                                   format="bfloat16")
        subnormal = 0x0003                 # gelu rounds to the subnormal 0x0002
        self.assertEqual(int(self.want[subnormal]), 0x0002)
        message = self.assert_caught(self.mutated(subnormal, 0x0000), "1 flushed to zero")
        self.assertRegex(message, r"actual 0x0 \(0.0\), 1.5 ulp")
        # within max_ulp, a zero is a rounding like any other
        gelu_acc.assert_gelu_close(self.mutated(subnormal, 0x0000), self.x, max_ulp=4,
                                   format="bfloat16")
        gelu_acc.assert_gelu_close(self.mutated(subnormal, 0x0000), self.x, allow_flush=True,
                                   format="bfloat16")
        self.assert_caught(self.mutated(subnormal, 0x8000), "1 flushed to zero",
                           allow_flush=True)
        normal = 0x3f80
        self.assert_caught(self.mutated(normal, 0x0000), "1 flushed to zero", allow_flush=True)


class BadInput(unittest.TestCase):
    def test_type_and_value_errors(self):
        x = np.zeros(4, dtype=np.float32)
        with self.assertRaisesRegex(TypeError, "int64"):
            gelu_acc.golden(np.zeros(4, dtype=np.int64))
        with self.assertRaisesRegex(TypeError, "format="):
            gelu_acc.golden(np.zeros(4, dtype=np.uint16))
        with self.assertRaisesRegex(TypeError, "uint16 encodings"):
            gelu_acc.golden(x, format="bfloat16")
        with self.assertRaisesRegex(TypeError, "NumPy array or a torch tensor"):
            gelu_acc.golden([0.0, 1.0])
        with self.assertRaisesRegex(TypeError, "byte-swap"):
            gelu_acc.golden(x.astype(">f4"))
        with self.assertRaisesRegex(ValueError, "unknown format 'float8'"):
            gelu_acc.golden(np.zeros(4, dtype=np.uint8), format="float8")
        with self.assertRaisesRegex(ValueError, "approximate"):
            gelu_acc.golden(x, approximate="fast")
        with self.assertRaisesRegex(ValueError, "shape"):
            gelu_acc.assert_gelu_close(x[:3], x)
        with self.assertRaisesRegex(TypeError, "dtype"):
            gelu_acc.ulp_error(x.astype(np.float16), x)
        with self.assertRaisesRegex(ValueError, "max_ulp"):
            gelu_acc.assert_gelu_close(x, x, max_ulp=float("nan"))
        with self.assertRaisesRegex(TypeError, "max_ulp"):
            gelu_acc.assert_gelu_close(x, x, max_ulp="1")
        with self.assertRaisesRegex(ValueError, "encoding|bits"):
            gelu_acc.golden(np.array([0x40], dtype=np.uint8), format="float6_e2m3")
        with self.assertRaisesRegex(ValueError, "max_flushed"):
            gelu_acc.assert_accuracy(lambda v: v, "bfloat16", max_flushed=float("nan"))


class InlineBounds(unittest.TestCase):
    def test_bounds_are_checked_in_process(self):
        golden = lambda x: gelu_acc.golden(x, format="bfloat16")
        report = gelu_acc.assert_accuracy(golden, "bfloat16", max_ulp=0.5,
                                          min_correctly_rounded=65536, max_flushed=0)
        self.assertIn("PASS", report)

        def flushing(x):
            y = golden(x)
            y[0x0003] = 0                 # truth 0x0002: one flush
            return y
        with self.assertRaises(gelu_acc.AccuracyRegression) as caught:
            gelu_acc.assert_accuracy(flushing, "bfloat16", max_flushed=0)
        self.assertIn("flushed_to_zero", str(caught.exception))
        gelu_acc.assert_accuracy(flushing, "bfloat16", max_flushed=1, min_correctly_rounded=65535)
        with self.assertRaises(AssertionError):
            gelu_acc.assert_accuracy(flushing, "bfloat16", min_correctly_rounded=65536)
        tanh = lambda x: gelu_acc.golden(x, "tanh")
        gelu_acc.assert_accuracy(tanh, "float32", reference="gelu_tanh", domain="random:5000:1",
                                 max_ulp=0.5)
        with self.assertRaises(AssertionError):
            gelu_acc.assert_accuracy(tanh, "float32", domain="random:5000:1", max_ulp=0.5)


@unittest.skipIf(torch is None, "PyTorch is not installed")
class Tensors(unittest.TestCase):
    def test_every_bfloat16_tensor_matches_the_encodings(self):
        bits = np.arange(65536, dtype=np.uint32).astype(np.uint16)
        t = torch.from_numpy(bits.view(np.int16)).view(torch.bfloat16).reshape(256, 256)
        for approximate in ("none", "tanh"):
            got = gelu_acc.golden(t, approximate)
            self.assertEqual((got.dtype, tuple(got.shape)), (torch.bfloat16, (256, 256)))
            want = gelu_acc.golden(bits, approximate, format="bfloat16")
            self.assertTrue(np.array_equal(got.reshape(-1).view(torch.int16).numpy().view(np.uint16),
                                           want))

    def test_float_tensors_and_errors(self):
        x = torch.linspace(-5, 5, 101, dtype=torch.float32, requires_grad=True)
        got = gelu_acc.golden(x[::2])
        self.assertEqual(got.dtype, torch.float32)
        self.assertTrue(np.array_equal(got.numpy(), gelu_acc.golden(x.detach().numpy()[::2])))
        gelu_acc.assert_gelu_close(got, x[::2], max_ulp=0)
        with self.assertRaisesRegex(TypeError, "int32"):
            gelu_acc.golden(torch.zeros(3, dtype=torch.int32))
        with self.assertRaisesRegex(TypeError, "one kind"):
            gelu_acc.assert_gelu_close(got.numpy(), x[::2])


if __name__ == "__main__":
    unittest.main()
