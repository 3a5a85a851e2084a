/* Real libraries that run outside gelu-acc (ONNX Runtime in Node.js, say):
 * their outputs, computed by a script and described by a manifest, become
 * rows of a report's real-library section, graded like any outputs file.
 *
 * A manifest (tools/onnxruntime/gelu-ort.mjs writes one) has the line
 * syntax of baseline files (check/baseline.h): comments, one '[name]'
 * section per operator and format, 'key = value' lines:
 *
 *   [onnxruntime-gelu-float32]
 *   library = onnxruntime-node          required, as are version, operator,
 *   version = 1.30.0                    format and reference
 *   operator = Gelu (ai.onnx opset 20, approximate = none)
 *   format = float32
 *   reference = gelu                    (or gelu_tanh)
 *   kernel = outputs:FILE               the outputs, and the inputs they
 *   inputs = FILE                       answer (paths relative to the manifest)
 *   domain = stride:16                  the domain the inputs are (checked)
 *   graph = Gelu                        optional: what the library ran
 *   cpu = AMD EPYC 9R14                 optional: the CPU that computed the
 *   isa = avx avx2 fma f16c             outputs and its extensions, as
 *                                       ga_real_cpu names them (real.h)
 *   path = long tensors                 optional: the call's length or route,
 *                                       shown with the operator
 *   lengths = lengths 1 and 67: ...     optional: what other lengths gave
 *                                       against these outputs (a long run)
 *   graded = FILE.json                  optional, ignored here
 * or, instead of kernel/inputs/domain/graph/graded:
 *   unsupported = REASON                the library refuses it: listed, not measured
 *
 * Read strictly: an unknown key, a key twice, a missing one or a value too
 * long for its field is refused with FILE:LINE. */
#ifndef GA_REAL_OUTPUTS_H
#define GA_REAL_OUTPUTS_H

#include <stddef.h>

#include "formats/format.h"
#include "domain/domain.h"
#include "truth/function.h"

struct ga_real_outputs_entry {
    char name[128];
    char library[128], version[64], operator_text[256], graph[256];
    char cpu[128], isa[128];             /* "" when the manifest does not say */
    char path[256], lengths[384];        /* "" when the manifest does not say */
    const struct ga_format *format;
    enum ga_function reference;
    char outputs[1024], inputs[1024];   /* paths as the report opens them */
    char domain[GA_DOMAIN_SPEC_LEN];
    char unsupported[512];               /* non-empty: not measured, and why */
    int line;                            /* of the section header */
};

struct ga_real_outputs {
    struct ga_real_outputs_entry *entries;
    size_t count;
};

/* Read a manifest; paths in it are made relative to its directory.
 * Returns 0, or -1 with "FILE:LINE: what" in err. */
int ga_real_outputs_read(const char *path, struct ga_real_outputs *ro, char *err, size_t errlen);
void ga_real_outputs_free(struct ga_real_outputs *ro);

#endif
