/* Domain specs (domain/domain.h), file: aside (fuzz_bits_file reads files):
 * a refusal says why; an accepted domain has at least one input and at
 * most its documented limit, a whole number of sweep chunks covers it, and
 * its first and last inputs are encodings of the format. */
#include "fuzz.h"

#include "domain/domain.h"
#include "measure/sweep.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *spec = fuzz_string(data, size);

    if (strncmp(spec, "file:", 5) != 0) {
        for (int id = 0; id < GA_FORMAT_COUNT; id++) {
            const struct ga_format *f = ga_format_get((enum ga_format_id)id);
            struct ga_domain d;
            char err[512] = "";
            ga_bits first, last;

            if (ga_domain_parse(&d, spec, f, err, sizeof err) != 0) {
                FUZZ_ASSERT(err[0] != '\0');
                continue;
            }
            FUZZ_ASSERT(d.size >= 1);
            /* a sweep's limit for random and joined domains, and where the
             * encodings are too many to count (float64) */
            FUZZ_ASSERT(d.size <= (d.kind == GA_DOMAIN_RANDOM || d.kind == GA_DOMAIN_JOIN
                                   || !ga_is_enumerable(f)
                                       ? GA_DOMAIN_MAX_RANDOM
                                       : ga_encoding_count(f)));
            FUZZ_ASSERT(ga_sweep_chunk_count(d.size) >= d.size / GA_SWEEP_CHUNK);
            FUZZ_ASSERT((ga_sweep_chunk_count(d.size) - 1) * GA_SWEEP_CHUNK < d.size);
            FUZZ_ASSERT(strcmp(d.spec, spec) == 0);
            FUZZ_ASSERT(ga_domain_fill(&d, 0, 1, &first) == 0 && ga_fits(f, first));
            FUZZ_ASSERT(ga_domain_fill(&d, d.size - 1, 1, &last) == 0 && ga_fits(f, last));
            ga_domain_free(&d);
        }
    }
    free(spec);
    return 0;
}
