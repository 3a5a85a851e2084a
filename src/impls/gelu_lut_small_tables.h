/* The shipped tables of lut_small, one entry (an encoding) per encoding of
 * each small format; generated into gelu_lut_small_data.c by
 * tools/gen_lut_small.c ('make lut-small'). */
#ifndef GA_GELU_LUT_SMALL_TABLES_H
#define GA_GELU_LUT_SMALL_TABLES_H

#include <stdint.h>

extern const uint8_t ga_lut_small_float8_e4m3fn[256];
extern const uint8_t ga_lut_small_float8_e5m2[256];
extern const uint8_t ga_lut_small_float6_e2m3[64];
extern const uint8_t ga_lut_small_float6_e3m2[64];
extern const uint8_t ga_lut_small_float4_e2m1[16];

#endif
