/* A public grader (gelu-acc.h) is the statistics accumulator of the sweeps
 * (grade/stats.h) with the reference it grades against. */
#ifndef GA_API_GRADER_H
#define GA_API_GRADER_H

#include <gelu-acc/gelu-acc.h>

#include "grade/stats.h"

struct gelu_acc_grader {
    enum ga_function reference;
    struct ga_stats *stats;
};

/* The summaries of every region (GA_REGION_ALL last), refined by MPFR as
 * 'gelu-acc grade' reports them: GELU_ACC_OK, or a status with the message. */
int ga_api_grader_summaries(const gelu_acc_grader *g, struct ga_summary all[GA_REGION_COUNT + 1]);

#endif
