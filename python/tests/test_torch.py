"""PyTorch's CPU GELU graded on every bfloat16 input (skipped without torch).
The figures asserted were measured with PyTorch 1.13 (Debian 12's
python3-torch): with oneDNN on a CPU with AVX512_BF16, 48914 of 65536 results
are correctly rounded (74.64 %); ATen's own kernel (oneDNN disabled), which
rounds every operation to bfloat16, 64227 (98.00 %) on AVX2 and AVX-512."""
import unittest

import numpy as np

import gelu_acc

try:
    import torch
except ImportError:
    torch = None


def cpu_flags():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def torch_gelu_bf16(bits):
    x = torch.from_numpy(bits.view(np.int16)).view(torch.bfloat16)
    y = torch.nn.functional.gelu(x)
    return y.view(torch.int16).numpy().view(np.uint16)


@unittest.skipIf(torch is None, "PyTorch is not installed")
class TorchGelu(unittest.TestCase):
    def measured_1_13(self):
        return torch.__version__.startswith("1.13.")

    def test_default_path_on_every_bfloat16_input(self):
        report = gelu_acc.grade(torch_gelu_bf16, "bfloat16", name="torch-gelu")
        self.assertEqual(report["count"], 65536)
        if self.measured_1_13() and "avx512_bf16" in cpu_flags():
            self.assertEqual(report["correctly_rounded"], 48914)
            self.assertEqual("%.2f" % (100 * report["correctly_rounded"] / 65536), "74.64")
            self.assertEqual(report["flushed_to_zero"], 676)
            self.assertEqual(report["max_ulp_input"], "0xc10a")

    def test_aten_kernel_without_onednn(self):
        if not (self.measured_1_13() and "avx2" in cpu_flags()):
            self.skipTest("figure measured with PyTorch 1.13 on x86-64 with AVX2")
        with torch.backends.mkldnn.flags(enabled=False):
            report = gelu_acc.grade(torch_gelu_bf16, "bfloat16", name="torch-gelu-aten")
        self.assertEqual(report["correctly_rounded"], 64227)
        self.assertEqual("%.2f" % (100 * report["correctly_rounded"] / 65536), "98.00")


if __name__ == "__main__":
    unittest.main()
