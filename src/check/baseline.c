/* Reading and writing baseline files (format in baseline.h). */
#include "check/baseline.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io/text_line.h"
#include "isolation/plugin.h"
#include "report/number_text.h"
#include "sweep/domain.h"
#include "sweep/sweep.h"

double ga_round_up_4(double x)
{
    char buf[64];
    double printed;

    if (!(x > 0) || isinf(x))
        return x;
    snprintf(buf, sizeof buf, "%.3e", x);
    printed = strtod(buf, NULL);
    while (printed < x) {  /* bump the 4th digit */
        int e = (int)floor(log10(printed));
        snprintf(buf, sizeof buf, "%.3e", printed + pow(10, e - 3));
        printed = strtod(buf, NULL);
    }
    return printed;
}

static int parse_u64(const char *v, uint64_t *out)
{
    char *end;
    if (!isdigit((unsigned char)*v))
        return -1;
    errno = 0;
    *out = strtoull(v, &end, 10);
    return errno || *ga_trim(end) ? -1 : 0;
}

/* An encoding or a word standing for "none on this side". */
static int parse_end(const struct ga_format *f, const char *v, const char *open_word,
                     bool *has, ga_bits *x)
{
    if (strcmp(v, open_word) == 0) {
        *has = false;
        return 0;
    }
    *has = true;
    return ga_parse_bits(f, v, x) == 0 ? 0 : -1;
}

static int parse_bound(struct ga_baseline_entry *e, const char *key, char *value,
                       char *why, size_t whylen)
{
    const struct ga_format *f = e->format;
    const char *dot = strchr(key, '.');
    const char *metric = dot ? dot + 1 : key;
    enum ga_region r = GA_REGION_ALL;
    struct ga_bounds *b;

    if (dot) {
        char region[32];
        snprintf(region, sizeof region, "%.*s", (int)(dot - key), key);
        if (ga_region_by_name(region, &r) != 0 || r == GA_REGION_ALL) {
            snprintf(why, whylen, "unknown region '%s'", region);
            return -1;
        }
    }
    if (!f) {
        snprintf(why, whylen, "'format' must come before the bounds");
        return -1;
    }
    b = &e->region[r];
    b->present = true;
    if (strcmp(metric, "max_ulp") == 0) {
        char *end;
        b->has_max_ulp = true;
        b->max_ulp = strtod(value, &end);
        if (end == value || *ga_trim(end) || !(b->max_ulp >= 0)) {
            snprintf(why, whylen, "max_ulp '%s' is not a non-negative number", value);
            return -1;
        }
        return 0;
    }
#define COUNT(name, field, flag)                                                     \
    if (strcmp(metric, name) == 0) {                                                 \
        b->flag = true;                                                              \
        if (parse_u64(value, &b->field) != 0) {                                      \
            snprintf(why, whylen, "%s '%s' is not a count", name, value);            \
            return -1;                                                               \
        }                                                                            \
        return 0;                                                                    \
    }
    COUNT("correctly_rounded", correctly_rounded, has_correct)
    COUNT("flushed_to_zero", flushed_to_zero, has_flushed)
    COUNT("nan", nan, has_nan)
    COUNT("inf", inf, has_inf)
    COUNT("wrong_zero_sign", wrong_zero_sign, has_zero_sign)
#undef COUNT
    if (strcmp(metric, "faithful_interval") == 0) {
        char *lo = strtok(value, " \t"), *hi = strtok(NULL, " \t");
        struct ga_faithful_interval *fi = &b->faithful_interval;
        b->has_interval = true;
        fi->exists = !(lo && strcmp(lo, "none") == 0 && !hi);
        if (fi->exists && (!lo || !hi || strtok(NULL, " \t")
                           || parse_end(f, lo, "-inf", &fi->has_lo, &fi->lo) != 0
                           || parse_end(f, hi, "inf", &fi->has_hi, &fi->hi) != 0)) {
            snprintf(why, whylen, "faithful_interval takes 'LO HI' (encodings, -inf, inf) or 'none'");
            return -1;
        }
        return 0;
    }
    if (strcmp(metric, "zero_below") == 0) {
        b->has_zero_below = true;
        if (parse_end(f, value, "none", &b->zero_below_exists, &b->zero_below) != 0) {
            snprintf(why, whylen, "zero_below takes an encoding or 'none'");
            return -1;
        }
        return 0;
    }
    snprintf(why, whylen, "unknown key '%s'", key);
    return -1;
}

static int parse_setting(struct ga_baseline_entry *e, const char *key, char *value,
                         char *why, size_t whylen)
{
    if (strcmp(key, "kernel") == 0)
        snprintf(e->kernel, sizeof e->kernel, "%s", value);
    else if (strcmp(key, "inputs") == 0)
        snprintf(e->inputs, sizeof e->inputs, "%s", value);
    else if (strcmp(key, "domain") == 0)
        snprintf(e->domain, sizeof e->domain, "%s", value);
    else if (strcmp(key, "timeout") == 0) {
        if (ga_plugin_parse_timeout(value, &e->timeout_s) != 0) {
            snprintf(why, whylen, "timeout '%s' is not a positive number of seconds", value);
            return -1;
        }
    } else if (strcmp(key, "max_failures") == 0) {
        if (ga_sweep_parse_max_failures(value, &e->max_failures) != 0) {
            snprintf(why, whylen, "max_failures '%s' is not a positive count", value);
            return -1;
        }
    }
    else if (strcmp(key, "format") == 0) {
        if (!(e->format = ga_format_by_name(value))) {
            snprintf(why, whylen, "unknown format '%s' (known: %s)", value, ga_format_names());
            return -1;
        }
    } else if (strcmp(key, "reference") == 0) {
        if (ga_function_by_name(value, &e->reference) != 0) {
            snprintf(why, whylen, "unknown reference '%s' (gelu, gelu_tanh)", value);
            return -1;
        }
    } else {
        return parse_bound(e, key, value, why, whylen);
    }
    return 0;
}

static int finish_entry(const char *path, struct ga_baseline_entry *e, char *err, size_t errlen)
{
    const char *missing = !e->kernel[0] ? "kernel" : !e->format ? "format" : NULL;

    if (missing) {
        snprintf(err, errlen, "%s:%d: section [%s] has no '%s'", path, e->line, e->name, missing);
        return -1;
    }
    if (strncmp(e->kernel, "outputs:", 8) == 0 && !e->inputs[0]) {
        snprintf(err, errlen, "%s:%d: section [%s]: an outputs kernel needs 'inputs'", path,
                 e->line, e->name);
        return -1;
    }
    if (!e->domain[0])
        snprintf(e->domain, sizeof e->domain, "%s", ga_domain_default(e->format));
    return 0;
}

int ga_baseline_read(const char *path, struct ga_baseline *b, char *err, size_t errlen)
{
    FILE *in = fopen(path, "r");
    char *line = NULL;
    size_t length = 0, capacity = 0;
    int number = 0, status = 0;
    struct ga_baseline_entry *e = NULL;

    memset(b, 0, sizeof *b);
    if (!in) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    while (status == 0 && getline(&line, &length, in) != -1) {
        char *text = ga_trim(line), *eq, why[256];
        number++;
        if (*text == '\0' || *text == '#')
            continue;
        if (*text == '[') {
            char *close = strchr(text, ']');
            if (!close || close == text + 1 || *ga_trim(close + 1)) {
                snprintf(err, errlen, "%s:%d: expected a section header '[name]'", path, number);
                status = -1;
                break;
            }
            if (e && finish_entry(path, e, err, errlen) != 0) {
                status = -1;
                break;
            }
            if (b->count == capacity) {
                size_t wanted = capacity ? 2 * capacity : 8;
                struct ga_baseline_entry *bigger = realloc(b->entries, wanted * sizeof *bigger);
                if (!bigger) {
                    snprintf(err, errlen, "%s:%d: out of memory", path, number);
                    status = -1;
                    break;
                }
                b->entries = bigger;
                capacity = wanted;
            }
            e = &b->entries[b->count++];
            memset(e, 0, sizeof *e);
            e->reference = GA_GELU;
            e->line = number;
            snprintf(e->name, sizeof e->name, "%.*s", (int)(close - text - 1), text + 1);
            continue;
        }
        if (!e) {
            snprintf(err, errlen, "%s:%d: a setting before the first section '[name]'", path, number);
            status = -1;
        } else if (!(eq = strchr(text, '='))) {
            snprintf(err, errlen, "%s:%d: expected 'key = value'", path, number);
            status = -1;
        } else {
            char *hash = strstr(eq, " #");  /* trailing comments, as the writer adds */
            if (hash)
                *hash = '\0';
            *eq = '\0';
            if (parse_setting(e, ga_trim(text), ga_trim(eq + 1), why, sizeof why) != 0) {
                snprintf(err, errlen, "%s:%d: %s", path, number, why);
                status = -1;
            }
        }
    }
    if (status == 0 && e)
        status = finish_entry(path, e, err, errlen);
    if (status == 0 && b->count == 0) {
        snprintf(err, errlen, "%s: no section: a baseline lists kernels as '[name]' sections", path);
        status = -1;
    }
    free(line);
    fclose(in);
    if (status != 0)
        ga_baseline_free(b);
    return status;
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
    char hex[16], value[GA_TEXT_LEN];

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
        char lo[16] = "-inf", hi[16] = "inf", interval[GA_INTERVAL_LEN];
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

int ga_baseline_write_entry(FILE *out, const struct ga_baseline_entry *e,
                            const struct ga_summary summary[GA_REGION_COUNT + 1])
{
    char seconds[32];

    fprintf(out, "[%s]\nkernel = %s\n", e->name, e->kernel);
    if (e->inputs[0])
        fprintf(out, "inputs = %s\n", e->inputs);
    fprintf(out, "format = %s\nreference = %s\n", e->format->name, ga_function_name(e->reference));
    if (strncmp(e->kernel, "outputs:", 8) != 0)
        fprintf(out, "domain = %s\n", e->domain);
    if (e->timeout_s > 0)
        fprintf(out, "timeout = %s\n", ga_plugin_timeout_text(e->timeout_s, seconds));
    if (e->max_failures > 0)
        fprintf(out, "max_failures = %llu\n", (unsigned long long)e->max_failures);
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
