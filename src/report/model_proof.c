/* The words for a model's check (model_proof.h). */
#include "report/model_proof.h"

#include <stdio.h>

void ga_model_proof_text(const struct ga_model_proof *p, const struct ga_format *f,
                         char *buf, size_t size)
{
    char x[GA_BITS_TEXT_LEN], a[GA_BITS_TEXT_LEN], b[GA_BITS_TEXT_LEN];

    if (!p->checked) {
        snprintf(buf, size, "not checked: %s", p->why);
        return;
    }
    if (p->match.differ == 0) {
        snprintf(buf, size, "the same bits on %llu inputs",
                 (unsigned long long)p->match.inputs);
        return;
    }
    ga_format_bits(f, p->match.x, x);
    ga_format_bits(f, p->match.a, a);
    ga_format_bits(f, p->match.b, b);
    snprintf(buf, size, "%llu of %llu inputs differ; the first at x = %s: model %s, library %s",
             (unsigned long long)p->match.differ, (unsigned long long)p->match.inputs, x, a, b);
}
