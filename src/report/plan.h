/* What a report measures for one format: every catalogue implementation
 * against exact GELU, and the tanh-form ones against their own formula too;
 * then every real library (real/real.h) that runs here, the same way. */
#ifndef GA_REPORT_PLAN_H
#define GA_REPORT_PLAN_H

#include <stddef.h>

#include "formats/format.h"
#include "real/real.h"
#include "measure/sweep.h"
#include "report/model_proof.h"
#include "report/real_outputs.h"
#include "report/result.h"

/* The formats of a report, in the order of its index: the wide ones, then
 * the small ones (exhaustive, a few hundred encodings each). */
#define GA_REPORT_FORMATS \
    "bfloat16,float16,float32,float8_e4m3fn,float8_e5m2,float6_e2m3,float6_e3m2,float4_e2m1"
/* What --formats all (make report) measures: those, then float64, which
 * only a sample covers. */
#define GA_REPORT_FORMATS_ALL GA_REPORT_FORMATS ",float64"

/* The most measurements ga_report_plan writes for any format. */
size_t ga_report_plan_max(void);

/* Fill m[0..n) (m holds ga_report_plan_max() entries) and return n. */
size_t ga_report_plan(const struct ga_format *f, struct ga_measurement *m);

#define GA_REPORT_LENGTHS_NOTE 384

/* The real libraries of a report page: the kernels opened, the machine
 * line, what could not be measured and why. */
struct ga_report_real {
    struct ga_real_kernel **kernels;
    size_t count;
    char cpu[128], isa[128];   /* ga_real_cpu's */
    char machine[512];
    char not_measured[4096];   /* lines "name: why" */
    /* the rows graded from files: a line "name\tcpu\tisa\tlibrary\tversion\tcall\tpath\tlengths"
     * each (ga_report_graded_machine), split into strings by ga_report_real_describe */
    char graded_machine[16384];
    /* The tensor lengths (engine/report_lengths.h): per kernel above, what
     * its other lengths gave ("" when not checked); and the kernels at a
     * length that gave other bits, each a row of its own, with its call. */
    char (*lengths)[GA_REPORT_LENGTHS_NOTE];
    struct ga_report_length_row {
        struct ga_real_kernel *kernel;
        char call[384];
    } *length_rows;
    size_t length_row_count;
    /* The claimed models (engine/report_proofs.h): one per kernel above. */
    struct ga_model_proof *proofs;
};

/* The most measurements ga_report_plan_real writes. */
size_t ga_report_plan_real_max(void);

/* Open every real implementation that runs here in f (none for the small
 * formats, which no real library computes: 0 and an empty *rr), fill m (which holds
 * ga_report_plan_real_max() entries) and *rr; return the count.  Those
 * that cannot run (module not built, library refuses f) are listed in
 * rr->not_measured.  Close with ga_report_real_close. */
size_t ga_report_plan_real(const struct ga_format *f, struct ga_measurement *m,
                           struct ga_report_real *rr);

void ga_report_real_close(struct ga_report_real *rr);

/* The lines of rr->graded_machine for the sections of f in the manifests
 * ro[0..nro) that are measured, into buf: where and how each ran, as its
 * manifest says ("not recorded" for a CPU it does not name). */
void ga_report_graded_machine(const struct ga_format *f, const struct ga_real_outputs *ro,
                              size_t nro, char *buf, size_t size);

/* The machine and call of each real row of r[0..n) (result.h): a kernel
 * measured here, as rr and its module say; a row graded from files, as its
 * line of rr->graded_machine says.  Once per rr: the strings stay rr's and
 * the modules'. */
void ga_report_real_describe(struct ga_report_real *rr, const struct ga_format *f,
                             struct ga_result *r, size_t n);

/* The machine keys of a row that real kernel k measured here on f (a
 * sweep's row, as a report's real rows have them): the strings live in
 * *text, which must outlive m. */
struct ga_report_machine_text {
    char cpu[128], isa[128], call[512];
};
void ga_report_kernel_machine(const struct ga_real_kernel *k, const struct ga_format *f,
                              struct ga_report_machine_text *text, struct ga_result_machine *m);
/* The same for any real call, forward or backward: its library, entry
 * point, length and what its module said (about). */
void ga_report_call_machine(const char *library, const char *entry, enum ga_real_length length,
                            const struct gelu_acc_real_info *about,
                            struct ga_report_machine_text *text, struct ga_result_machine *m);

#endif
