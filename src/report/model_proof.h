/* What a page's check of a model against the real kernel it claims to
 * equal found (engine/report_proofs.h), and the words the pages say of it. */
#ifndef GA_MODEL_PROOF_H
#define GA_MODEL_PROOF_H

#include <stdbool.h>
#include <stddef.h>

#include "formats/format.h"
#include "measure/output_match.h"

struct ga_model_proof {
    const char *model;             /* NULL: no model claims the kernel */
    bool checked;                  /* false: not checked, why says why */
    struct ga_output_match match;  /* a: the model, b: the library's kernel */
    char why[256];
};

/* What the pages say of these checks, before their table. */
#define GA_PROOFS_INTRO                                                                   \
    "Each model below is claimed to compute what the kernel of its row computes, bit for " \
    "bit: `tests/real_models_test` proves it on every 16-bit input and a dense float32 "   \
    "set, and `tests/mutants_test` shows that proof catches a one-ulp change to any "      \
    "constant. Here each model and its kernel ran on every input of the kernel's row "     \
    "above and their outputs were compared encoding by encoding (any NaN matching any "    \
    "NaN); `make report` runs float32 on all 2^32 inputs."

/* "the same bits on N inputs", "K of N inputs differ; the first at x = X:
 * model Y, library Z", or "not checked: WHY". */
void ga_model_proof_text(const struct ga_model_proof *p, const struct ga_format *f,
                         char *buf, size_t size);

#endif
