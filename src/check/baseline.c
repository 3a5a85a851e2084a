/* Reading and writing baseline files (format in baseline.h). */
#include "check/baseline.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "domain/domain.h"
#include "domain/pairs.h"
#include "formats/parse_value.h"
#include "grade/number_text.h"
#include "io/grow.h"
#include "io/parse_count.h"
#include "io/section_file.h"

/* The keys of a section: settings, then the bounds (each also per region). */
enum key {
    KEY_KERNEL, KEY_INPUTS, KEY_FORMAT, KEY_REFERENCE, KEY_DOMAIN, KEY_TIMEOUT, KEY_MAX_FAILURES,
    KEY_DY, KEY_SNAPSHOT, SETTING_COUNT,
    KEY_MAX_ULP = SETTING_COUNT, KEY_CORRECT, KEY_FLUSHED, KEY_NAN, KEY_INF, KEY_ZERO_SIGN,
    KEY_INTERVAL, KEY_ZERO_BELOW, KEY_COUNT
};
static const char *const key_names[KEY_COUNT] = {
    "kernel", "inputs", "format", "reference", "domain", "timeout", "max_failures", "dy",
    "snapshot",
    "max_ulp", "correctly_rounded", "flushed_to_zero", "nan", "inf", "wrong_zero_sign",
    "faithful_interval", "zero_below",
};

/* Where the reader is: the line of each key seen in the current section,
 * per region (0: not seen). */
struct reader {
    int line;
    int seen[GA_REGION_COUNT + 1][KEY_COUNT];
    int backward_seen[2][GA_BW_KEY_COUNT];
    int first_bound;                  /* line of the section's first bound, 0: none */
    char why[512];
};

__attribute__((format(printf, 2, 3)))
static int refuse(struct reader *rd, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(rd->why, sizeof rd->why, fmt, ap);
    va_end(ap);
    return -1;
}

/* A value copied into a fixed field, refused rather than cut. */
static int copy_value(struct reader *rd, char *field, size_t size, const char *key,
                      const char *value)
{
    if (strlen(value) >= size)
        return refuse(rd, "'%s' is longer than %zu characters", key, size - 1);
    strcpy(field, value);
    return 0;
}

static int parse_count(struct reader *rd, const char *key, const char *value, uint64_t *out)
{
    enum ga_count_status st = ga_parse_count(value, UINT64_MAX, out);

    if (st == GA_COUNT_TOO_LARGE)
        return refuse(rd, "%s '%s' is above 2^64 - 1", key, value);
    if (st != GA_COUNT_OK)
        return refuse(rd, "%s '%s' is not a count (decimal digits only)", key, value);
    return 0;
}

/* An encoding (not NaN) or a word standing for "none on this side". */
static int parse_end(struct reader *rd, const struct ga_format *f, const char *key,
                     const char *v, const char *open_word, bool *has, ga_bits *x)
{
    int st;

    *has = strcmp(v, open_word) != 0;
    if (!*has)
        return 0;
    st = ga_parse_bits(f, v, x);
    if (st == -2)
        return refuse(rd, "%s: '%s' is wider than %s's %d bits", key, v, f->name, f->bits);
    if (st != 0)
        return refuse(rd, "%s: '%s' is not a hexadecimal encoding or '%s'", key, v, open_word);
    if (ga_is_nan(f, *x))
        return refuse(rd, "%s: '%s' is a NaN", key, v);
    return 0;
}

/* faithful_interval = LO HI (LO < 0 < HI) or none. */
static int parse_interval(struct reader *rd, const struct ga_format *f, char *value,
                          struct ga_faithful_interval *fi)
{
    char *lo = value, *hi = value + strcspn(value, " \t"), *extra;

    fi->exists = strcmp(value, "none") != 0;
    if (!fi->exists)
        return 0;
    if (*hi)
        *hi++ = '\0';
    hi += strspn(hi, " \t");
    extra = hi + strcspn(hi, " \t");
    if (!*hi || *extra)
        return refuse(rd, "faithful_interval takes 'LO HI' (encodings, -inf, inf) or 'none'");
    if (parse_end(rd, f, "faithful_interval", lo, "-inf", &fi->has_lo, &fi->lo) != 0
        || parse_end(rd, f, "faithful_interval", hi, "inf", &fi->has_hi, &fi->hi) != 0)
        return -1;
    if (fi->has_lo && !(ga_decode(f, fi->lo) < 0))
        return refuse(rd, "faithful_interval: LO %s is not below 0 (the interval is "
                      "'LO HI' with LO < 0 < HI)", lo);
    if (fi->has_hi && !(ga_decode(f, fi->hi) > 0))
        return refuse(rd, "faithful_interval: HI %s is not above 0 (the interval is "
                      "'LO HI' with LO < 0 < HI)", hi);
    return 0;
}

static int parse_max_ulp(struct reader *rd, const char *value, double *out)
{
    int st;

    if (strcmp(value, "inf") == 0) {  /* written for an infinite error */
        *out = INFINITY;
        return 0;
    }
    st = ga_parse_real(value, out);
    if (st == -2)
        return refuse(rd, "max_ulp '%s' is beyond the double range (write inf for no bound)",
                      value);
    if (st != 0 || *out < 0)
        return refuse(rd, "max_ulp '%s' is not a non-negative number", value);
    return 0;
}

static int parse_bound(struct reader *rd, struct ga_baseline_entry *e, enum ga_region r,
                       enum key k, char *value)
{
    const struct ga_format *f = e->format;
    struct ga_bounds *b = &e->region[r];

    if (!f)
        return refuse(rd, "'format' must come before the bounds");
    b->present = true;
    switch (k) {
    case KEY_MAX_ULP:
        b->has_max_ulp = true;
        return parse_max_ulp(rd, value, &b->max_ulp);
    case KEY_CORRECT:
        b->has_correct = true;
        return parse_count(rd, key_names[k], value, &b->correctly_rounded);
    case KEY_FLUSHED:
        b->has_flushed = true;
        return parse_count(rd, key_names[k], value, &b->flushed_to_zero);
    case KEY_NAN:
        b->has_nan = true;
        return parse_count(rd, key_names[k], value, &b->nan);
    case KEY_INF:
        b->has_inf = true;
        return parse_count(rd, key_names[k], value, &b->inf);
    case KEY_ZERO_SIGN:
        b->has_zero_sign = true;
        return parse_count(rd, key_names[k], value, &b->wrong_zero_sign);
    case KEY_INTERVAL:
        b->has_interval = true;
        return parse_interval(rd, f, value, &b->faithful_interval);
    default:
        b->has_zero_below = true;
        return parse_end(rd, f, "zero_below", value, "none", &b->zero_below_exists,
                         &b->zero_below);
    }
}

static int parse_setting(struct reader *rd, struct ga_baseline_entry *e, enum key k,
                         char *value)
{
    switch (k) {
    case KEY_KERNEL:
        return copy_value(rd, e->kernel, sizeof e->kernel, "kernel", value);
    case KEY_INPUTS:
        return copy_value(rd, e->inputs, sizeof e->inputs, "inputs", value);
    case KEY_DOMAIN:
        return copy_value(rd, e->domain, sizeof e->domain, "domain", value);
    case KEY_FORMAT:
        if (!(e->format = ga_format_by_name(value)))
            return refuse(rd, "unknown format '%s' (known: %s)", value, ga_format_names());
        return 0;
    case KEY_TIMEOUT:
        if (ga_parse_timeout(value, &e->timeout_s) != 0)
            return refuse(rd, "timeout '%s' is not a decimal number of seconds above 0 and at "
                          "most %d", value, GA_MAX_TIMEOUT);
        return 0;
    case KEY_MAX_FAILURES:
        if (ga_parse_max_failures(value, &e->max_failures) != 0)
            return refuse(rd, "max_failures '%s' is not a count above 0 (decimal digits only)",
                          value);
        return 0;
    case KEY_DY:
        return copy_value(rd, e->dy, sizeof e->dy, "dy", value);
    case KEY_SNAPSHOT:
        return copy_value(rd, e->snapshot, sizeof e->snapshot, "snapshot", value);
    default:
        if (ga_oracle_function_by_name(value, &e->reference) != 0)
            return refuse(rd, "unknown reference '%s' (gelu, gelu_tanh; backward kernels: "
                          "gelu_grad, gelu_tanh_grad)", value);
        e->backward = !ga_function_is_forward(e->reference);
        if (e->backward && rd->first_bound)
            return refuse(rd, "the reference of a backward kernel must come before the bounds "
                          "(line %d)", rd->first_bound);
        return 0;
    }
}

/* key = value: "[REGION.]KEY", each at most once per section. */
static int parse_key_value(struct reader *rd, struct ga_baseline_entry *e, const char *key,
                           char *value)
{
    const char *dot = strchr(key, '.');
    const char *name = dot ? dot + 1 : key;
    enum ga_region r = GA_REGION_ALL;
    int k;

    if (e->backward) {
        int region;
        enum ga_backward_key bk;
        if (ga_backward_bound_key(key, &region, &bk) == 0) {
            if (rd->backward_seen[region][bk])
                return refuse(rd, "'%s' is given twice in this section (first at line %d)", key,
                              rd->backward_seen[region][bk]);
            rd->backward_seen[region][bk] = rd->line;
            return ga_backward_bound_parse(&e->backward_bounds, region, bk, value, rd->why,
                                           sizeof rd->why);
        }
        for (k = 0; k < SETTING_COUNT && strcmp(key, key_names[k]) != 0; k++)
            continue;
        if (k == SETTING_COUNT)
            return refuse(rd, "'%s' is no bound of a backward kernel ("
                          "max_ulp, max_dy_ulp, sign_errors, nan, wrong_zero_sign, "
                          "correctly_rounded, faithful, each also as root.KEY)", key);
    }
    if (dot) {
        char region[32] = "";
        if ((size_t)(dot - key) < sizeof region)
            memcpy(region, key, (size_t)(dot - key));
        if (ga_region_by_name(region, &r) != 0 || r == GA_REGION_ALL)
            return refuse(rd, "unknown region '%.*s' in '%s'", (int)(dot - key), key, key);
    }
    for (k = dot ? SETTING_COUNT : 0; k < KEY_COUNT && strcmp(name, key_names[k]) != 0; k++)
        continue;
    if (k == KEY_COUNT)
        return refuse(rd, "unknown key '%s'", key);
    if (rd->seen[r][k])
        return refuse(rd, "'%s' is given twice in this section (first at line %d)", key,
                      rd->seen[r][k]);
    rd->seen[r][k] = rd->line;
    if (k >= SETTING_COUNT && !rd->first_bound)
        rd->first_bound = rd->line;
    if (*value == '\0')
        return refuse(rd, "'%s' has no value", key);
    return k < SETTING_COUNT ? parse_setting(rd, e, (enum key)k, value)
                             : parse_bound(rd, e, r, (enum key)k, value);
}

/* A domain spec is checked where it is written, now that the format is known. */
static int check_domain(struct reader *rd, const struct ga_baseline_entry *e)
{
    struct ga_domain d;
    char why[sizeof rd->why];

    if (ga_domain_parse(&d, e->domain, e->format, why, sizeof why) != 0) {
        rd->line = rd->seen[GA_REGION_ALL][KEY_DOMAIN];
        return refuse(rd, "%s", why);
    }
    ga_domain_free(&d);
    return 0;
}

/* A backward entry's domain and dy, checked where they are written. */
static int check_pairs(struct reader *rd, struct ga_baseline_entry *e)
{
    struct ga_pairs p;
    ga_bits dy;
    char why[sizeof rd->why];

    if (!e->domain[0])
        snprintf(e->domain, sizeof e->domain, "%s",
                 e->format->bits == 16 ? "pairs:all" : ga_domain_default(e->format));
    if (ga_parse_value(e->format, e->dy[0] ? e->dy : "1", &dy) != 0) {
        rd->line = rd->seen[GA_REGION_ALL][KEY_DY];
        return refuse(rd, "dy '%s' is not a number", e->dy);
    }
    if (strncmp(e->domain, "file:", 5) == 0)  /* read where it is measured */
        return 0;
    if (ga_pairs_parse(&p, e->domain, e->format, dy, why, sizeof why) != 0) {
        rd->line = rd->seen[GA_REGION_ALL][KEY_DOMAIN] ? rd->seen[GA_REGION_ALL][KEY_DOMAIN]
                                                        : e->line;
        return refuse(rd, "%s", why);
    }
    ga_pairs_free(&p);
    return 0;
}

static int finish_entry(struct reader *rd, struct ga_baseline_entry *e)
{
    const char *missing = !e->kernel[0] ? "kernel" : !e->format ? "format" : NULL;
    bool outputs = strncmp(e->kernel, "outputs:", 8) == 0;
    int *line = rd->seen[GA_REGION_ALL];

    /* a key that would be ignored is refused where it is */
    if (outputs && line[KEY_DOMAIN]) {
        rd->line = line[KEY_DOMAIN];
        return refuse(rd, "section [%s]: 'domain' does not apply to an outputs: kernel "
                      "(its inputs file is the domain)", e->name);
    }
    if (e->backward && outputs) {
        rd->line = e->line;
        return refuse(rd, "section [%s]: a backward kernel is a catalogue name or plugin:, not "
                      "outputs: (grade backward outputs with 'gelu-acc grade --backward')",
                      e->name);
    }
    if (!e->backward && line[KEY_DY]) {
        rd->line = line[KEY_DY];
        return refuse(rd, "section [%s]: 'dy' applies only to a backward kernel (reference "
                      "gelu_grad or gelu_tanh_grad)", e->name);
    }
    if (e->backward && line[KEY_SNAPSHOT]) {
        rd->line = line[KEY_SNAPSHOT];
        return refuse(rd, "section [%s]: 'snapshot' applies only to a forward kernel (a "
                      "backward kernel's outputs are not snapshotted)", e->name);
    }
    if (!outputs && line[KEY_INPUTS]) {
        rd->line = line[KEY_INPUTS];
        return refuse(rd, "section [%s]: 'inputs' applies only to an outputs: kernel", e->name);
    }
    if (missing || (outputs && !e->inputs[0]))
        rd->line = e->line;  /* the section's header is where it goes wrong */
    if (missing)
        return refuse(rd, "section [%s] has no '%s'", e->name, missing);
    if (outputs && !e->inputs[0])
        return refuse(rd, "section [%s]: an outputs kernel needs 'inputs'", e->name);
    if (e->backward)
        return check_pairs(rd, e);
    if (!e->domain[0])
        snprintf(e->domain, sizeof e->domain, "%s", ga_domain_default(e->format));
    else if (strncmp(e->domain, "file:", 5) != 0)  /* a file is read where it is measured */
        return check_domain(rd, e);
    return 0;
}

/* The callbacks of the section reader. */
struct baseline_file {
    struct reader rd;
    struct ga_baseline *b;
    size_t capacity;
};

static int on_start(void *ctx, const char *name, int line)
{
    struct baseline_file *bf = ctx;
    struct ga_baseline *b = bf->b;
    struct ga_baseline_entry *e;

    if (!(e = ga_grow(b->entries, b->count, &bf->capacity, sizeof *e, 8)))
        return refuse(&bf->rd, "out of memory");
    b->entries = e;
    e = &b->entries[b->count++];
    memset(e, 0, sizeof *e);
    e->reference = GA_GELU;
    e->line = line;
    snprintf(e->name, sizeof e->name, "%s", name);
    memset(bf->rd.seen, 0, sizeof bf->rd.seen);
    memset(bf->rd.backward_seen, 0, sizeof bf->rd.backward_seen);
    bf->rd.first_bound = 0;
    return 0;
}

static int on_setting(void *ctx, char *key, char *value, int *line)
{
    struct baseline_file *bf = ctx;

    bf->rd.line = *line;
    return parse_key_value(&bf->rd, &bf->b->entries[bf->b->count - 1], key, value);
}

static int on_finish(void *ctx, int *line)
{
    struct baseline_file *bf = ctx;
    int status;

    bf->rd.line = *line;
    status = finish_entry(&bf->rd, &bf->b->entries[bf->b->count - 1]);
    *line = bf->rd.line;
    return status;
}

/* The reader of baselines from a file (path) or from memory (text). */
static int read_baseline(const char *path, const char *text, int first_line,
                         struct ga_baseline *b, char *err, size_t errlen)
{
    static const struct ga_section_callbacks callbacks = { on_start, on_setting, on_finish };
    struct baseline_file bf = { .b = b };
    struct ga_section_file sf = {
        .cb = &callbacks, .ctx = &bf, .why = bf.rd.why, .why_size = sizeof bf.rd.why,
        .name_max = sizeof b->entries->name - 1,
        .no_section = "a baseline lists kernels as '[name]' sections",
    };
    int status;

    memset(b, 0, sizeof *b);
    status = text ? ga_section_file_read_text(path, text, first_line, &sf, err, errlen)
                  : ga_section_file_read(path, &sf, err, errlen);
    if (status != 0)
        ga_baseline_free(b);
    return status;
}

int ga_baseline_read(const char *path, struct ga_baseline *b, char *err, size_t errlen)
{
    return read_baseline(path, NULL, 1, b, err, errlen);
}

int ga_baseline_read_text(const char *name, const char *text, int first_line,
                          struct ga_baseline *b, char *err, size_t errlen)
{
    return read_baseline(name, text, first_line, b, err, errlen);
}

void ga_baseline_free(struct ga_baseline *b)
{
    free(b->entries);
    b->entries = NULL;
    b->count = 0;
}

static void write_bounds(FILE *out, const struct ga_format *f, const char *prefix,
                         const struct ga_summary *s, bool whole)
{
    char hex[GA_BITS_TEXT_LEN], value[GA_TEXT_LEN];

    if (s->max_ulp.has) {
        ga_format_bits(f, s->max_ulp.x, hex);
        fprintf(out, "%smax_ulp = %.4g  # at x = %s (%s)\n", prefix,
                ga_round_up_4(s->max_ulp.error), ga_text_value(f, s->max_ulp.x, value), hex);
    }
    fprintf(out, "%scorrectly_rounded = %llu\n", prefix, (unsigned long long)s->correctly_rounded);
    fprintf(out, "%sflushed_to_zero = %llu\n", prefix, (unsigned long long)s->flushed_to_zero);
    fprintf(out, "%snan = %llu\n%sinf = %llu\n", prefix, (unsigned long long)s->nan, prefix,
            (unsigned long long)s->inf);
    fprintf(out, "%swrong_zero_sign = %llu\n", prefix, (unsigned long long)s->wrong_zero_sign);
    if (!whole)
        return;
    if (!s->faithful_interval.exists) {
        fprintf(out, "faithful_interval = none\n");
    } else {
        char lo[GA_BITS_TEXT_LEN] = "-inf", hi[GA_BITS_TEXT_LEN] = "inf", interval[GA_INTERVAL_LEN];
        if (s->faithful_interval.has_lo)
            ga_format_bits(f, s->faithful_interval.lo, lo);
        if (s->faithful_interval.has_hi)
            ga_format_bits(f, s->faithful_interval.hi, hi);
        fprintf(out, "faithful_interval = %s %s  # %s\n", lo, hi,
                ga_text_interval(f, &s->faithful_interval, interval));
    }
    if (s->has_zero_below) {
        ga_format_bits(f, s->zero_below, hex);
        fprintf(out, "zero_below = %s  # %s\n", hex, ga_text_value(f, s->zero_below, value));
    } else {
        fprintf(out, "zero_below = none\n");
    }
}

/* The settings of an entry, as read. */
static void write_settings(FILE *out, const struct ga_baseline_entry *e)
{
    char seconds[32];

    fprintf(out, "[%s]\nkernel = %s\n", e->name, e->kernel);
    if (e->inputs[0])
        fprintf(out, "inputs = %s\n", e->inputs);
    fprintf(out, "format = %s\nreference = %s\n", e->format->name, ga_function_name(e->reference));
    if (strncmp(e->kernel, "outputs:", 8) != 0)
        fprintf(out, "domain = %s\n", e->domain);
    if (e->timeout_s > 0)
        fprintf(out, "timeout = %s\n", ga_timeout_text(e->timeout_s, seconds));
    if (e->max_failures > 0)
        fprintf(out, "max_failures = %llu\n", (unsigned long long)e->max_failures);
    if (e->dy[0])
        fprintf(out, "dy = %s\n", e->dy);
    if (e->snapshot[0])
        fprintf(out, "snapshot = %s\n", e->snapshot);
}

int ga_baseline_write_backward_entry(FILE *out, const struct ga_baseline_entry *e,
                                     const struct ga_backward_stats *st)
{
    write_settings(out, e);
    ga_backward_bounds_write(out, e->format, st);
    fputc('\n', out);
    return ferror(out) ? -1 : 0;
}

int ga_baseline_write_entry(FILE *out, const struct ga_baseline_entry *e,
                            const struct ga_summary summary[GA_REGION_COUNT + 1])
{
    write_settings(out, e);
    write_bounds(out, e->format, "", &summary[GA_REGION_ALL], true);
    for (int r = 0; r < GA_REGION_COUNT; r++) {
        char prefix[32];
        if (summary[r].count == 0)
            continue;
        snprintf(prefix, sizeof prefix, "%s.", ga_region_name((enum ga_region)r));
        write_bounds(out, e->format, prefix, &summary[r], false);
    }
    fputc('\n', out);
    return ferror(out) ? -1 : 0;
}
