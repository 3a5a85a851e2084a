/* Which catalogue model computes, bit for bit, what a real kernel computes:
 * the claims that tests/real_models_test proves on every 16-bit input and a
 * dense float32 set, that tests/mutants_test requires to catch a one-ulp
 * change, and that every report checks on its real rows' inputs (all 2^32
 * float32 inputs under make report; engine/report_proofs.h).
 *
 * At most one claim per kernel and format.  A claim's model is a catalogue
 * name, or another real kernel's (SLEEF's loops, which PyTorch's vector
 * kernels call), or NULL: the model of the path the kernel reports
 * (PyTorch's bfloat16 hands long tensors to oneDNN on CPUs with AVX-512
 * BF16). */
#ifndef GA_MODEL_CLAIMS_H
#define GA_MODEL_CLAIMS_H

#include <stddef.h>

#include "formats/format.h"

struct ga_model_claim {
    const char *real;            /* real/real.c's name */
    enum ga_format_id format;
    const char *model;           /* NULL: ga_model_claim_model decides */
};

extern const struct ga_model_claim ga_model_claims[];
extern const size_t ga_model_claim_count;

/* The claim about kernel `real` in f, or NULL. */
const struct ga_model_claim *ga_model_claim_find(const char *real, const struct ga_format *f);

/* The model c names, for a kernel that reports `path` (real.h's
 * gelu_acc_real_info.path). */
const char *ga_model_claim_model(const struct ga_model_claim *c, const char *path);

#endif
