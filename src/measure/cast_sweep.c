/* GELU fused with a cast, measured (cast_sweep.h). */
#include "measure/cast_sweep.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "grade/error.h"
#include "truth/truth.h"

#define BATCH 4096

bool ga_cast_output_allowed(const struct ga_format *out)
{
    return ga_is_small_format(out) && ga_has_nan(out);
}

static void tally_add(struct ga_cast_tally *t, const struct ga_format *out, ga_bits x, ga_bits y,
                      const struct ga_truth *truth, bool beyond)
{
    struct ga_error e;
    ga_bits magnitude = y & ~ga_sign_mask(out);

    ga_error_measure(out, y, truth, &e);
    t->count++;
    t->correct += (e.flags & GA_ERR_CORRECT) != 0;
    t->faithful += (e.flags & GA_ERR_FAITHFUL) != 0;
    t->nan += ga_is_nan(out, y);
    t->inf += ga_classify(out, y) == GA_INFINITE;
    t->saturated += magnitude == ga_max_finite(out, false);
    /* Beyond the threshold the exact value lies outside the format, and a
     * NaN or infinite output or truth has no finite error to rank. */
    if (!beyond && !isnan(e.ulp) && !isinf(e.ulp) && (!t->has_max || e.ulp > t->max_ulp)) {
        t->has_max = true;
        t->max_ulp = e.ulp;
        t->max_ulp_input = x;
    }
}

/* The tallies of r: every convention out allows, each model out supports. */
static void plan(struct ga_cast_result *r)
{
    static const enum ga_overflow conventions[] = {
        GA_OVERFLOW_INFINITY, GA_OVERFLOW_SATFINITE, GA_OVERFLOW_NAN,
    };

    r->n = 0;
    for (size_t c = 0; c < sizeof conventions / sizeof conventions[0]; c++) {
        if (!ga_overflow_allowed(r->out, conventions[c]))
            continue;
        for (size_t k = 0; k < ga_cast_model_count() && r->n < GA_CAST_MAX_TALLIES; k++) {
            const struct ga_cast_model *m = ga_cast_model_at(k);
            if (ga_cast_model_supports(m, r->out))
                r->tally[r->n++] = (struct ga_cast_tally){ .model = m, .truth = conventions[c] };
        }
    }
}

int ga_cast_sweep(const struct ga_domain *d, const struct ga_format *out,
                  struct ga_cast_result *r, ga_bits *undecided)
{
    const struct ga_format *in = d->format;
    ga_bits x[BATCH];

    memset(r, 0, sizeof *r);
    if (!ga_cast_output_allowed(out))
        return GA_CAST_BAD_FORMAT;
    r->in = in;
    r->out = out;
    snprintf(r->domain_spec, sizeof r->domain_spec, "%s", d->spec);
    plan(r);
    for (uint64_t start = 0; start < d->size; start += BATCH) {
        size_t n = d->size - start < BATCH ? (size_t)(d->size - start) : BATCH;

        if (ga_domain_fill(d, start, n, x) != 0)
            return GA_CAST_READ_FAILED;
        for (size_t i = 0; i < n; i++) {
            struct ga_truth truth[3], beyond;
            bool decided[3] = { false, false, false };

            /* Beyond the threshold exactly when overflow to NaN gives NaN,
             * or an infinity (+inf in E5M2), for an input that is not NaN. */
            if (ga_truth_cast(in, x[i], out, GA_OVERFLOW_NAN, &beyond) != GA_TRUTH_OK) {
                *undecided = x[i];
                return GA_CAST_UNDECIDED;
            }
            enum ga_class c = ga_classify(out, beyond.rounded);
            bool is_beyond = (c == GA_NAN || c == GA_INFINITE) && !ga_is_nan(in, x[i]);
            r->beyond += is_beyond;
            r->inputs++;
            for (size_t j = 0; j < r->n; j++) {
                struct ga_cast_tally *t = &r->tally[j];
                ga_bits y = ga_gelu_erf_cast(in, x[i], out, t->model->how);

                if (!decided[t->truth]) {
                    if (ga_truth_cast(in, x[i], out, t->truth, &truth[t->truth]) != GA_TRUTH_OK) {
                        *undecided = x[i];
                        return GA_CAST_UNDECIDED;
                    }
                    decided[t->truth] = true;
                }
                tally_add(t, out, x[i], y, &truth[t->truth], is_beyond);
            }
        }
    }
    return GA_CAST_OK;
}
