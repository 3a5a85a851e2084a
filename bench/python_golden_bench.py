"""The Python golden against the C library's, in one run (make bench).

    PYTHONPATH=python python3 bench/python_golden_bench.py [LOG2_N]

float32: gelu_acc.golden over 2^LOG2_N inputs (default 24, spread over the
whole line) against one direct call of gelu_acc_truth on the same buffers
(the library's own time, no Python around it); the ratio is the module's
overhead (target: at most 1.5).  bfloat16 and float16: the golden's rate
(a table lookup).  float64: the rate through MPFR.  One thread: the library
starts none.  Each figure is the best of 3 runs."""
import sys
import time

import numpy as np

import gelu_acc
from gelu_acc import library as lib


def best_of(runs, work):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def c_truth(format_name, x, out):
    lib.call("gelu_acc_truth", lib.FUNCTIONS["gelu"], lib.FORMATS[format_name],
             lib.pointer(x), lib.pointer(out), x.size)


def main():
    log2_n = int(sys.argv[1]) if len(sys.argv) > 1 else 24
    n = 1 << log2_n
    rng = np.random.default_rng(24)
    # every float32 exponent, finite values: what a sweep's stride sees
    x = rng.integers(0, 0xff000000, n, dtype=np.uint64).astype(np.uint32)
    x = (x ^ (rng.integers(0, 2, n, dtype=np.uint32) << 31)).view(np.float32)
    out = np.empty_like(x)
    print("libgelu-acc %s from %s" % (gelu_acc.library_version(), gelu_acc.library_path()))
    gelu_acc.golden(x[:1024])                         # load the library
    c = best_of(3, lambda: c_truth("float32", x, out))
    py = best_of(3, lambda: gelu_acc.golden(x))
    print("float32, 2^%d inputs: C gelu_acc_truth %.3f s (%.1f ns/element), Python golden %.3f s "
          "(%.1f ns/element): %.3fx" % (log2_n, c, 1e9 * c / n, py, 1e9 * py / n, py / c))
    for name, dtype in (("bfloat16", np.uint16), ("float16", np.float16)):
        bits = rng.integers(0, 65536, n, dtype=np.uint32).astype(np.uint16)
        x16 = bits if dtype == np.uint16 else bits.view(np.float16)
        fmt = name if dtype == np.uint16 else None
        gelu_acc.golden(x16[:1024], format=fmt)       # the table, built once
        t = best_of(3, lambda: gelu_acc.golden(x16, format=fmt))
        out16 = np.empty_like(x16)
        tc = best_of(3, lambda: c_truth(name, x16, out16))
        print("%s, 2^%d inputs: Python golden %.0f M elements/s, C %.0f M elements/s"
              % (name, log2_n, n / t / 1e6, n / tc / 1e6))
    x64 = rng.uniform(-10, 10, 2000)
    t = best_of(1, lambda: gelu_acc.golden(x64))
    print("float64 (MPFR), 2000 inputs in [-10, 10]: %.1f us/element, %.0f elements/s"
          % (1e6 * t / x64.size, x64.size / t))
    return 0


if __name__ == "__main__":
    sys.exit(main())
