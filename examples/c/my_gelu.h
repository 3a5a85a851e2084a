#ifndef MY_GELU_H
#define MY_GELU_H

#include <stddef.h>
#include <stdint.h>

/* out[i] = GELU(in[i]), bfloat16 encodings. */
void my_gelu_bf16(const uint16_t *in, uint16_t *out, size_t n);

#endif
