/* The mutation test of the proofs (real_models_test): each model proven
 * equal to a library (impls/proven.h) is changed in one place at a time,
 * one constant up by one ulp (in the precision the model holds it) or one
 * explicit rounding step dropped, and each mutant must fail the proof: some
 * input of the proof set (proof_set.h: every 16-bit input, the dense float32
 * set, the float64 set) where the mutant's output and the library's differ.
 *
 * A mutant that no proof tells from the library is
 * - shown equivalent here, when its model is proven in 16-bit formats only:
 *   it agrees with the unmutated model on every input of those formats;
 * - listed below as equivalent, with the reason, when its model computes in
 *   float32: `tests/mutants_test --exhaustive` compares each listed mutant
 *   with the unmutated model on all 2^32 float32 inputs (doc/libraries.md
 *   records the run);
 * - not tried, when it changes the model only in a format whose library is
 *   absent or refuses here (oneDNN's bfloat16 without AVX-512 BF16);
 * - else surviving, and the test fails.  So does a listed mutant that is
 *   killed, or an unmutated model that fails its proof.
 *
 * The proofs are the claims of real/model_claims.h whose model is in
 * impls/proven.h.  A model whose libraries are all absent is skipped, with
 * the reason.  Plain
 * TAP, as real_models_test; the last line counts the mutants. */
#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "formats/format.h"
#include "impls/impl.h"
#include "impls/proven.h"
#include "proof_set.h"
#include "real/model_claims.h"
#include "real/real.h"

enum { CHUNK = 65536, MAX_PROOFS = 8 };

/* Mutants of float32 models that no proof kills, each equal to its
 * unmutated model on all 2^32 float32 inputs (--exhaustive). */
static const struct equivalent {
    const char *model, *mutant, *reason;
} equivalents[] = {
    { "erf_dnnl", "erf_dnnl: ln FLT_MIN one ulp up",
      "moves the underflow edge of exp by one ulp of v = -x^2/2: there exp is below 2^-125 "
      "and erf rounds to +-1 either way" },
    { "erf_dnnl", "erf_dnnl: ln FLT_MAX one ulp up",
      "v = -x^2/2 <= 0 never reaches the upper clamp; a NaN v clamped to it still gives NaN" },
    { "erf_dnnl", "erf_dnnl: log2 e one ulp up",
      "moves where n = floor(v*log2e + 0.5) steps by an ulp of v: there r moves by ln 2 to the "
      "other end of the reduction interval, and the output is the same (exhaustive run)" },
    { "erf_dnnl", "erf_dnnl: 0.5 in floor(v*log2e + 0.5) one ulp up",
      "the same: moves the steps of n by less than an ulp of v, output unchanged "
      "(exhaustive run)" },
    { "erf_dnnl", "erf_dnnl: 1 in 2^(n-1) one ulp up",
      "n is an integer <= 0, so n - (1 + 2^-23) truncates to n - 1 as before" },
    { NULL, NULL, NULL },
};

/* One mutant: constant `constant` one ulp up, or step `step` dropped. */
struct mutant {
    int constant, step;
};

/* A proof loaded: the library's outputs on the format's proof set. */
struct proof {
    const char *real;
    const struct ga_format *f;
    const ga_bits *in;
    ga_bits *lib;
    size_t n;
};

static ga_bits *sets[GA_FORMAT_COUNT];
static size_t set_sizes[GA_FORMAT_COUNT];

static size_t input_set(const struct ga_format *f, const ga_bits **in)
{
    if (sets[f->id] == NULL && (set_sizes[f->id] = proof_set(f, &sets[f->id])) == 0) {
        fprintf(stderr, "mutants_test: out of memory for the %s proof set\n", f->name);
        exit(99);
    }
    *in = sets[f->id];
    return set_sizes[f->id];
}

static void mutant_name(const struct ga_proven_model *m, struct mutant u, char *buf, size_t size)
{
    if (u.constant >= 0)
        snprintf(buf, size, "%s: %s one ulp up", m->name, m->constants[u.constant]);
    else
        snprintf(buf, size, "%s: %s dropped", m->name, m->steps[u.step]);
}

static double one_ulp_up(double k, enum ga_proven_ulp how, const struct ga_format *f)
{
    if (how == GA_PROVEN_ULP_FLOAT32)
        return nextafterf((float)k, INFINITY);
    if (how == GA_PROVEN_ULP_FLOAT64)
        return nextafter(k, INFINITY);
    return ga_decode(f, ga_next_up(f, ga_encode(f, k)));
}

static struct ga_proven_table mutate(const struct ga_proven_model *m, struct mutant u,
                                     const struct ga_format *f)
{
    struct ga_proven_table c = *m->table;
    if (u.constant >= 0)
        c.k[u.constant] = one_ulp_up(c.k[u.constant], m->ulp, f);
    else
        c.steps &= ~(1u << u.step);
    return c;
}

static bool same(const struct ga_format *f, ga_bits a, ga_bits b)
{
    return a == b || (isnan(ga_decode(f, a)) && isnan(ga_decode(f, b)));
}

/* m with table c on the encoding x of f, encoded; float32 by its bits,
 * the fast way, as the catalogue's batch function does. */
static ga_bits run_one(const struct ga_proven_model *m, const struct ga_proven_table *c,
                       const struct ga_format *f, ga_bits x)
{
    if (f->id == GA_FLOAT32) {
        uint32_t b = (uint32_t)x;
        float v, y;
        memcpy(&v, &b, sizeof v);
        y = (float)m->form(c, f, v);
        memcpy(&b, &y, sizeof b);
        return b;
    }
    return ga_encode(f, m->form(c, f, ga_decode(f, x)));
}

/* How many of in[0..n) give m with table c an output other than want[i]
 * (want NULL: other than m with its own table). */
static uint64_t count_differ(const struct ga_proven_model *m, const struct ga_proven_table *c,
                             const struct ga_format *f, const ga_bits *in, const ga_bits *want,
                             size_t n)
{
    uint64_t differ = 0;

#pragma omp parallel for schedule(static, 4096) reduction(+ : differ)
    for (size_t i = 0; i < n; i++) {
        ga_bits y = run_one(m, c, f, in[i]);
        ga_bits w = want ? want[i] : run_one(m, m->table, f, in[i]);
        differ += y != w && !same(f, y, w);
    }
    return differ;
}

/* The library's outputs on f's proof set; false, with why, when the
 * library is absent or refuses f here. */
static bool load_proof(const struct ga_model_claim *s, const char **model, struct proof *p,
                       char *why, size_t size)
{
    const struct ga_format *f = ga_format_get(s->format);
    const struct ga_real *real = ga_real_find(s->real);
    struct gelu_acc_real_info about;
    struct ga_io_error err;
    struct ga_real_kernel *k;

    if (real == NULL || ga_real_describe(&real->desc, f, &about, &err) != GA_IO_OK) {
        snprintf(why, size, "%s %s: %s", s->real, f->name, real ? err.message : "unknown");
        return false;
    }
    if (about.refusal[0]) {
        snprintf(why, size, "%s refuses %s here: %s", s->real, f->name, about.refusal);
        return false;
    }
    *model = ga_model_claim_model(s, about.path);
    if (ga_real_open(real, f, NULL, &k, &err) != GA_IO_OK) {
        snprintf(why, size, "%s %s: %s", s->real, f->name, err.message);
        return false;
    }
    p->real = s->real;
    p->f = f;
    p->n = input_set(f, &p->in);
    p->lib = malloc(p->n * sizeof *p->lib);
    for (size_t done = 0; p->lib != NULL && done < p->n; done += CHUNK) {
        struct ga_run_failure failure;
        size_t n = p->n - done < CHUNK ? p->n - done : CHUNK;
        const struct ga_impl *impl = ga_real_impl(k);
        if (impl->run(impl, f, p->in + done, p->lib + done, n, &failure) != 0) {
            fprintf(stderr, "mutants_test: %s failed: %s\n", s->real, failure.what);
            exit(99);
        }
    }
    ga_real_close(k);
    if (p->lib == NULL) {
        fprintf(stderr, "mutants_test: out of memory\n");
        exit(99);
    }
    return true;
}

struct tally {
    unsigned mutants, killed, equivalent, not_tried, surviving, errors;
};

static const struct equivalent *listed(const char *model, const char *mutant)
{
    for (size_t i = 0; equivalents[i].model != NULL; i++)
        if (strcmp(equivalents[i].model, model) == 0 && strcmp(equivalents[i].mutant, mutant) == 0)
            return &equivalents[i];
    return NULL;
}

/* A mutant no loaded proof killed: not tried when it changes the model in a
 * format whose proofs did not run here; equivalent when the model is
 * 16-bit only and it agrees on every input of those formats, or listed. */
static void judge_survivor(const struct ga_proven_model *m, struct mutant u, const char *name,
                           unsigned formats_proven, unsigned formats_run, struct tally *t)
{
    bool wide = false;
    for (int id = 0; id < GA_FORMAT_COUNT; id++) {
        const struct ga_format *f = ga_format_get((enum ga_format_id)id);
        const ga_bits *in;
        size_t n;
        struct ga_proven_table c;
        if (!(formats_proven & 1u << id))
            continue;
        wide |= f->bits > 16;
        if (formats_run & 1u << id)
            continue;
        n = input_set(f, &in);
        c = mutate(m, u, f);
        if (count_differ(m, &c, f, in, NULL, n) != 0) {
            printf("#   not tried: %s (changes the %s model, whose library is not here)\n", name,
                   f->name);
            t->not_tried++;
            return;
        }
    }
    if (!wide) {
        printf("#   equivalent: %s (equal to the unmutated model on every input of its "
               "formats)\n", name);
        t->equivalent++;
    } else if (listed(m->name, name) != NULL) {
        printf("#   equivalent: %s (%s)\n", name, listed(m->name, name)->reason);
        t->equivalent++;
    } else {
        printf("#   SURVIVING: %s\n", name);
        t->surviving++;
    }
}

/* The proofs of m that run here, into p; formats_proven and formats_run
 * say in which formats m is proven and which of those run. */
static size_t load_proofs(const struct ga_proven_model *m, struct proof *p, unsigned *proven,
                          unsigned *run, char *why, size_t size)
{
    size_t np = 0, used = 0;

    *proven = *run = 0;
    why[0] = '\0';
    for (size_t i = 0; i < ga_model_claim_count && np < MAX_PROOFS; i++) {
        const char *model = ga_model_claims[i].model;
        char reason[1024];
        if (model != NULL && strcmp(model, m->name) != 0)
            continue;
        if (!load_proof(&ga_model_claims[i], &model, &p[np], reason, sizeof reason)) {
            if (model != NULL) {
                *proven |= 1u << ga_model_claims[i].format;
                used += (size_t)snprintf(why + used, used < size ? size - used : 0, "%s%s",
                                         used ? "; " : "", reason);
            }
            continue;
        }
        if (strcmp(model, m->name) != 0) {
            free(p[np].lib);
            continue;
        }
        *proven |= 1u << ga_model_claims[i].format;
        *run |= 1u << ga_model_claims[i].format;
        np++;
    }
    return np;
}

/* Whether the unmutated m passes each of its proofs. */
static bool unmutated_passes(const struct ga_proven_model *m, const struct proof *p, size_t np)
{
    bool ok = true;
    for (size_t i = 0; i < np; i++) {
        uint64_t d = count_differ(m, m->table, p[i].f, p[i].in, p[i].lib, p[i].n);
        if (d != 0) {
            printf("#   the unmutated %s differs from %s on %llu of %zu %s inputs\n", m->name,
                   p[i].real, (unsigned long long)d, p[i].n, p[i].f->name);
            ok = false;
        }
    }
    return ok;
}

/* Every mutant of m, in order: constants, then steps. */
static bool next_mutant(const struct ga_proven_model *m, struct mutant *u)
{
    if (u->constant >= 0 && m->constants[u->constant + 1] != NULL) {
        u->constant++;
        return true;
    }
    u->constant = -1;
    if (m->steps[u->step + 1] == NULL)
        return false;
    u->step++;
    return true;
}

static void try_mutants(const struct ga_proven_model *m, const struct proof *p, size_t np,
                        unsigned proven, unsigned run, struct tally *t)
{
    struct mutant u = { m->constants[0] != NULL ? 0 : -1, -1 };
    bool more = u.constant == 0 || next_mutant(m, &u);

    for (; more; more = next_mutant(m, &u)) {
        char name[256];
        size_t i;
        uint64_t d = 0;
        mutant_name(m, u, name, sizeof name);
        t->mutants++;
        for (i = 0; i < np && d == 0; i++) {
            struct ga_proven_table c = mutate(m, u, p[i].f);
            d = count_differ(m, &c, p[i].f, p[i].in, p[i].lib, p[i].n);
        }
        if (d == 0) {
            judge_survivor(m, u, name, proven, run, t);
            continue;
        }
        t->killed++;
        printf("#   killed: %s, by %s %s on %llu of %zu inputs\n", name, p[i - 1].real,
               p[i - 1].f->name, (unsigned long long)d, p[i - 1].n);
        if (listed(m->name, name) != NULL) {
            printf("#   ERROR: %s is listed as equivalent, but killed\n", name);
            t->errors++;
        }
    }
}

/* TAP test `number`: m's mutants against its proofs. */
static void test_model(const struct ga_proven_model *m, int number, struct tally *total)
{
    struct proof p[MAX_PROOFS];
    struct tally t = { 0 };
    unsigned proven, run;
    char why[2048];
    struct timespec t0, t1;
    size_t np;

    clock_gettime(CLOCK_MONOTONIC, &t0);
    np = load_proofs(m, p, &proven, &run, why, sizeof why);
    if (np == 0) {
        printf("ok %d # SKIP %s: no library here (%s)\n", number, m->name, why);
        return;
    }
    printf("# %s: %zu proofs here%s%s\n", m->name, np, why[0] ? "; not here: " : "", why);
    if (!unmutated_passes(m, p, np))
        t.errors++;
    else
        try_mutants(m, p, np, proven, run, &t);
    for (size_t i = 0; i < np; i++)
        free(p[i].lib);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("%s %d - %s: %u mutants: %u killed, %u shown equivalent, %u not tried here, "
           "%u surviving (%.1f s)\n", t.surviving || t.errors ? "not ok" : "ok", number, m->name,
           t.mutants, t.killed, t.equivalent, t.not_tried, t.surviving,
           (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
    fflush(stdout);
    total->mutants += t.mutants;
    total->killed += t.killed;
    total->equivalent += t.equivalent;
    total->not_tried += t.not_tried;
    total->surviving += t.surviving;
    total->errors += t.errors;
}

/* --exhaustive: each listed mutant against its unmutated model on every
 * float32 input (and every input of the 16-bit formats its model takes). */
static int exhaustive(void)
{
    const struct ga_format *f32 = ga_format_get(GA_FLOAT32);
    int failed = 0;

    for (size_t e = 0; equivalents[e].model != NULL; e++) {
        const struct ga_proven_model *m = NULL;
        struct mutant u = { 0, -1 };
        char name[256] = "";
        uint64_t differ = 0, first = 0;
        for (size_t i = 0; i < ga_proven_count; i++)
            if (strcmp(ga_proven_models[i]->name, equivalents[e].model) == 0)
                m = ga_proven_models[i];
        if (m != NULL)
            for (mutant_name(m, u, name, sizeof name); strcmp(name, equivalents[e].mutant) != 0;
                 mutant_name(m, u, name, sizeof name))
                if (!next_mutant(m, &u))
                    break;
        if (m == NULL || strcmp(name, equivalents[e].mutant) != 0) {
            printf("no such mutant: %s\n", equivalents[e].mutant);
            failed = 1;
            continue;
        }
        struct ga_proven_table c = mutate(m, u, f32);
#pragma omp parallel for schedule(dynamic, 1) reduction(+ : differ) reduction(max : first)
        for (uint64_t hi = 0; hi < 65536; hi++)
            for (uint64_t lo = 0; lo < 65536; lo++) {
                ga_bits y = run_one(m, &c, f32, hi << 16 | lo);
                ga_bits w = run_one(m, m->table, f32, hi << 16 | lo);
                if (y != w && !same(f32, y, w) && differ++ == 0)
                    first = hi << 16 | lo;
            }
        printf("%s: %s on all 4294967296 float32 inputs", equivalents[e].mutant,
               differ ? "DIFFERS" : "identical");
        if (differ)
            printf(" (%llu inputs, e.g. 0x%08llx)", (unsigned long long)differ,
                   (unsigned long long)first);
        printf("\n");
        fflush(stdout);
        failed |= differ != 0;
    }
    return failed;
}

int main(int argc, char **argv)
{
    struct tally total = { 0 };

    if (argc == 2 && strcmp(argv[1], "--exhaustive") == 0)
        return exhaustive();
    if (argc != 1) {
        fprintf(stderr, "usage: mutants_test [--exhaustive]\n");
        return 2;
    }
    printf("1..%zu\n", ga_proven_count + 1);
    for (size_t i = 0; i < ga_proven_count; i++)
        test_model(ga_proven_models[i], (int)i + 1, &total);
    printf("%s %zu - %u mutants: %u killed, %u shown equivalent, %u surviving otherwise\n",
           total.surviving || total.errors ? "not ok" : "ok", ga_proven_count + 1, total.mutants,
           total.killed, total.equivalent, total.surviving);
    if (total.not_tried)
        printf("# and %u more not tried here: they change a model only in a format whose "
               "library is absent or refuses on this machine\n", total.not_tried);
    for (int i = 0; i < GA_FORMAT_COUNT; i++)
        free(sets[i]);
    return total.surviving || total.errors ? 1 : 0;
}
