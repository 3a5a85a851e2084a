/* The error of a backward kernel over the (x, dy) plane, in bins, collected
 * during the backward sweep (backward_sweep.h, field heat).
 *
 * Columns bin x by value: GA_HEAT_X_BINS equal bins over [-8, 8) (x = 8 in
 * the last), then one column for x < -8 and one for x > 8 (infinities
 * included).  Rows bin dy by its exponent field (sign ignored): row 0 holds
 * the zeros and subnormals, the last row infinities and NaNs.  A pair whose
 * x is NaN has no column and is counted in nan_x, so the cells and nan_x add
 * up to the pairs measured.  Cells hold counts and maxima only, so merging
 * per-thread maps in any order gives the same bits. */
#ifndef GA_BACKWARD_HEAT_H
#define GA_BACKWARD_HEAT_H

#include <stdint.h>

#include "formats/format.h"
#include "grade/error.h"

#define GA_HEAT_X_BINS 128
#define GA_HEAT_X_LIMIT 8.0
#define GA_HEAT_COLUMN_BELOW GA_HEAT_X_BINS        /* x < -8 */
#define GA_HEAT_COLUMN_ABOVE (GA_HEAT_X_BINS + 1)  /* x > 8 */
#define GA_HEAT_COLUMNS (GA_HEAT_X_BINS + 2)
#define GA_HEAT_ROWS_MAX 256                       /* an 8-bit exponent field */

struct ga_heat_cell {
    uint64_t count, incorrect, unfaithful;
    double max_ulp;      /* over the cell's pairs with an ulp error (not NaN); 0 when none */
};

struct ga_backward_heat {
    const struct ga_format *format;
    int rows;            /* 2^(exponent bits) */
    uint64_t nan_x;
    struct ga_heat_cell cell[GA_HEAT_ROWS_MAX][GA_HEAT_COLUMNS];
};

/* An empty map for f (at most GA_HEAT_ROWS_MAX exponents), or NULL when out
 * of memory or f's exponent field is wider; free with free(). */
struct ga_backward_heat *ga_backward_heat_new(const struct ga_format *f);
/* The column of x, -1 for NaN. */
int ga_backward_heat_column(double x);
/* The lower edge of column k < GA_HEAT_X_BINS. */
double ga_backward_heat_column_lo(int k);
/* One pair measured: its error e. */
void ga_backward_heat_add(struct ga_backward_heat *h, ga_bits x, ga_bits dy,
                          const struct ga_error *e);
/* into += from (same format). */
void ga_backward_heat_merge(struct ga_backward_heat *into, const struct ga_backward_heat *from);

#endif
