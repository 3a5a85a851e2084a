/* The claimed models checked on a page's real rows (report_proofs.h). */
#include "engine/report_proofs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "real/model_claims.h"
#include "real/real.h"

/* The model named `name` that runs f: the catalogue's, or one of rr's
 * kernels (SLEEF's); NULL, with why, when neither. */
static const struct ga_impl *find_model(const struct ga_format *f,
                                        const struct ga_report_real *rr, const char *name,
                                        char *why, size_t size)
{
    const struct ga_impl *model = ga_catalogue_find(name);

    if (model != NULL && ga_impl_supports(model, f))
        return model;
    for (size_t k = 0; k < rr->count; k++)
        if (strcmp(ga_real_impl(rr->kernels[k])->name, name) == 0)
            return ga_real_impl(rr->kernels[k]);
    snprintf(why, size, "%s does not run %s here", name, f->name);
    return NULL;
}

int ga_report_proofs(const struct ga_format *f, struct ga_report_real *rr,
                     const struct ga_domain *real_domain, int threads,
                     const struct ga_report_share *share)
{
    if (rr->count == 0)
        return GA_ENGINE_OK;
    rr->proofs = calloc(rr->count, sizeof *rr->proofs);
    if (rr->proofs == NULL) {
        ga_report_say(share, "report: out of memory");
        return GA_ENGINE_UNDECIDED;
    }
    for (size_t k = 0; k < rr->count; k++) {
        const struct ga_impl *kernel = ga_real_impl(rr->kernels[k]), *model;
        const struct ga_model_claim *c = ga_model_claim_find(kernel->name, f);
        struct ga_model_proof *p = &rr->proofs[k];

        if (c == NULL)
            continue;
        p->model = ga_model_claim_model(c, ga_real_kernel_about(rr->kernels[k])->path);
        model = find_model(f, rr, p->model, p->why, sizeof p->why);
        if (model != NULL)
            p->checked = ga_output_match(f, real_domain, model, kernel, threads, &p->match,
                                         p->why, sizeof p->why) == 0;
    }
    return GA_ENGINE_OK;
}
