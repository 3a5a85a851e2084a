"""Tests of the gelu_acc module against the gelu-acc program ($GELU_ACC or PATH).
unittest classes, so that both pytest and 'python3 -m unittest' run them."""
import os
import shutil
import subprocess
import tempfile
import unittest

import numpy as np

import gelu_acc

PROGRAM = gelu_acc.find_program()


def truth_table(format_name, encodings=None, function="gelu"):
    """{input encoding: correctly rounded output encoding} from 'gelu-acc truth'."""
    args = [PROGRAM, "truth", "--format", format_name, "--function", function]
    stdin = None
    if encodings is None:
        args.append("--all")
    else:
        args += ["--bits", "--input", "-"]
        stdin = "".join("0x%x\n" % int(e) for e in encodings)
    out = subprocess.run(args, input=stdin, stdout=subprocess.PIPE, check=True,
                         universal_newlines=True).stdout
    return {int(line.split()[0], 16): int(line.split()[1], 16) for line in out.splitlines()}


def table_kernel(table, bits_dtype, dtype):
    """A kernel that answers from a table of encodings."""
    def kernel(x):
        bits = x.view(bits_dtype)
        return np.array([table[int(b)] for b in bits], dtype=bits_dtype).view(dtype)
    return kernel


def float32_bits(x):
    return np.asarray(x, dtype=np.float32).view(np.uint32)


class Bfloat16Conversion(unittest.TestCase):
    def test_ties_go_to_even(self):
        words = np.array([0x3f808000, 0x3f818000, 0x3f808001, 0x3f807fff, 0xbf818000], dtype=np.uint32)
        self.assertEqual(gelu_acc.to_bfloat16(words.view(np.float32)).tolist(),
                         [0x3f80, 0x3f82, 0x3f81, 0x3f80, 0xbf82])

    def test_nan_stays_nan_and_overflow_gives_infinity(self):
        words = np.array([0x7f800001, 0xffffffff, 0x7fc00000, 0x7f800000, 0xff800000,
                          0x7f7fffff, 0x7f7f7fff, 0x80000000, 0x00000001, 0x00008000, 0x00018000],
                         dtype=np.uint32)
        got = gelu_acc.to_bfloat16(words.view(np.float32))
        self.assertTrue(np.isnan(gelu_acc.from_bfloat16(got[:3])).all(), [hex(v) for v in got[:3]])
        self.assertEqual(got[1] >> 15, 1, "the sign of a negative NaN is kept")
        self.assertEqual(got[3:].tolist(), [0x7f80, 0xff80, 0x7f80, 0x7f7f, 0x8000, 0x0000, 0x0000, 0x0002])

    def test_nearest_on_random_floats(self):
        # Independent reference: the two bfloat16 neighbours of x by
        # truncation, compared in double (exact for these values).
        rng = np.random.default_rng(7)
        words = rng.integers(0, 2**32, 200000, dtype=np.uint64).astype(np.uint32)
        x = words.view(np.float32)
        x = x[np.isfinite(x) & (np.abs(x) < 3.3e38)]
        got = gelu_acc.from_bfloat16(gelu_acc.to_bfloat16(x)).astype(np.float64)
        down = gelu_acc.from_bfloat16((x.view(np.uint32) >> 16).astype(np.uint16)).astype(np.float64)
        step = np.float64(2.0) ** (np.floor(np.log2(np.maximum(np.abs(down), 2.0**-126))) - 7)
        up = down + np.sign(x) * step
        xd = x.astype(np.float64)
        below, above = np.abs(xd - down), np.abs(up - xd)
        even = (x.view(np.uint32) >> 16) & 1 == 0
        want = np.where(below < above, down, np.where(above < below, up, np.where(even, down, up)))
        self.assertTrue(np.array_equal(got, want), x[got != want][:5])

    def test_round_trip_of_every_encoding(self):
        encodings = np.arange(65536, dtype=np.uint32).astype(np.uint16)
        values = gelu_acc.from_bfloat16(encodings)
        back = gelu_acc.to_bfloat16(values)
        nan = np.isnan(values)
        self.assertTrue(np.array_equal(back[~nan], encodings[~nan]))
        self.assertTrue(np.isnan(gelu_acc.from_bfloat16(back[nan])).all())

    def test_wider_types_are_refused(self):
        with self.assertRaisesRegex(TypeError, "round twice"):
            gelu_acc.to_bfloat16(np.zeros(3))


class Grade(unittest.TestCase):
    def test_correctly_rounded_kernel_scores_every_input(self):
        for format_name, dtype in (("bfloat16", np.uint16), ("float16", np.float16)):
            kernel = table_kernel(truth_table(format_name), np.uint16, dtype)
            report = gelu_acc.grade(kernel, format_name)
            self.assertEqual(report["count"], 65536, format_name)
            self.assertEqual(report["correctly_rounded"], 65536, format_name)
            self.assertEqual(report["format"], format_name)

    def test_float32_domain_and_reference_pass_through(self):
        x = gelu_acc.inputs("float32", domain="random:3000:5")
        self.assertEqual((x.dtype, x.shape), (np.dtype("<f4"), (3000,)))
        table = truth_table("float32", float32_bits(x), function="gelu_tanh")
        kernel = table_kernel(table, np.uint32, np.float32)
        report = gelu_acc.grade(kernel, "float32", domain="random:3000:5", reference="gelu_tanh")
        self.assertEqual((report["count"], report["correctly_rounded"]), (3000, 3000))
        self.assertEqual(report["reference"], "gelu_tanh")
        wrong = gelu_acc.grade(kernel, "float32", domain="random:3000:5")
        self.assertLess(wrong["correctly_rounded"], 3000, "graded against exact GELU")

    def test_flushing_kernel_is_measured(self):
        report = gelu_acc.grade(lambda x: np.zeros_like(x), "bfloat16", domain="range:-9:-8")
        self.assertGreater(report["count"], 0)
        self.assertEqual(report["flushed_to_zero"], report["count"])
        self.assertEqual(report["correctly_rounded"], 0)

    def test_batches_and_workdir(self):
        kernel = table_kernel(truth_table("bfloat16"), np.uint16, np.uint16)
        calls = []
        def counting(x):
            calls.append(len(x))
            return kernel(x)
        with tempfile.TemporaryDirectory() as tmp:
            report = gelu_acc.grade(counting, "bfloat16", batch=10000, workdir=tmp)
            self.assertEqual(sorted(os.listdir(tmp)), ["inputs-bfloat16.npy", "outputs-bfloat16.npy"])
        self.assertEqual(calls, [10000] * 6 + [5536])
        self.assertEqual(report["correctly_rounded"], 65536)

    def test_compare_counts_the_one_input_changed(self):
        table = truth_table("bfloat16")
        good = table_kernel(table, np.uint16, np.uint16)
        def worse(x):
            y = good(x).copy()
            y[x == 0x3f80] += 1     # x = 1: one encoding away from the truth
            return y
        figures = gelu_acc.compare(good, worse, "bfloat16")
        self.assertEqual((figures["improved"], figures["worsened"], figures["unchanged"]),
                         (0, 1, 65535))
        self.assertEqual(figures["buckets"]["a"]["correctly_rounded"]["inputs"], 65536)
        self.assertEqual(figures["buckets"]["b"]["correctly_rounded"]["inputs"], 65535)
        self.assertEqual(figures["regressions"][0]["input"], "0x3f80")
        self.assertEqual((figures["a"], figures["b"]), ("kernel", "worse"))
        self.assertIn("`worse` (B)", figures["markdown"].splitlines()[0])
        back = gelu_acc.compare(worse, good, "bfloat16", names=("before", "after"))
        self.assertEqual((back["improved"], back["worsened"]), (1, 0))

    def test_compare_backward_counts_the_one_pair_changed(self):
        # the truth from the library's golden_backward; B moved one pair
        # (x = 1, dy = 1) one encoding away from it
        golden = lambda x, dy: gelu_acc.golden_backward(x, dy, format="bfloat16")
        x = np.arange(0, 65536, 7, dtype=np.uint32).astype(np.uint16)
        dy = x[::-1].copy()
        x[0], dy[0] = 0x3f80, 0x3f80
        def worse(x, dy):
            dx = golden(x, dy).copy()
            dx[0] += 1
            return dx
        figures = gelu_acc.compare(golden, worse, "bfloat16", domain=(x, dy), backward=True)
        self.assertTrue(figures["backward"])
        self.assertEqual((figures["improved"], figures["worsened"], figures["unchanged"]),
                         (0, 1, x.size - 1))
        self.assertEqual((figures["regressions"][0]["input"], figures["regressions"][0]["dy"]),
                         ("0x3f80", "0x3f80"))
        self.assertEqual(figures["buckets"]["a"]["correctly_rounded"]["inputs"], x.size)
        self.assertIn("| x | dy | exact dx |", figures["markdown"])
        same = gelu_acc.compare(golden, golden, "bfloat16", domain=1000, backward=True)
        self.assertEqual((same["inputs"], same["worsened"], same["improved"]), (1000, 0, 0))
        with self.assertRaisesRegex(ValueError, "one length"):
            gelu_acc.compare(golden, golden, "bfloat16", domain=(x, dy[:-1]), backward=True)

    def test_wrong_dtype_is_refused_with_the_helper_named(self):
        f32 = lambda bits: gelu_acc.from_bfloat16(bits)
        with self.assertRaisesRegex(TypeError, "to_bfloat16"):
            gelu_acc.grade(f32, "bfloat16")
        with self.assertRaisesRegex(TypeError, "float64.*float32"):
            gelu_acc.grade(lambda x: np.zeros(x.shape), "float32")
        with self.assertRaisesRegex(TypeError, "not a NumPy array"):
            gelu_acc.grade(lambda x: list(x), "float16")
        with self.assertRaisesRegex(ValueError, "shape"):
            gelu_acc.grade(lambda x: x[:-1], "float16")

    def test_program_errors_carry_message_and_status(self):
        with self.assertRaises(gelu_acc.UsageError) as caught:
            gelu_acc.grade(lambda x: x, "bfloat16", domain="stride:0")
        self.assertEqual(caught.exception.status, 2)
        self.assertIn("stride", caught.exception.message)
        self.assertNotIsInstance(caught.exception, gelu_acc.AccuracyRegression)
        with self.assertRaisesRegex(ValueError, "unknown format 'float8'"):
            gelu_acc.grade(lambda x: x, "float8")


class FindProgram(unittest.TestCase):
    def setUp(self):
        self.saved = dict(os.environ)

    def tearDown(self):
        os.environ.clear()
        os.environ.update(self.saved)

    def test_argument_then_environment_then_path(self):
        with tempfile.TemporaryDirectory() as tmp:
            os.symlink(os.path.abspath(PROGRAM), os.path.join(tmp, "gelu-acc"))
            os.environ.pop("GELU_ACC", None)
            os.environ["PATH"] = tmp
            self.assertEqual(gelu_acc.find_program(), os.path.join(tmp, "gelu-acc"))
            os.environ["GELU_ACC"] = os.path.join(tmp, "missing")
            with self.assertRaisesRegex(gelu_acc.ProgramNotFound, r"\$GELU_ACC names .*missing"):
                gelu_acc.find_program()
            self.assertEqual(gelu_acc.find_program(PROGRAM), PROGRAM)
            os.environ.pop("GELU_ACC")
            os.environ["PATH"] = os.path.join(tmp, "empty")
            with self.assertRaisesRegex(gelu_acc.ProgramNotFound, "PATH"):
                gelu_acc.find_program()


class AssertAccuracy(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.baseline = os.path.join(self.dir, "gelu.baseline")
        with open(self.baseline, "w") as f:
            f.write("# kept comment\n[other]\nkernel = erf\nformat = float32\ndomain = range:1:1.01\n\n"
                    "[mine]  \nkernel = outputs:out.npy\ninputs = in.npy\nformat = bfloat16\n"
                    "reference = gelu\n\n[last]\nkernel = erf\nformat = float16\n")
        self.table = truth_table("bfloat16")
        self.good = table_kernel(self.table, np.uint16, np.uint16)

    def tearDown(self):
        shutil.rmtree(self.dir)

    def regressed(self, x):
        y = self.good(x)
        y[x == 0x3f80] += 1              # one ulp high at x = 1
        return y

    def test_update_then_pass_then_regression(self):
        gelu_acc.assert_accuracy(self.regressed, "bfloat16", self.baseline, update=True)
        with open(self.baseline) as f:
            text = f.read()
        self.assertIn("correctly_rounded = 65535", text)
        self.assertIn("kernel = outputs:out.npy\ninputs = in.npy\n", text, "relative paths kept")
        self.assertTrue(text.startswith("# kept comment\n[other]\nkernel = erf\n"), text)
        self.assertTrue(text.endswith("\nspecial.wrong_zero_sign = 0\n\n[last]\nkernel = erf\nformat = float16\n"),
                        "the section replaced whole, the next one kept: " + text)
        self.assertEqual(text.count("reference = gelu\n"), 1, text)
        self.assertTrue(os.path.exists(os.path.join(self.dir, "out.npy")))
        gelu_acc.assert_accuracy(self.regressed, "bfloat16", self.baseline, update=True)
        with open(self.baseline) as f:
            self.assertEqual(f.read(), text, "a second update of the same figures changes nothing")
        report = gelu_acc.assert_accuracy(self.good, "bfloat16", self.baseline)
        self.assertIn("PASS mine", report)
        gelu_acc.assert_accuracy(self.good, "bfloat16", self.baseline, update=True)
        with self.assertRaises(gelu_acc.AccuracyRegression) as caught:
            gelu_acc.assert_accuracy(self.regressed, "bfloat16", self.baseline)
        error = caught.exception
        self.assertIsInstance(error, AssertionError)
        self.assertEqual(error.status, 1)
        self.assertTrue(any("correctly_rounded 65536 -> 65535" in line for line in error.exceeded),
                        error.exceeded)
        self.assertTrue(any("0x3f80" in line for line in error.exceeded), error.exceeded)
        self.assertIn("correctly_rounded", str(error))

    def test_section_selection(self):
        with self.assertRaisesRegex(ValueError, "no sections with 'kernel = outputs:FILE' and 'format = float16'"):
            gelu_acc.assert_accuracy(self.good, "float16", self.baseline)
        with self.assertRaisesRegex(ValueError, r"section \[other\] needs 'kernel = outputs:FILE'"):
            gelu_acc.assert_accuracy(self.good, "float32", self.baseline, section="other")
        with self.assertRaisesRegex(ValueError, r"no section \[none\]"):
            gelu_acc.assert_accuracy(self.good, "bfloat16", self.baseline, section="none")

    def test_malformed_baseline_is_a_usage_error(self):
        with open(self.baseline) as f:
            text = f.read()
        with open(self.baseline, "w") as f:
            f.write(text.replace("reference = gelu\n", "reference = gelu\nmax_ulp = many\n"))
        with self.assertRaises(gelu_acc.UsageError) as caught:
            gelu_acc.assert_accuracy(self.good, "bfloat16", self.baseline, section="mine")
        self.assertEqual(caught.exception.status, 2)
        self.assertIn("max_ulp", caught.exception.message)


if __name__ == "__main__":
    unittest.main()
