/* Bitwise equality of backward statistics and heat maps, for the tests
 * that check one way of sweeping against another (cmocka assertions). */
#ifndef GA_TEST_BACKWARD_SAME_H
#define GA_TEST_BACKWARD_SAME_H

#include "measure/backward_heat.h"
#include "grade/backward_stats.h"

/* Every count, every double by its bits (sums included), the worst pair. */
void assert_same_backward_stats(const struct ga_backward_stats *a,
                                const struct ga_backward_stats *b);
/* Every cell, and the NaN-x count. */
void assert_same_backward_heat(const struct ga_backward_heat *a, const struct ga_backward_heat *b);

#endif
