/* Encoding as codec.c does it, inline where a sweep needs the speed.  Its
 * own header, not format.h: format.h is below codec.c, which it declares. */
#ifndef GA_CODEC_H
#define GA_CODEC_H

#include <stdint.h>
#include <string.h>

#include "formats/format.h"

/* ga_encode of a float, bit for bit (a sweep rounds every kernel output
 * through it).  bfloat16's encodings are the top 16 bits of float32's, on
 * the same exponent range: RN to even on the 16 bits dropped (add 0x7fff,
 * plus the kept part's last bit) is RN on the value, subnormals alike, and
 * a carry out of the largest binade gives infinity's encoding, as IEEE
 * overflow does; the sign bit rides along.  NaN goes the general way (its
 * payload could carry). */
static inline ga_bits ga_encode_float(const struct ga_format *f, float v)
{
    uint32_t b;

    if (f->id != GA_BFLOAT16 || v != v)
        return ga_encode(f, v);
    memcpy(&b, &v, sizeof b);
    return (ga_bits)((b + 0x7fffu + ((b >> 16) & 1u)) >> 16);
}

#endif
