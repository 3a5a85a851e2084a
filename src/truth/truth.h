/* The ground truth: the correctly rounded result of a reference function for
 * one input encoding, and its exact value to double precision.
 *
 * Special values (doc/mathematics.md, 'Special values'): f(NaN) = NaN, f(+inf) = +inf,
 * f(-inf) = -0, f(+-0) = +-0; results that underflow keep their sign.
 * The derivatives (src/truth/grad_limits.h): f(NaN) = NaN, f(+inf) = 1,
 * f(-inf) = -0, f(+-0) = 1/2. */
#ifndef GA_TRUTH_H
#define GA_TRUTH_H

#include "formats/format.h"
#include "truth/function.h"

/* A real number as mant * 2^exp with 0.5 <= |mant| < 1, so that values far
 * outside the double range (the left tail of GELU in bfloat16 reaches
 * exp(-10^76)) keep their magnitude.  mant = +-0 for an exact zero; mant =
 * +-inf or NaN (exp = 0) for the special results.  Values whose binary
 * exponent would lie below GA_EXACT_EXP_MIN are held with exp = GA_EXACT_EXP_MIN:
 * "smaller than 2^GA_EXACT_EXP_MIN", which is zero for every error measure. */
struct ga_exact {
    double mant;
    long exp;
};
#define GA_EXACT_EXP_MIN (-(1L << 40))

/* What the oracles certify, and what they only approximate:
 * - `rounded` and `direction` are certified (proved by an error bound, or
 *   decided by MPFR): every classification of an output (correctly rounded,
 *   faithful, flushed, wrong zero sign, ordinal distance) is decided from
 *   them alone (grade/error.h);
 * - `exact` + `tail` is approximate: it gives the magnitude of an error,
 *   whose last digits it may move.  f = (exact.mant + tail) * 2^exact.exp:
 *   exact.mant is f to 53 bits, tail the rest (|tail| <= 2^-54, rounded to
 *   a float).  From MPFR the sum has a relative error below 2^-(p + 21) for
 *   a format of precision p (and below 2^-53 whatever p), so that every
 *   error measure is good to 2^-20 ulp, float64's included
 *   (ga_ziv_exact_bits in truth/ziv.h); tail is 0 where 53 bits suffice
 *   (p <= 32).  From the fast oracle, which serves formats of at most 24
 *   bits, below 2^-43 with tail 0.  It may even equal
 *   the value of `rounded` or lie on the wrong side of it.  Its binade,
 *   which sets the ulp, is right except when `rounded` is a power of 2,
 *   where the certified binade follows from `direction` (ga_error_binade in
 *   grade/error.h). */
struct ga_truth {
    ga_bits rounded;        /* correctly rounded, ties to even, in the format */
    int8_t direction;       /* sign of f - rounded: -1, +1, or 0 when f is rounded itself */
    float tail;             /* f / 2^exact.exp - exact.mant, in what was padding */
    struct ga_exact exact;  /* exact value to 53 bits, see above */
};
/* A sweep holds one truth per input: the tail must not make it bigger. */
_Static_assert(sizeof(struct ga_truth) == sizeof(ga_bits) + 8 + sizeof(struct ga_exact),
               "the tail fits in ga_truth's padding");

enum ga_truth_status {
    GA_TRUTH_OK = 0,
    GA_TRUTH_UNDECIDED = 1,  /* the Ziv loop reached its precision cap: no result */
};

enum ga_oracle { GA_ORACLE_FAST, GA_ORACLE_MPFR };

/* The MPFR Ziv-loop oracle, for every function (forward and derivative).  Thread-safe (MPFR's exponent range is
 * thread-local in Debian's build).  Returns a ga_truth_status. */
int ga_truth_mpfr(enum ga_function fn, const struct ga_format *f, ga_bits x,
                  struct ga_truth *out);

/* GELU fused with a cast: x, an encoding of format in (a wider one),
 * correctly rounded into out under overflow convention o (which out must
 * allow), by the MPFR oracle.  Special inputs as above, mapped onto out:
 * +inf gives +inf, the largest finite or NaN as o says.  Returns a
 * ga_truth_status. */
int ga_truth_cast(const struct ga_format *in, ga_bits x, const struct ga_format *out,
                  enum ga_overflow o, struct ga_truth *t);

/* The oracle a sweep uses: fast with MPFR fallback, or MPFR only (the fast
 * oracle is MPFR's wherever it has no fast path: fast.h). */
int ga_truth(enum ga_oracle oracle, enum ga_function fn, const struct ga_format *f,
             ga_bits x, struct ga_truth *out);

/* To be called by a thread that computed truths, before it ends (the end
 * of an OpenMP parallel region): MPFR's caches are per thread, and the
 * OpenMP runtime may end the thread before the process ends (a later region
 * with fewer threads), losing their memory. */
void ga_truth_thread_done(void);

/* The precision cap of the Ziv loop, in bits. */
#define GA_ZIV_MAX_PRECISION 4096

#endif
