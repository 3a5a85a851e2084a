/* Nice tick positions and labels for linear, log10 and symlog axes.
 *
 * Tick values are built from integers (k * m * 10^e) and labels from the
 * same integers, so a label is exactly the decimal the tick stands for,
 * with no printf rounding and no locale. */
#include "plot/plot_private.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot/svg.h"
#include "formats/fp_contract.h"   /* the same coordinates whatever -march */

/* Labels are plain decimals for leading digits from 10^-4 to 10^5 on linear
 * axes ("0.0002", "150000") and from 10^-2 to 10^3 on log axes ("0.01",
 * "1000"), "1e5"-style beyond. */
#define LINEAR_PLAIN_MIN (-4)
#define LINEAR_PLAIN_MAX 5
#define LOG_PLAIN_MIN (-2)
#define LOG_PLAIN_MAX 3

/* Slack for "is this multiple inside the range" tests on quotients that
 * rounding may push just past an integer (0.6 / 0.2 = 2.9999999999999996). */
#define TICK_SLACK 1e-9

/* Decade strides for log and symlog axes, finest first. */
static const int decade_strides[] = { 1, 2, 3, 5, 10, 20, 30, 50, 100, 200, 500 };

/* digits * 10^e as the double nearest to it: strtod rounds correctly, and
 * "12e-5" has no decimal point for the locale to change. */
static double decimal_value(long long digits, int e)
{
    char text[48];
    snprintf(text, sizeof text, "%llde%d", digits, e);
    return strtod(text, NULL);
}

double ga_plot_power_of_ten(int e)
{
    return decimal_value(1, e);
}

static void add_tick(struct ga_ticks *t, long long digits, int e, int plain_min, int plain_max)
{
    if (t->n >= GA_TICKS_MAX)
        return;
    t->value[t->n] = decimal_value(digits, e);
    ga_svg_format_decimal(t->label[t->n], digits, e, plain_min, plain_max, 1);
    t->n++;
}

static int linear_ticks(double min, double max, int max_count, struct ga_ticks *t)
{
    static const int mult[] = { 1, 2, 5 };
    int e0 = (int)floor(log10((max - min) / max_count)) - 1;
    for (int e = e0; e < e0 + 40; e++) {
        for (size_t i = 0; i < sizeof mult / sizeof mult[0]; i++) {
            double step = mult[i] * ga_plot_power_of_ten(e);
            double kmin = ceil(min / step - TICK_SLACK);
            double kmax = floor(max / step + TICK_SLACK);
            if (kmax - kmin + 1 > max_count)
                continue;
            /* k * m must stay an exact integer for values and labels. */
            if (fabs(kmin) > 1e15 || fabs(kmax) > 1e15)
                return 0;
            for (double k = kmin; k <= kmax; k++)
                add_tick(t, (long long)k * mult[i], e, LINEAR_PLAIN_MIN, LINEAR_PLAIN_MAX);
            return 0;
        }
    }
    return 0;
}

static int stride_multiple(int d, int s)
{
    return ((d % s) + s) % s == 0;
}

/* Decades dlo..dhi thinned to a stride that keeps at most `room` of them. */
static int decade_stride(int dlo, int dhi, int room)
{
    for (size_t i = 0; i < sizeof decade_strides / sizeof decade_strides[0]; i++) {
        int s = decade_strides[i];
        int count = 0;
        for (int d = dlo; d <= dhi; d++)
            count += stride_multiple(d, s);
        if (count <= room)
            return s;
    }
    return 1000;
}

static int log_ticks(double min, double max, int max_count, struct ga_ticks *t)
{
    int dlo = (int)ceil(log10(min) - TICK_SLACK);
    int dhi = (int)floor(log10(max) + TICK_SLACK);
    if (dhi - dlo + 1 >= 2) {
        int s = decade_stride(dlo, dhi, max_count);
        for (int d = dlo; d <= dhi; d++)
            if (stride_multiple(d, s))
                add_tick(t, 1, d, LOG_PLAIN_MIN, LOG_PLAIN_MAX);
        return 0;
    }
    /* Less than a decade: 1, 2, 5 x 10^d, or linear ticks. */
    static const int mult[] = { 1, 2, 5 };
    struct ga_ticks sub;
    sub.n = 0;
    for (int d = dlo - 1; d <= dhi; d++)
        for (size_t i = 0; i < 3; i++) {
            double v = decimal_value(mult[i], d);
            if (v >= min * (1 - TICK_SLACK) && v <= max * (1 + TICK_SLACK))
                add_tick(&sub, mult[i], d, LOG_PLAIN_MIN, LOG_PLAIN_MAX);
        }
    if (sub.n >= 2 && sub.n <= max_count) {
        *t = sub;
        return 0;
    }
    return linear_ticks(min, max, max_count, t);
}

static int symlog_ticks(double min, double max, double linthresh, int max_count,
                        struct ga_ticks *t)
{
    /* Powers of ten inside the linear part would crowd 0: start at the
     * first one >= linthresh. */
    int dlo = (int)ceil(log10(linthresh) - TICK_SLACK);
    double first = ga_plot_power_of_ten(dlo);
    int has_zero = min <= 0 && max >= 0;
    int neg_hi = -min >= first ? (int)floor(log10(-min) + TICK_SLACK) : dlo - 1;
    int pos_hi = max >= first ? (int)floor(log10(max) + TICK_SLACK) : dlo - 1;
    if (min > 0)
        return log_ticks(min, max, max_count, t);
    if (max < 0) {
        /* Mirror of a log axis. */
        struct ga_ticks mirror = { 0 };
        log_ticks(-max, -min, max_count, &mirror);
        for (int i = mirror.n - 1; i >= 0; i--) {
            t->value[t->n] = -mirror.value[i];
            strcpy(t->label[t->n], "&#8722;");
            strcat(t->label[t->n], mirror.label[i]);
            t->n++;
        }
        return 0;
    }
    int s = 1;
    for (size_t i = 0; i < sizeof decade_strides / sizeof decade_strides[0]; i++) {
        s = decade_strides[i];
        int count = has_zero;
        for (int d = dlo; d <= neg_hi; d++)
            count += stride_multiple(d, s);
        for (int d = dlo; d <= pos_hi; d++)
            count += stride_multiple(d, s);
        if (count <= max_count)
            break;
    }
    for (int d = neg_hi; d >= dlo; d--)
        if (stride_multiple(d, s))
            add_tick(t, -1, d, LOG_PLAIN_MIN, LOG_PLAIN_MAX);
    if (has_zero)
        add_tick(t, 0, 0, LOG_PLAIN_MIN, LOG_PLAIN_MAX);
    for (int d = dlo; d <= pos_hi; d++)
        if (stride_multiple(d, s))
            add_tick(t, 1, d, LOG_PLAIN_MIN, LOG_PLAIN_MAX);
    if (t->n < 2) {
        t->n = 0;
        return linear_ticks(min, max, max_count, t);
    }
    return 0;
}

int ga_plot_ticks(enum ga_scale scale, double min, double max, double linthresh,
                  int max_count, struct ga_ticks *ticks)
{
    if (ticks == NULL)
        return -1;
    ticks->n = 0;
    if (!isfinite(min) || !isfinite(max) || !(min < max) || !isfinite(max - min)
        || max_count < 2 || max_count > GA_TICKS_MAX)
        return -1;
    switch (scale) {
    case GA_SCALE_LINEAR:
        return linear_ticks(min, max, max_count, ticks);
    case GA_SCALE_LOG10:
        if (!(min > 0))
            return -1;
        return log_ticks(min, max, max_count, ticks);
    case GA_SCALE_SYMLOG:
        if (linthresh == 0)
            linthresh = 1;
        if (!(linthresh > 0) || !isfinite(linthresh))
            return -1;
        return symlog_ticks(min, max, linthresh, max_count, ticks);
    }
    return -1;
}
