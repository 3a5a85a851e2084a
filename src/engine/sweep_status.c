/* A sweep's status in words (engine.h). */
#include "engine/engine.h"

#include <inttypes.h>
#include <stdio.h>

#include "truth/truth.h"

/* The message of the source that failed: the domain's or an output's. */
static const char *read_error(const struct ga_domain *d, const struct ga_measurement *m,
                              size_t n)
{
    const char *message = NULL;

    if (d->kind == GA_DOMAIN_SOURCE)
        message = d->source.error(d->source.ctx);
    for (size_t j = 0; !message && j < n; j++)
        if (!m[j].impl)
            message = m[j].outputs.error(m[j].outputs.ctx);
    return message ? message : "a read failed";
}

int ga_engine_sweep_status(int status, const struct ga_format *f, const struct ga_domain *d,
                           const struct ga_measurement *m, size_t n, ga_bits input, char *why,
                           size_t len)
{
    char hex[GA_BITS_TEXT_LEN];

    ga_format_bits(f, input, hex);
    switch (status) {
    case GA_SWEEP_OK:
        return GA_ENGINE_OK;
    case GA_SWEEP_UNDECIDED:
        snprintf(why, len, "the oracle reached its %d-bit cap on input %s", GA_ZIV_MAX_PRECISION,
                 hex);
        return GA_ENGINE_UNDECIDED;
    case GA_SWEEP_ORACLES_DISAGREE:
        snprintf(why, len, "the MPFR and fast oracles disagree on input %s (please report it)",
                 hex);
        return GA_ENGINE_UNDECIDED;
    case GA_SWEEP_READ_FAILED:
        snprintf(why, len, "%s", read_error(d, m, n));
        return GA_ENGINE_BAD_INPUT;
    case GA_SWEEP_TOO_LARGE:
        if (d->size > GA_SWEEP_MAX_INPUTS)
            snprintf(why, len, "the domain has %" PRIu64 " inputs; a sweep measures at most 2^32 "
                     "(every float32 encoding)", d->size);
        else  /* 2^32 inputs, all in one region */
            snprintf(why, len, "one region would count 2^32 inputs, more than the statistics "
                     "hold (at most 2^32 - 1 per region)");
        return GA_ENGINE_BAD_INPUT;
    case GA_SWEEP_BAD_FORMAT:
        snprintf(why, len, "an implementation has no %s version", f->name);
        return GA_ENGINE_BAD_INPUT;
    default:
        snprintf(why, len, "out of memory");
        return GA_ENGINE_UNDECIDED;
    }
}
