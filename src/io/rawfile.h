/* Raw files: the encodings one after another, little-endian, nothing else:
 * 4 bytes per float32 element, 2 per float16 or bfloat16 element.  What a
 * C program gets from fwrite(out, sizeof *out, n, file) on x86 or ARM.
 * The length is the file size divided by the element size; the format must
 * be given, since nothing in the file says it. */
#ifndef GA_RAWFILE_H
#define GA_RAWFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "formats/format.h"
#include "io/array_file.h"
#include "io/io_error.h"

/* Open for reading: GA_IO_MALFORMED when the size is not a multiple of the
 * element size. */
enum ga_io_status ga_raw_open(const char *path, const struct ga_format *f,
                              struct ga_array_reader *r, struct ga_io_error *err);

/* Start writing length elements. */
enum ga_io_status ga_raw_create(const char *path, const struct ga_format *f,
                                uint64_t length, bool overwrite,
                                struct ga_array_writer *w, struct ga_io_error *err);

#endif
