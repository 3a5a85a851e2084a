/* ggml's GELU (llama.cpp, whisper.cpp CPU backend, GGML_GELU_FP16): a table of
 * 65536 float16 values, one per float16 encoding h,
 *
 *   table[h] = fp16(0.5f*h*(1 + tanhf(beta*h*(1 + kappa*h*h))))
 *
 * (the float32 tanh_factored form, gelu_tanh_forms.c, rounded to nearest
 * float16).  float16 input: table[h], nothing else.  float32 input:
 * x <= -10 -> 0.0f, x >= 10 -> x, otherwise fp16(x) is looked up and the
 * float16 entry widened to float.  So float32 results carry float16
 * precision (max abs error 2.0e-3, whisper.cpp PR #3939).
 *
 * Special values.  float32: NaN fails both comparisons and is looked up:
 * NaN; +inf >= 10 -> +inf; -inf <= -10 -> +0 (not -0); +-0 -> table[+-0] = +-0.
 * float16: table[+inf] = +inf; table[-inf] = tanh_factored(-inf) = NaN. */
#include "formats/fp_contract.h"

#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "formats/format.h"
#include "impls/catalogue_internal.h"

#define TABLE_SIZE 65536

/* Entries as floats: exact, since every float16 is a float. */
static float table[TABLE_SIZE];
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static void build_table(void)
{
    const struct ga_format *f16 = ga_format_get(GA_FLOAT16);

    for (uint32_t h = 0; h < TABLE_SIZE; h++) {
        float x = (float)ga_decode(f16, h);
        table[h] = (float)ga_round(f16, ga_gelu_tanh_factored_f32(x));
    }
}

const float *ga_gelu_lut_f16_table(void)
{
    pthread_once(&table_once, build_table);
    return table;
}

/* Round to nearest even (ggml: F16C _cvtss_sh, or its software twin).
 * float16 has 10 fraction bits, exponent bias 15; float 23 and 127. */
uint16_t ga_f16_bits_from_float(float x)
{
    uint32_t b;
    memcpy(&b, &x, sizeof b);
    uint32_t sign = (b >> 16) & 0x8000u;
    uint32_t a = b & 0x7fffffffu;

    if (a > 0x7f800000u)                /* NaN: quiet, sign kept */
        return (uint16_t)(sign | 0x7e00u);
    if (a >= 0x477ff000u)               /* >= 65520, the midpoint above 65504 */
        return (uint16_t)(sign | 0x7c00u);
    if (a < 0x38800000u) {              /* below 2^-14: float16 subnormal grid */
        /* |x| * 2^24 is exact (a power-of-two scaling without overflow) and
         * counts units of 2^-24; its nearest even integer is the encoding,
         * 0x400 when it rounds up to the smallest normal. */
        float units = (sign ? -x : x) * 0x1p24f;
        uint32_t q = (uint32_t)units;
        float rest = units - (float)q;  /* exact: Sterbenz, q <= units < 2q */
        if (rest > 0.5f || (rest == 0.5f && (q & 1u)))
            q++;
        return (uint16_t)(sign | q);
    }
    /* Normal: rebias the exponent (127 - 15 = 112), keep 10 fraction bits,
     * round the 13 dropped ones to nearest even; a carry correctly moves
     * into the exponent. */
    uint32_t r = a - (112u << 23);
    uint32_t h = r >> 13, dropped = r & 0x1fffu;
    if (dropped > 0x1000u || (dropped == 0x1000u && (h & 1u)))
        h++;
    return (uint16_t)(sign | h);
}

float ga_gelu_lut_f16_f32(const float *lut, float x)
{
    if (x <= -10.0f)
        return 0.0f;
    if (x >= 10.0f)
        return x;
    return lut[ga_f16_bits_from_float(x)];
}
