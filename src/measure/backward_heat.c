#include "measure/backward_heat.h"

#include <math.h>
#include <stdlib.h>

struct ga_backward_heat *ga_backward_heat_new(const struct ga_format *f)
{
    struct ga_backward_heat *h;

    if (ga_exponent_bits(f) > 8 || !(h = calloc(1, sizeof *h)))
        return NULL;
    h->format = f;
    h->rows = 1 << ga_exponent_bits(f);
    return h;
}

int ga_backward_heat_column(double x)
{
    if (isnan(x))
        return -1;
    if (x < -GA_HEAT_X_LIMIT)
        return GA_HEAT_COLUMN_BELOW;
    if (x > GA_HEAT_X_LIMIT)
        return GA_HEAT_COLUMN_ABOVE;
    /* (x + 8) * 8 is exact for 16-bit x in [-8, 8]: no bin edge is rounded over */
    int k = (int)floor((x + GA_HEAT_X_LIMIT) * (GA_HEAT_X_BINS / (2 * GA_HEAT_X_LIMIT)));
    return k < GA_HEAT_X_BINS ? k : GA_HEAT_X_BINS - 1;
}

double ga_backward_heat_column_lo(int k)
{
    return -GA_HEAT_X_LIMIT + k * (2 * GA_HEAT_X_LIMIT / GA_HEAT_X_BINS);
}

void ga_backward_heat_add(struct ga_backward_heat *h, ga_bits x, ga_bits dy,
                          const struct ga_error *e)
{
    const struct ga_format *f = h->format;
    int column = ga_backward_heat_column(ga_decode(f, x));
    int row = (int)((dy >> ga_mantissa_bits(f)) & (ga_bits)(h->rows - 1));
    struct ga_heat_cell *c;

    if (column < 0) {
        h->nan_x++;
        return;
    }
    c = &h->cell[row][column];
    c->count++;
    c->incorrect += !(e->flags & GA_ERR_CORRECT);
    c->unfaithful += !(e->flags & GA_ERR_FAITHFUL);
    if (!isnan(e->ulp) && e->ulp > c->max_ulp)
        c->max_ulp = e->ulp;
}

void ga_backward_heat_merge(struct ga_backward_heat *into, const struct ga_backward_heat *from)
{
    into->nan_x += from->nan_x;
    for (int r = 0; r < into->rows; r++)
        for (int k = 0; k < GA_HEAT_COLUMNS; k++) {
            struct ga_heat_cell *a = &into->cell[r][k];
            const struct ga_heat_cell *b = &from->cell[r][k];
            a->count += b->count;
            a->incorrect += b->incorrect;
            a->unfaithful += b->unfaithful;
            if (b->max_ulp > a->max_ulp)
                a->max_ulp = b->max_ulp;
        }
}
