/* Facts about GELU, each computed with MPFR rather than typed in: where the
 * minimum lies and its value, how far the tanh form and quick GELU stray from
 * exact GELU and where, and where the truth rounds to -0 in each format.
 * How each is established: doc/mathematics.md, 'Facts, checked'. */
#ifndef GA_FACTS_H
#define GA_FACTS_H

#include <stdbool.h>

#include "formats/format.h"
#include "io/io_error.h"
#include "truth/function.h"

/* The minimum of a function f: f' < 0 at lo and f' > 0 at hi (proved by
 * truth/grad_sign.h), lo and hi adjacent doubles unless the proof stopped
 * earlier; value = f(hi) to double precision (f(hi) - f(x0) < 0.22 (hi - lo)^2). */
struct ga_fact_minimum {
    double lo, hi, value;
};

/* The largest |approx - gelu| over the reals: the function is even (both
 * satisfy f(x) - f(-x) = x), so at +-x; diff = approx(x) - gelu(x). */
struct ga_fact_largest_difference {
    double x, diff;
};

struct ga_facts {
    struct ga_fact_minimum gelu_minimum, tanh_minimum;
    struct ga_fact_largest_difference tanh_difference, quick_difference;
    /* Where the truth is -0 for a negative input, per format and function.
     * Both curves are negative on (-inf, 0) with one minimum, so the set is a
     * left tail (-inf, zero_from] and an interval [zero_near, 0) next to zero,
     * or every negative input (all_zero; the small formats whose half least
     * subnormal exceeds |gelu(x0)|).  zero_from: the largest negative input
     * at and below which every truth is -0 (report/underflow.c for the wide
     * formats, a scan for the small ones); zero_near: the least negative input
     * from which every truth up to 0 is -0.  has_*: false when there is none
     * (or the search failed). */
    bool has_zero_from[GA_FORMAT_COUNT][GA_FUNCTION_COUNT];
    ga_bits zero_from[GA_FORMAT_COUNT][GA_FUNCTION_COUNT];
    bool has_zero_near[GA_FORMAT_COUNT][GA_FUNCTION_COUNT];
    ga_bits zero_near[GA_FORMAT_COUNT][GA_FUNCTION_COUNT];
    bool all_zero[GA_FORMAT_COUNT][GA_FUNCTION_COUNT];
    /* each minimum's value (gelu_minimum, tanh_minimum) correctly rounded to
     * each format, certified: the rounding of value +- 2^-100 agrees */
    ga_bits minimum_rounded[GA_FORMAT_COUNT][GA_FUNCTION_COUNT];
};

/* Returns 0, or -1 when a proof fails (a sign left undecided at the start
 * of a bracket, a rounded minimum left undecided: never expected). */
int ga_facts_compute(struct ga_facts *out);

/* The -0 sets of struct ga_facts (report/facts_zero.c).  0, or -1 when the
 * oracle fails. */
int ga_facts_zero_sets(struct ga_facts *out);

/* dir/facts.md and dir/facts.html (report/facts_page.c).  Returns GA_IO_OK
 * or a status with err set. */
enum ga_io_status ga_write_facts_pages(const char *dir, const struct ga_facts *facts,
                                       struct ga_io_error *err);

/* quick GELU's constant: x sigma(1.702 x). */
#define GA_QUICK_GELU_ALPHA 1.702

#endif
