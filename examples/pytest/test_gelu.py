"""A kernel's unit test with the correctly rounded truth as its golden.

    python3 -m pytest -q -s examples/pytest      (-s shows what torch gets wrong)

test_my_gelu checks a GELU (here a float64 formula rounded once to the
dtype; put yours in its place) over dtypes and both approximate modes with
gelu_acc.assert_gelu_close: within 1 ulp of the exact value, no NaN, no
infinity, no flush to zero, no zero of the wrong sign.  The last two tests
show what the usual golden, F.gelu(x.float()).to(torch.bfloat16), and
PyTorch's own bfloat16 GELU get wrong on this CPU, which torch's
assert_close with its default bfloat16 tolerances does not see."""
import math

import numpy as np
import pytest

import gelu_acc

torch = pytest.importorskip("torch")
F = torch.nn.functional


def cpu_features():
    """The x86 features that choose torch's bfloat16 kernels, from /proc/cpuinfo."""
    try:
        with open("/proc/cpuinfo") as f:
            flags = next((l.split(":", 1)[1].split() for l in f if l.startswith("flags")), [])
    except OSError:
        flags = []
    return " ".join(f for f in ("avx2", "avx512f", "avx512_bf16", "amx_bf16") if f in flags) or "none of avx2, avx512"


def every_bfloat16():
    bits = np.arange(65536, dtype=np.uint32).astype(np.uint16)
    return torch.from_numpy(bits.view(np.int16)).view(torch.bfloat16)


def inputs(dtype):
    """Every input of a 16-bit dtype; 10^5 float32 inputs, wide and near 0."""
    if dtype == torch.bfloat16:
        return every_bfloat16()
    if dtype == torch.float16:
        return torch.from_numpy(np.arange(65536, dtype=np.uint32).astype(np.uint16).view(np.float16))
    rng = np.random.default_rng(29)
    wide = rng.integers(0, 2**32, 50000, dtype=np.uint64).astype(np.uint32).view(np.float32)
    return torch.from_numpy(np.concatenate([wide, rng.uniform(-12, 12, 50000).astype(np.float32)]))


def round_once(y, dtype):
    """Float64 values rounded once to dtype.  Not y.to(dtype): torch 1.13
    converts float64 to float16 and bfloat16 through float32, two roundings
    (gelu(2^-24) in float16 becomes 0).  NumPy's float64 -> float16 is one
    rounding; for bfloat16, float32 rounded to odd keeps the sticky bit, so
    rounding it to nearest is one rounding of y (Boldo and Melquiond)."""
    v = y.numpy()
    if dtype != torch.bfloat16:
        return torch.from_numpy(v.astype(np.float16 if dtype == torch.float16 else np.float32))
    f = v.astype(np.float32)
    odd = np.isfinite(f) & (f.astype(np.float64) != v) & (f.view(np.uint32) & 1 == 0)
    f[odd] = np.nextafter(f[odd], np.where(v[odd] > f[odd], np.inf, -np.inf).astype(np.float32))
    return torch.from_numpy(gelu_acc.to_bfloat16(f).view(np.int16)).view(torch.bfloat16)


def my_gelu(x, approximate="none"):
    """The kernel under test: GELU in float64 without cancellation (erfc;
    the tanh form as x * sigmoid(2u)), rounded once to x's dtype."""
    xd = x.double()
    if approximate == "tanh":
        u = math.sqrt(2 / math.pi) * (xd + 0.044715 * xd ** 3)
        y = xd * torch.sigmoid(2 * u)
    else:
        y = 0.5 * xd * torch.special.erfc(-xd / math.sqrt(2))
    y = torch.where(xd == -math.inf, torch.zeros_like(y).neg(), y)   # gelu(-inf) = -0
    return round_once(y, x.dtype)


@pytest.mark.parametrize("approximate", ["none", "tanh"])
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16, torch.float32])
def test_my_gelu(dtype, approximate):
    x = inputs(dtype)
    gelu_acc.assert_gelu_close(my_gelu(x, approximate), x, approximate=approximate, max_ulp=1)


@pytest.mark.parametrize("approximate", ["none", "tanh"])
def test_usual_golden_is_not_the_truth(approximate):
    """F.gelu(x.float()).to(torch.bfloat16): float32 arithmetic, then a
    second rounding.  Its cancellation for x < -5 is detected."""
    x = every_bfloat16()
    usual = F.gelu(x.float(), approximate=approximate).to(torch.bfloat16)
    with pytest.raises(AssertionError) as failed:
        gelu_acc.assert_gelu_close(usual, x, approximate=approximate, max_ulp=1)
    print("\nF.gelu(x.float()).to(torch.bfloat16), approximate=%r:\n%s" % (approximate, failed.value))


def test_torch_bfloat16_gelu():
    """PyTorch's own bfloat16 GELU on this CPU: what assert_gelu_close
    finds (flushes, wrong-sign zeros, NaN at -inf, large errors: which of
    them depends on the CPU's kernels), and that the usual test,
    assert_close with bfloat16's default tolerances against a float64
    reference, accepts some of those failures on every CPU."""
    x = every_bfloat16()
    y = F.gelu(x)
    with pytest.raises(AssertionError) as failed:
        gelu_acc.assert_gelu_close(y, x, max_ulp=1)
    print("\ntorch %s on a CPU with %s, F.gelu in bfloat16:\n%s"
          % (torch.__version__, cpu_features(), failed.value))
    finite = torch.isfinite(x)
    ulps = torch.from_numpy(gelu_acc.ulp_error(y, x))
    flagged = finite & (ulps > 1)
    accepted = torch.isclose(y.double(), F.gelu(x.double()),
                             rtol=1.6e-2, atol=1e-5)   # bfloat16's defaults
    missed = int((flagged & accepted).sum())
    print("assert_close's tolerances accept %d of the %d finite inputs over 1 ulp"
          % (missed, int(flagged.sum())))
    assert missed > 0
