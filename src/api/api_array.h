/* What the public library's arrays mean: its enums as the suite's formats
 * and functions, and elements as encodings (gelu-acc.h, "Encodings").
 * Each function checks its arguments and, on failure, sets the thread's
 * message (api_status.h) and returns the public status. */
#ifndef GA_API_ARRAY_H
#define GA_API_ARRAY_H

#include <stddef.h>

#include <gelu-acc/gelu-acc.h>

#include "formats/format.h"
#include "truth/function.h"

/* How many elements the library works on at a time: the encodings and
 * truths of a block live on the stack. */
#define GA_API_BLOCK 256

/* The suite's format of a public one, or NULL (and the message). */
const struct ga_format *ga_api_format(gelu_acc_format format);
/* The suite's function, or -1 (and the message). */
int ga_api_function(gelu_acc_function fn, enum ga_function *out);
/* A forward function (backward and graders take GELU or its tanh form),
 * or -1 (and the message naming `what`). */
int ga_api_forward_function(gelu_acc_function fn, const char *what, enum ga_function *out);

/* GELU_ACC_E_FORMAT unless the backward truth covers f (at most 24
 * significant bits: truth/backward.h). */
int ga_api_backward_format(const struct ga_format *f);

/* GELU_ACC_E_ARGUMENT when an array is NULL while n > 0: name says which. */
int ga_api_check_array(const void *a, size_t n, const char *name);

/* Encodings first + [0, n) of an array of format f into out;
 * GELU_ACC_E_ENCODING, naming array `name` and the element, when one has
 * bits above the format's width. */
int ga_api_load(const struct ga_format *f, const void *a, size_t first, size_t n, ga_bits *out,
                const char *name);
/* Encodings in[0, n) into elements first + [0, n) of an array of format f. */
void ga_api_store(const struct ga_format *f, void *a, size_t first, size_t n, const ga_bits *in);

#endif
