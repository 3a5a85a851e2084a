/* NumPy .npy files holding one 1-D array of encodings.
 *
 * Format (numpy.lib.format, NEP 1): the magic "\x93NUMPY", a major and a
 * minor version byte, the header length (2 bytes little-endian in version
 * 1.0, 4 bytes in 2.0), then the header: a Python dict literal with exactly
 * the keys 'descr', 'fortran_order' and 'shape', padded with spaces and ended
 * by '\n'; the data follows.
 *
 * Read: versions 1.0 and 2.0; shape (n,); dtypes '<f4' for float32, '<f2'
 * for float16, and '<u2' for bfloat16 (the bit patterns, as written by
 * np.save(path, a.view(np.uint16))).  fortran_order True is accepted for 1-D
 * arrays, whose bytes are the same in either order (np.load agrees).
 * Written: version 1.0, header padded so the data starts on a 64-byte
 * boundary as NumPy does, atomically (atomic_file.h). */
#ifndef GA_NPY_H
#define GA_NPY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "formats/format.h"
#include "io/array_file.h"
#include "io/io_error.h"

/* The dtype string of f in a .npy header: "<f4", "<f2" or "<u2". */
const char *ga_npy_dtype(const struct ga_format *f);

/* The format whose dtype is descr, or NULL. */
const struct ga_format *ga_npy_format_for_dtype(const char *descr);

/* Open for reading; f NULL takes the format from the dtype.  On success
 * r->length, r->format and r->data_offset are set; ga_array_close(r) ends. */
enum ga_io_status ga_npy_open(const char *path, const struct ga_format *f,
                              struct ga_array_reader *r, struct ga_io_error *err);

/* The same over fd, a regular file already open (closed by
 * ga_array_close, or now when refused), named path in messages. */
enum ga_io_status ga_npy_open_fd(int fd, const char *path, const struct ga_format *f,
                                 struct ga_array_reader *r, struct ga_io_error *err);

/* Start writing length elements: the header is written now. */
enum ga_io_status ga_npy_create(const char *path, const struct ga_format *f,
                                uint64_t length, bool overwrite,
                                struct ga_array_writer *w, struct ga_io_error *err);

#endif
