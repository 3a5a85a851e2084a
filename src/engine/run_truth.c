/* The truth of arrays of inputs (engine/run_truth.h). */
#include "engine/run_truth.h"

#include "truth/truth.h"

static int truth_of(const struct ga_truth_job *job, ga_bits x, struct ga_truth *t)
{
    if (job->input_format)
        return ga_truth_cast(job->input_format, x, job->format, job->overflow, t);
    return ga_truth(job->oracle, job->function, job->format, x, t);
}

int ga_run_truth(const struct ga_truth_job *job, const ga_bits *inputs, size_t n,
                 struct ga_truth *truths, size_t *undecided)
{
    size_t first = n;

    /* the first undecided index, whatever the threads' order */
    #pragma omp parallel for schedule(dynamic, 64)
    for (size_t i = 0; i < n; i++)
        if (truth_of(job, inputs[i], &truths[i]) != GA_TRUTH_OK) {
            #pragma omp critical
            if (i < first)
                first = i;
        }
    *undecided = first;
    return first < n ? -1 : 0;
}
