/* Truth tables built once, and the truth of any block (truth_block.h). */
#include "api/truth_block.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>

#include "api/api_status.h"
#include "truth/backward.h"
#include "truth/fast.h"

struct table {
    struct ga_api_table view;
    struct ga_truth truth[1 << 16];
    uint16_t rounded[1 << 16];
};

/* Published once built (release), read without the lock (acquire); never
 * freed: at most 28 of them, reachable until the process ends. */
static struct table *tables[GA_ALL_FUNCTION_COUNT][GA_FORMAT_COUNT];
static pthread_mutex_t building = PTHREAD_MUTEX_INITIALIZER;

/* ga_truth_fast_batch's mark of an input it could not decide. */
static int is_undecided(const struct ga_truth *t)
{
    return isnan(t->exact.mant) && t->exact.exp == 1;
}

static int undecided(enum ga_function fn, const struct ga_format *f, ga_bits x)
{
    char hex[GA_BITS_TEXT_LEN];

    ga_format_bits(f, x, hex);
    return ga_api_fail(GELU_ACC_E_UNDECIDED, "the oracle could not certify %s(%s) in %s below "
                       "%d bits of precision", ga_function_name(fn), hex, f->name,
                       GA_ZIV_MAX_PRECISION);
}

/* The truths of x[0, n) by the fast oracle. */
static int compute(enum ga_function fn, const struct ga_format *f, const ga_bits *x,
                   struct ga_truth *t, size_t n)
{
    if (ga_truth_fast_batch(fn, f, x, t, n) != 0)
        for (size_t i = 0; i < n; i++)
            if (is_undecided(&t[i]))
                return undecided(fn, f, x[i]);
    return GELU_ACC_OK;
}

static int build(enum ga_function fn, const struct ga_format *f, struct table **out)
{
    struct table *t = malloc(sizeof *t);
    uint64_t count = ga_encoding_count(f);
    ga_bits x[256];
    int status = GELU_ACC_OK;

    if (!t)
        return ga_api_fail(GELU_ACC_E_MEMORY, "out of memory for the %s table of %s", f->name,
                           ga_function_name(fn));
    for (uint64_t first = 0; first < count && status == GELU_ACC_OK; first += 256) {
        size_t n = count - first < 256 ? (size_t)(count - first) : 256;
        for (size_t i = 0; i < n; i++)
            x[i] = first + i;
        status = compute(fn, f, x, &t->truth[first], n);
    }
    if (status != GELU_ACC_OK) {
        free(t);
        return status;
    }
    for (uint64_t i = 0; i < count; i++)
        t->rounded[i] = (uint16_t)t->truth[i].rounded;
    t->view.truth = t->truth;
    t->view.rounded = t->rounded;
    *out = t;
    return GELU_ACC_OK;
}

int ga_api_table(enum ga_function fn, const struct ga_format *f, const struct ga_api_table **out)
{
    struct table *t = __atomic_load_n(&tables[fn][f->id], __ATOMIC_ACQUIRE);
    int status = GELU_ACC_OK;

    if (!t) {
        pthread_mutex_lock(&building);
        if (!(t = tables[fn][f->id]) && (status = build(fn, f, &t)) == GELU_ACC_OK)
            __atomic_store_n(&tables[fn][f->id], t, __ATOMIC_RELEASE);
        pthread_mutex_unlock(&building);
    }
    if (status == GELU_ACC_OK)
        *out = &t->view;
    return status;
}

int ga_api_truths(enum ga_function fn, const struct ga_format *f, const ga_bits *x,
                  struct ga_truth *t, size_t n)
{
    const struct ga_api_table *table;
    int status;

    if (!ga_api_tabled(f))
        return compute(fn, f, x, t, n);
    if ((status = ga_api_table(fn, f, &table)) != GELU_ACC_OK)
        return status;
    for (size_t i = 0; i < n; i++)
        t[i] = table->truth[x[i]];
    return GELU_ACC_OK;
}

static int backward_undecided(enum ga_function forward, const struct ga_format *f, ga_bits x,
                              ga_bits dy)
{
    char hex[GA_BITS_TEXT_LEN], dy_hex[GA_BITS_TEXT_LEN];

    ga_format_bits(f, x, hex);
    ga_format_bits(f, dy, dy_hex);
    return ga_api_fail(GELU_ACC_E_UNDECIDED, "the oracle could not certify the backward of %s "
                       "at x = %s, dy = %s in %s", ga_function_name(forward), hex, dy_hex, f->name);
}

int ga_api_backward_truths(enum ga_function forward, const struct ga_format *f, const ga_bits *x,
                           const ga_bits *dy, struct ga_truth *t, size_t n)
{
    enum ga_function d = forward == GA_GELU ? GA_GELU_GRAD : GA_GELU_TANH_GRAD;
    struct ga_grad_value g;
    ga_bits g_x = 0;
    int have_g = 0;

    for (size_t i = 0; i < n; i++) {
        if (!have_g || g_x != x[i]) {
            if (ga_grad_value(d, ga_decode(f, x[i]), &g) != GA_TRUTH_OK)
                return backward_undecided(forward, f, x[i], dy[i]);
            have_g = 1;
            g_x = x[i];
        }
        if (ga_backward_truth(d, f, &g, x[i], dy[i], &t[i]) != GA_TRUTH_OK)
            return backward_undecided(forward, f, x[i], dy[i]);
    }
    return GELU_ACC_OK;
}

void ga_api_call_done(void)
{
    ga_truth_thread_done();
}
