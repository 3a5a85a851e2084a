/* Running a plugin's kernel (plugin.h): batches sent to worker processes
 * from a pool, a failing batch narrowed to the inputs that fail, the
 * outputs checked for encodings of the format and for depending on their
 * position in the batch. */
#define _GNU_SOURCE
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isolation/bisect.h"
#include "isolation/plugin_internal.h"

/* The position check (check_position) appends this many inputs of the
 * batch to its last kernel call: the worker arrays have room for them. */
enum { POSITION_SAMPLE = 31, POSITION_TAIL = 8 };

/* Workers per caller: take one from the pool or start one. */
static struct ga_worker *take_worker(struct ga_plugin *p, char *why, size_t why_size)
{
    struct ga_worker *w;

    pthread_mutex_lock(&p->lock);
    w = p->idle;
    if (w != NULL)
        p->idle = w->next;
    pthread_mutex_unlock(&p->lock);
    if (w != NULL)
        return w;
    return ga_worker_start(&(struct ga_worker_kernel){ .path = p->path, .symbol = p->symbol,
                                                       .load_timeout_s = p->opt.timeout_s },
                           (size_t)ga_storage_bytes(p->format),
                           p->opt.max_call + POSITION_SAMPLE, p->backward, why, why_size);
}

static void give_worker(struct ga_plugin *p, struct ga_worker *w)
{
    if (w == NULL)
        return;
    pthread_mutex_lock(&p->lock);
    w->next = p->idle;
    p->idle = w;
    pthread_mutex_unlock(&p->lock);
}

/* Encodings into elements [at, at + count) of one of the worker's arrays
 * for a call of `total` elements, in the kernel's element type; float32
 * and float64 encodings are the value's bits.  shift picks a pair's half
 * (32: dy; pairs are of formats of 32 bits or fewer). */
static void put_array(const struct ga_plugin *p, void *array, size_t at, const ga_bits *in,
                      size_t count, int shift)
{
    if (p->format->bits == 64) {
        uint64_t *dst = (uint64_t *)array + at;
        for (size_t i = 0; i < count; i++)
            dst[i] = in[i] >> shift;
    } else if (p->format->bits == 32) {
        uint32_t *dst = (uint32_t *)array + at;
        for (size_t i = 0; i < count; i++)
            dst[i] = (uint32_t)(in[i] >> shift);
    } else if (ga_storage_bytes(p->format) == 2) {
        uint16_t *dst = (uint16_t *)array + at;
        for (size_t i = 0; i < count; i++)
            dst[i] = (uint16_t)(in[i] >> shift);
    } else {
        uint8_t *dst = (uint8_t *)array + at;
        for (size_t i = 0; i < count; i++)
            dst[i] = (uint8_t)(in[i] >> shift);
    }
}

/* Inputs into elements [at, at + count) for a call of `total` elements: a
 * backward kernel's pairs into its x and dy arrays. */
static void put_inputs(const struct ga_plugin *p, struct ga_worker *w, size_t total, size_t at,
                       const ga_bits *in, size_t count)
{
    put_array(p, ga_worker_in(w, total), at, in, count, 0);
    if (p->backward)
        put_array(p, ga_worker_dy(w, total), at, in, count, 32);
}

/* An input as messages show it: its encoding, or a pair's two. */
static const char *input_text(const struct ga_plugin *p, ga_bits in,
                              char buf[2 * GA_BITS_TEXT_LEN + 16])
{
    char hx[GA_BITS_TEXT_LEN], hdy[GA_BITS_TEXT_LEN];

    ga_format_bits(p->format, p->backward ? in & 0xffffffffu : in, hx);
    if (!p->backward)
        snprintf(buf, 2 * GA_BITS_TEXT_LEN + 16, "%s", hx);
    else {
        ga_format_bits(p->format, in >> 32, hdy);
        snprintf(buf, 2 * GA_BITS_TEXT_LEN + 16, "x = %s, dy = %s", hx, hdy);
    }
    return buf;
}

/* Elements [at, at + count) of a worker array of the kernel's element type
 * as encodings. */
static void get_array(const struct ga_plugin *p, const void *array, size_t at, ga_bits *out,
                      size_t count)
{
    if (p->format->bits == 64) {
        const uint64_t *src = (const uint64_t *)array + at;
        for (size_t i = 0; i < count; i++)
            out[i] = src[i];
    } else if (p->format->bits == 32) {
        const uint32_t *src = (const uint32_t *)array + at;
        for (size_t i = 0; i < count; i++)
            out[i] = src[i];
    } else if (ga_storage_bytes(p->format) == 2) {
        const uint16_t *src = (const uint16_t *)array + at;
        for (size_t i = 0; i < count; i++)
            out[i] = src[i];
    } else {
        const uint8_t *src = (const uint8_t *)array + at;
        for (size_t i = 0; i < count; i++)
            out[i] = src[i];
    }
}

static void get_outputs(const struct ga_plugin *p, const struct ga_worker *w, size_t total,
                        size_t at, ga_bits *out, size_t count)
{
    get_array(p, ga_worker_out(w, total), at, out, count);
}

/* Narrowing: each probe runs a sub-range in a worker, starting a fresh one
 * after each failure. */
struct probe_ctx {
    struct ga_plugin *p;
    const ga_bits *in;
    double timeout_s;
    struct ga_worker *w;
};

static enum ga_probe_result probe(void *arg, size_t first, size_t count)
{
    struct probe_ctx *c = arg;
    char what[160];

    if (c->w == NULL)
        c->w = take_worker(c->p, what, sizeof what);
    if (c->w == NULL)
        return GA_PROBE_ERROR;
    put_inputs(c->p, c->w, count, 0, c->in + first, count);
    switch (ga_worker_call(c->w, count, c->timeout_s, what, sizeof what)) {
    case GA_WORKER_OK:
        return GA_PROBE_PASS;
    case GA_WORKER_ERROR:
        ga_worker_stop(c->w);
        c->w = NULL;
        return GA_PROBE_ERROR;
    default:
        ga_worker_stop(c->w);
        c->w = NULL;
        return GA_PROBE_FAIL;
    }
}

/* Probes of [base, base + count) of another probe_ctx's inputs. */
struct sub_ctx {
    struct probe_ctx *c;
    size_t base;
};

static enum ga_probe_result probe_sub(void *arg, size_t first, size_t count)
{
    struct sub_ctx *s = arg;
    return probe(s->c, s->base + first, count);
}

/* Input f fails on its own: the last input of its run, by probing single
 * inputs at f + 1, f + 2, f + 4, ... (at most l, which fails) and then
 * bisecting between the last that failed and the first that passed.
 * Failing inputs are assumed to come in runs: a gap between two probes is
 * not seen.  false when a probe errs. */
static bool run_end(struct probe_ctx *c, size_t f, size_t l, size_t *end)
{
    size_t fail = f, step = 1, pass;

    for (;;) {
        size_t x = l - fail < step ? l : fail + step;
        enum ga_probe_result r;

        if (x == fail) {
            *end = fail;
            return true;
        }
        r = probe(c, x, 1);
        if (r == GA_PROBE_ERROR)
            return false;
        if (r == GA_PROBE_PASS) {
            pass = x;
            break;
        }
        fail = x;
        step *= 2;
    }
    while (pass - fail > 1) {
        size_t mid = fail + (pass - fail) / 2;
        enum ga_probe_result r = probe(c, mid, 1);
        if (r == GA_PROBE_ERROR)
            return false;
        if (r == GA_PROBE_FAIL)
            fail = mid;
        else
            pass = mid;
    }
    *end = fail;
    return true;
}

/* The runs of failing inputs in [f, l] (both fail on their own), each run's
 * end by run_end, the next run's start by bisection (exact: it probes
 * ranges).  The last span allowed, or a probe that errs, takes what is
 * left up to l. */
static void find_spans(struct probe_ctx *c, size_t f, size_t l, struct ga_run_failure *failure)
{
    size_t k = 0;

    for (;;) {
        struct sub_ctx rest;
        size_t end = l, next;

        if (k + 1 < GA_RUN_SPANS && !run_end(c, f, l, &end))
            end = l;
        failure->span[k].first = f;
        failure->span[k].last = end;
        k++;
        if (end == l)
            break;
        rest = (struct sub_ctx){ c, end + 1 };
        if (!ga_bisect_first(probe_sub, &rest, l + 1 - rest.base, &next)) {
            failure->span[k - 1].last = l;
            break;
        }
        f = rest.base + next;
    }
    failure->span_count = k;
}

/* The call on in[0..n) failed with result r: fill failure's range. */
static void narrow(struct ga_plugin *p, const ga_bits *in, size_t n, enum ga_worker_result r,
                   struct ga_run_failure *failure)
{
    /* A probe runs part of the call: it gets no longer than the call did. */
    struct probe_ctx c = { .p = p, .in = in, .w = NULL,
                           .timeout_s = r == GA_WORKER_TIMEOUT ? fmin(p->opt.narrow_timeout_s,
                                                                      p->opt.timeout_s)
                                                               : p->opt.timeout_s };
    size_t first, last;

    failure->first = 0;
    failure->last = n - 1;
    failure->span_count = 0;
    if (!p->opt.narrow || r == GA_WORKER_ERROR)
        return;
    /* A store past the end rarely depends on the inputs: when a call of
     * one element does it too, bisection would only find it everywhere. */
    if (r == GA_WORKER_OUT_OF_BOUNDS && probe(&c, 0, 1) != GA_PROBE_PASS) {
        size_t used = strlen(failure->what);
        snprintf(failure->what + used, sizeof failure->what - used,
                 " (in a call of one element too)");
        give_worker(p, c.w);
        return;
    }
    if (!ga_bisect_first(probe, &c, n, &first)) {
        size_t used = strlen(failure->what);
        snprintf(failure->what + used, sizeof failure->what - used,
                 " (not narrowed to a smaller range)");
    } else {
        last = first;
        /* Hangs: each probe may cost a timeout; the first one is enough. */
        if (r != GA_WORKER_TIMEOUT && !ga_bisect_last(probe, &c, first, n, &last))
            last = n - 1;
        failure->first = first;
        failure->last = last;
        if (r != GA_WORKER_TIMEOUT)
            find_spans(&c, first, last, failure);
    }
    give_worker(p, c.w);
}

/* The contract says out[i] depends on in[i] alone.  A sample of the batch
 * is run again elsewhere, at no extra round trip: reversed, after the
 * batch's own inputs in its last kernel call (so the last inputs of a call,
 * where vector code has its scalar epilogue, come first, and the sample
 * ends the call unaligned); and, for one batch in 16 (chosen by its first
 * input), the last input alone in a call of its own.  Every output must be
 * the same encoding.  The sample depends on n and the inputs alone, so the
 * check is the same for any thread count. */
struct position_sample {
    size_t index[POSITION_SAMPLE];      /* into the batch, increasing */
    size_t count;
    ga_bits x[POSITION_SAMPLE], y[POSITION_SAMPLE];   /* reversed */
};

static void position_sample(struct position_sample *ps, const ga_bits *in, size_t n)
{
    size_t spread = n > POSITION_TAIL ? n - POSITION_TAIL : 0;
    size_t spaced = POSITION_SAMPLE - POSITION_TAIL;

    ps->count = 0;
    /* Evenly spaced over the body, then the last POSITION_TAIL inputs. */
    for (size_t k = 0; k < spaced && k < spread; k++)
        ps->index[ps->count++] = spread <= spaced ? k : k * spread / spaced;
    for (size_t i = spread; i < n; i++)
        ps->index[ps->count++] = i;
    for (size_t k = 0; k < ps->count; k++)
        ps->x[k] = in[ps->index[ps->count - 1 - k]];
}

/* y[k] answered x[k] at position `at + k` of a call of `total`: compare
 * with the batch's output.  0, or -1 with failure filled in. */
static int compare_sample(const struct ga_plugin *p, const struct position_sample *ps,
                          const ga_bits *in, const ga_bits *out, size_t n, size_t m,
                          size_t at, size_t total, struct ga_run_failure *failure)
{
    for (size_t k = 0; k < m; k++) {
        size_t i = ps->index[ps->count - 1 - k], call = i / p->opt.max_call * p->opt.max_call;
        size_t call_n = n - call < p->opt.max_call ? n - call : p->opt.max_call;
        char hx[2 * GA_BITS_TEXT_LEN + 16], ha[GA_BITS_TEXT_LEN], hb[GA_BITS_TEXT_LEN];

        if (ga_same_encoding(p->format, out[i], ps->y[k]))
            continue;
        input_text(p, in[i], hx);
        ga_format_bits(p->format, out[i], ha);
        ga_format_bits(p->format, ps->y[k], hb);
        /* Used return value: truncation is harmless, and GCC then lets it be. */
        if (snprintf(failure->what, sizeof failure->what, "broke the contract: its output "
                     "for input %s depends on its position in the batch: %s at %zu of %zu, "
                     "%s at %zu of %zu", hx, ha, i - call, call_n + (call + call_n == n
                     && p->opt.check_position ? ps->count : 0), hb, at + k, total) < 0)
            failure->what[0] = '\0';
        failure->first = failure->last = i;
        return -1;
    }
    return 0;
}

/* A 6- or 4-bit format's outputs leave the bits above its width 0: an
 * output with them set is no encoding (kernel.h).  0, or -1 with failure. */
static int check_encodings(const struct ga_plugin *p, const ga_bits *in, const ga_bits *out,
                           size_t start, size_t m, struct ga_run_failure *failure)
{
    if (p->format->bits == 8 * ga_storage_bytes(p->format))
        return 0;  /* read from whole elements: every output is an encoding */
    for (size_t i = start; i < start + m; i++) {
        char hx[GA_BITS_TEXT_LEN];
        if (ga_fits(p->format, out[i]))
            continue;
        ga_format_bits(p->format, in[i], hx);
        snprintf(failure->what, sizeof failure->what, "broke the contract: its output for "
                 "input %s is 0x%02x, not a %s encoding (bits above the low %d set)", hx,
                 (unsigned)out[i], p->format->name, p->format->bits);
        failure->first = failure->last = i;
        return -1;
    }
    return 0;
}

/* For one batch in 16: the last input alone.  0, or -1 with failure. */
static int check_alone(struct ga_plugin *p, struct ga_worker **w, struct position_sample *ps,
                       const ga_bits *in, const ga_bits *out, size_t n,
                       struct ga_run_failure *failure)
{
    if (ps->count < 2 || (uint32_t)(in[0] * 0x9e3779b9u) >> 28 != 0)
        return 0;
    put_inputs(p, *w, 1, 0, ps->x, 1);
    if (ga_worker_call(*w, 1, p->opt.timeout_s, failure->what, sizeof failure->what)
        != GA_WORKER_OK) {
        ga_worker_stop(*w);
        *w = NULL;
        failure->first = failure->last = n - 1;
        return -1;
    }
    get_outputs(p, *w, 1, 0, ps->y, 1);
    return compare_sample(p, ps, in, out, n, 1, 0, 1, failure);
}

int ga_plugin_run_batch(const struct ga_impl *impl, const struct ga_format *f,
                        const ga_bits *in, ga_bits *out, size_t n,
                        struct ga_run_failure *failure)
{
    struct ga_plugin *p = (struct ga_plugin *)impl->data;
    struct position_sample ps = { .count = 0 };
    struct ga_worker *w;

    failure->span_count = 0;
    if (n == 0)
        return 0;
    if (f != p->format) {
        failure->first = 0;
        failure->last = n - 1;
        snprintf(failure->what, sizeof failure->what, "the kernel is for %s, not %s",
                 p->format->name, f->name);
        return -1;
    }
    w = take_worker(p, failure->what, sizeof failure->what);
    if (w == NULL) {
        char why[sizeof failure->what];
        memcpy(why, failure->what, sizeof why);
        snprintf(failure->what, sizeof failure->what, "no worker process: %.130s", why);
        failure->first = 0;
        failure->last = n - 1;
        return -1;
    }
    if (p->opt.check_position)
        position_sample(&ps, in, n);
    for (size_t start = 0; start < n;) {
        size_t m = n - start < p->opt.max_call ? n - start : p->opt.max_call;
        size_t extra = start + m == n ? ps.count : 0;   /* the sample ends the last call */
        enum ga_worker_result r;

        put_inputs(p, w, m + extra, 0, in + start, m);
        put_inputs(p, w, m + extra, m, ps.x, extra);
        r = ga_worker_call(w, m + extra, p->opt.timeout_s, failure->what, sizeof failure->what);
        if (r != GA_WORKER_OK) {
            ga_worker_stop(w);
            narrow(p, in + start, m, r, failure);
            failure->first += start;
            failure->last += start;
            for (size_t k = 0; k < failure->span_count; k++) {
                failure->span[k].first += start;
                failure->span[k].last += start;
            }
            return -1;
        }
        get_outputs(p, w, m + extra, 0, out + start, m);
        get_outputs(p, w, m + extra, m, ps.y, extra);
        if (check_encodings(p, in, out, start, m, failure) != 0) {
            give_worker(p, w);
            return -1;
        }
        if (extra && compare_sample(p, &ps, in, out, n, extra, m, m + extra, failure) != 0) {
            give_worker(p, w);
            return -1;
        }
        start += m;
    }
    if (p->opt.check_position && check_alone(p, &w, &ps, in, out, n, failure) != 0) {
        give_worker(p, w);
        return -1;
    }
    give_worker(p, w);
    return 0;
}

/* Where plugin_run_many stages a batch's calls: its own (the batch and its
 * position sample) and, when check_alone picks it, the last input alone. */
struct staged_batch {
    struct position_sample ps;
    size_t at, total;           /* the first call: its first staged element, its size */
    bool alone;                 /* a call of one element follows */
};

/* Stage every call ga_plugin_run_batch would make for the batches, in its order;
 * false when they do not fit in one staged round trip. */
static bool stage_batches(struct ga_plugin *p, struct ga_worker *w, const ga_bits *const *in,
                          const size_t *n, size_t count, struct staged_batch *sb, size_t *calls)
{
    uint64_t *counts = ga_worker_stage_counts(w);
    size_t at = 0;

    *calls = 0;
    for (size_t k = 0; k < count; k++) {
        struct staged_batch *b = &sb[k];
        b->ps.count = 0;
        if (n[k] == 0)
            continue;
        if (n[k] > p->opt.max_call)
            return false;
        if (p->opt.check_position)
            position_sample(&b->ps, in[k], n[k]);
        b->alone = p->opt.check_position && b->ps.count >= 2
                   && (uint32_t)(in[k][0] * 0x9e3779b9u) >> 28 == 0;
        b->at = at;
        b->total = n[k] + b->ps.count;
        if (*calls + 2 > GA_WORKER_MAX_CALLS || at + b->total + 1 > w->stage_capacity)
            return false;
        put_array(p, ga_worker_stage_in(w), at, in[k], n[k], 0);
        put_array(p, ga_worker_stage_in(w), at + n[k], b->ps.x, b->ps.count, 0);
        counts[(*calls)++] = b->total;
        at += b->total;
        if (b->alone) {
            put_array(p, ga_worker_stage_in(w), at, b->ps.x, 1, 0);
            counts[(*calls)++] = 1;
            at++;
        }
    }
    return true;
}

/* The staged outputs of batch k, checked as ga_plugin_run_batch checks them; false
 * at the first check that fails. */
static bool take_batch(struct ga_plugin *p, struct ga_worker *w, struct staged_batch *b,
                       const ga_bits *in, ga_bits *out, size_t n)
{
    struct ga_run_failure scratch;
    const void *staged = ga_worker_stage_out(w);

    get_array(p, staged, b->at, out, n);
    get_array(p, staged, b->at + n, b->ps.y, b->ps.count);
    if (check_encodings(p, in, out, 0, n, &scratch) != 0
        || (b->ps.count && compare_sample(p, &b->ps, in, out, n, b->ps.count, n, b->total,
                                          &scratch) != 0))
        return false;
    if (!b->alone)
        return true;
    get_array(p, staged, b->at + b->total, b->ps.y, 1);
    return compare_sample(p, &b->ps, in, out, n, 1, 0, 1, &scratch) == 0;
}

/* Every batch's calls in one round trip.  When anything fails (the worker,
 * a check), the batches run again one by one through ga_plugin_run_batch, so that
 * failures are found, narrowed and worded exactly as there. */
bool ga_plugin_runs_many(const struct ga_impl *impl)
{
    return impl->run == ga_plugin_run_batch && !((const struct ga_plugin *)impl->data)->backward;
}

bool ga_plugin_run_many(const struct ga_impl *impl, const struct ga_format *f,
                        const ga_bits *const *in, ga_bits *const *out, const size_t *n,
                        size_t count, int *status, struct ga_run_failure *failure)
{
    struct ga_plugin *p = (struct ga_plugin *)impl->data;
    struct staged_batch *sb = f == p->format && count > 1 ? malloc(count * sizeof *sb) : NULL;
    struct ga_worker *w = sb ? take_worker(p, failure[0].what, sizeof failure[0].what) : NULL;
    bool ok = w != NULL;
    size_t calls = 0;

    ok = ok && stage_batches(p, w, in, n, count, sb, &calls);
    if (ok && calls > 0 && ga_worker_call_staged(w, calls, p->opt.timeout_s, failure[0].what,
                                                 sizeof failure[0].what) != GA_WORKER_OK) {
        ga_worker_stop(w);
        w = NULL;
        ok = false;
    }
    for (size_t k = 0; ok && k < count; k++) {
        failure[k].span_count = 0;
        status[k] = 0;
        ok = n[k] == 0 || take_batch(p, w, &sb[k], in[k], out[k], n[k]);
    }
    give_worker(p, w);
    free(sb);
    for (size_t k = 0; !ok && k < count; k++)
        status[k] = ga_plugin_run_batch(impl, f, in[k], out[k], n[k], &failure[k]);
    return ok;
}

int ga_plugin_run_backward(struct ga_plugin *p, const ga_bits *dy, const ga_bits *x,
                           ga_bits *dx, size_t n, struct ga_run_failure *failure)
{
    ga_bits *pairs = malloc((n ? n : 1) * sizeof *pairs);
    int r;

    if (pairs == NULL) {
        snprintf(failure->what, sizeof failure->what, "out of memory");
        failure->first = 0;
        failure->last = n ? n - 1 : 0;
        failure->span_count = 0;
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        pairs[i] = ga_plugin_pair(x[i], dy[i]);
    r = ga_plugin_run_batch(&p->impl, p->format, pairs, dx, n, failure);
    free(pairs);
    return r;
}

void ga_plugin_release_workers(struct ga_plugin *p)
{
    struct ga_worker *w;

    pthread_mutex_lock(&p->lock);
    w = p->idle;
    p->idle = NULL;
    pthread_mutex_unlock(&p->lock);
    while (w != NULL) {
        struct ga_worker *next = w->next;
        ga_worker_stop(w);
        w = next;
    }
}
